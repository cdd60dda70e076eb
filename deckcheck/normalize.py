"""Name, title and OS normalisation.

Deck lists are typed by hand, in full or half width; card data comes from many sources. Every
comparison of names goes through the keys below so that 「ＣＬＡＮＮＡＤ」 and 「CLANNAD」 meet.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from deckcheck import games

_SPACES = re.compile(r"\s+")
# Marks ignored when resolving titles and OS names: the decorative ・†☆♪＊!? (issue #2), plus
# ×～。 and brackets, which the rulebook appendix's PDF text drops (card_pool/chaos_os.toml) and
# which §4.2 says the rules do not reference inside a 作品名 or OS 名. Applied after NFKC, which
# maps ＊→*, ！→!, ？→?, ～→~.
_TITLE_MARKS = re.compile(r"[・･†☆★♪*!?×~〜。、「」『』《》〈〉<>()\[\]\s]+")
# "(?:<\s*)?", not "<?\s*": two runs of \s* side by side backtrack in quadratic time
_OS_PREFIX = re.compile(r"^\s*(?:<\s*)?os\s*[:：]\s*", re.IGNORECASE)


def nfkc(text: str) -> str:
    """NFKC with surrounding white space removed: the base of every key."""
    return unicodedata.normalize("NFKC", text).strip()


@lru_cache(maxsize=65536)
def name_key(game: str, name: str) -> str:
    """Key under which two card names are the same card name in ``game``.

    All games: NFKC (full/half width) and case folding. A game whose spec says so ignores
    spaces (ChaosTCG 総合ルール §2.1.5: spaces in a card name are not part of it).
    """
    key = nfkc(name).casefold()
    if games.get(game).names_ignore_spaces:
        return _SPACES.sub("", key)
    return _SPACES.sub(" ", key)


@lru_cache(maxsize=65536)  # a pool has a few hundred OS names shared by thousands of cards
def title_key(title: str) -> str:
    """Key of a chaos 作品名 or OS name: with or without ``OS:``, any width, no spaces or marks."""
    text = nfkc(title)
    text = _OS_PREFIX.sub("", text)
    text = text.strip("<>〈〉《》 ")
    return _TITLE_MARKS.sub("", text).casefold()


_FU_ICHI = re.compile(r"^符ノ壱\s*[“\"「『”](?P<base>.+?)[”\"」』“]\s*$")


def vision_copy_name(name: str) -> str:
    """Name that counts toward VISION's copy limit: 符ノ壱“X” counts as X (a fan source, wikiwiki
    rueren, recorded in formats/vision-standard.toml); 符ノ弐 cards count alone."""
    text = nfkc(name)
    match = _FU_ICHI.match(text)
    return match.group("base") if match else text


_WORD_NOISE = re.compile(r"[\s\[\]【】「」『』]")


@lru_cache(maxsize=4096)
def word_key(word: str) -> str:
    """Append words and keywords compare without brackets, spaces or width: [TST ゲージ]."""
    return _WORD_NOISE.sub("", nfkc(word)).casefold()


games.on_change(name_key.cache_clear)  # a game registered again may compare names differently
