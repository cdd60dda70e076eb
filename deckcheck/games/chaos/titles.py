"""Keys of ChaosTCG titles (作品名) and OS names: how a deck list, a card file and the rulebook
appendix 「作品名と OS 名」 (card_pool/chaos_os.toml) name the same work or OS."""

from __future__ import annotations

import re

from deckcheck.sdk import nfkc, text_memo

# Marks ignored when resolving titles and OS names: the decorative ・†☆♪＊!? (issue #2), plus
# ×～。 and brackets, which the rulebook appendix's PDF text drops (its title→OS table) and
# which ChaosTCG 総合ルール 2016-05-17 §4.2 says the rules do not reference inside a 作品名 or
# OS 名. Applied after NFKC, which maps ＊→*, ！→!, ？→?, ～→~.
_TITLE_MARKS = re.compile(r"[・･†☆★♪*!?×~〜。、「」『』《》〈〉<>()\[\]\s]+")
# "(?:<\s*)?", not "<?\s*": two runs of \s* side by side backtrack in quadratic time
_OS_PREFIX = re.compile(r"^\s*(?:<\s*)?os\s*[:：]\s*", re.IGNORECASE)


@text_memo  # a pool has a few hundred OS names shared by many cards; requests bring any text
def title_key(title: str) -> str:
    """Key of a card's title (作品名) or OS name: with or without ``OS:``, any width, no spaces
    or marks."""
    text = nfkc(title)
    text = _OS_PREFIX.sub("", text)
    text = text.strip("<>〈〉《》 ")
    return _TITLE_MARKS.sub("", text).casefold()
