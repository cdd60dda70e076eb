"""Name and word normalisation (a game keys its own names, titles say, with ``nfkc`` and
``text_memo``).

Deck lists are typed by hand, in full or half width; card data comes from many sources. Every
comparison of names goes through the keys below so that 「ＣＬＡＮＮＡＤ」 and 「CLANNAD」 meet.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from deckcheck.memo import ByteCached, byte_cache, strings_bytes

_SPACES = re.compile(r"\s+")


def nfkc(text: str) -> str:
    """NFKC with surrounding white space removed: the base of every key."""
    return unicodedata.normalize("NFKC", text).strip()


# The name-key memos keep names of up to CACHED_LENGTH characters, CACHED_NAMES of them: at
# most about 16,384 × 2 × 1 KB (NFKC may lengthen a key; 4 bytes a character at worst) in bytes
# (issue 24, item 4). Longer names are keyed afresh each time.
CACHED_LENGTH = 64
CACHED_NAMES = 16384


def card_name_key(name: str, ignore_spaces: bool) -> str:
    """Key under which two card names are the same card name: NFKC (full/half width) and case
    folding, then runs of spaces as one, or no spaces when the game's spec says names ignore
    them (``Cards.names_ignore_spaces``; the game-aware key is ``plugins.name_key``). A long
    name is not memoised."""
    if len(name) > CACHED_LENGTH:
        return _card_name_key(name, ignore_spaces)
    return _cached_name_key(name, ignore_spaces)


def _card_name_key(name: str, ignore_spaces: bool) -> str:
    key = nfkc(name).casefold()
    return _SPACES.sub("" if ignore_spaces else " ", key)


_cached_name_key = lru_cache(maxsize=CACHED_NAMES)(_card_name_key)


# Words and the keys a game makes of text come from requests too, of any length: their memos
# are bounded in bytes (3,600 /odds with 95 KB keyword: values grew the workers by 700 MB;
# issue 37).
KEY_BYTES = 4 << 20


def text_memo(key: Callable[[str], str]) -> ByteCached[[str], str]:
    """``key`` (text → its comparison key) memoised within ``KEY_BYTES``: for keys of text that
    requests bring (a word, a key a game makes of text), where ``lru_cache`` would keep any
    amount."""
    return byte_cache(KEY_BYTES, strings_bytes)(key)


_WORD_NOISE = re.compile(r"[\s\[\]【】「」『』]")


@text_memo
def word_key(word: str) -> str:
    """Words a rule selects cards by (keywords, a game's list columns) compare without
    brackets, spaces or width: [TST ゲージ]."""
    return _WORD_NOISE.sub("", nfkc(word)).casefold()



# Quotes and brackets players put around a name or around the quoted part of a printed name
# (fan wikis write ”…” or "…" where the card prints “…”), after NFKC.
# The middle dot between a name's parts goes too: players write レティホワイトロック.
_LOOSE_NOISE = re.compile(r"[\s「」『』“”‘’\"'〝〞〟″`・]+")


def loose_name_key(name: str) -> str:
    """A name with no spaces, middle dots, quotes or corner brackets (any width, any case), each
    dash as - and each wave dash as ~: the key under which a reference that matches no name
    exactly may still mean exactly one name (博麗霊夢, 『紅 美鈴』, 反魂蝶 for 「反魂蝶」,
    ふらわ〜戦車 for ふらわ～戦車, レティホワイトロック). deckcheck's reading, outside the
    rulebooks: used only when it leads to a single card name. Memoised as ``card_name_key``
    is: a pool's names are keyed whenever a reference misses."""
    if len(name) > CACHED_LENGTH:
        return _loose_name_key(name)
    return _cached_loose_key(name)


# Dashes and wave dashes that NFKC leaves apart, as one each: a name printed with ～ (U+FF5E,
# what Windows' Shift_JIS gives) is typed 〜 (U+301C) on a Mac or a phone, and a printed - as
# ‐, – or −.
_DASHES = str.maketrans(dict.fromkeys("〜〰∼", "~") | dict.fromkeys("‐‒–—―−", "-"))


def one_dash(text: str) -> str:
    """``text`` with each dash as -, each wave dash as ~ (after NFKC, as the keys are)."""
    return text.translate(_DASHES)


def bare_name(key: str) -> str:
    """A name key (``card_name_key``) with no spaces or middle dots and one dash: what a name
    search compares (pool.search)."""
    return one_dash(key.replace(" ", "").replace("・", ""))


def _loose_name_key(name: str) -> str:
    return one_dash(_LOOSE_NOISE.sub("", nfkc(name).casefold()))


_cached_loose_key = lru_cache(maxsize=CACHED_NAMES)(_loose_name_key)
