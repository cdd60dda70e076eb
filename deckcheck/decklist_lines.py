"""The forms of a deck-list line players write besides ``4 REF`` (blogs, Twitter, tournament
sheets): the count after the name or marked before it (``チルノ ×3``, ``×3 チルノ``,
``3枚 チルノ``, ``チルノ 3枚``, in either width), and headings for a section or a card type,
bare or in 【】〔〕[] or after ■◆, with or without a count (``【コマンド】``, ``■スペル 6``,
``キャラクター（10枚）``). deckcheck's reading of how lists are written; outside the rulebooks.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from deckcheck import games
from deckcheck.decklist_headers import section_name
from deckcheck.normalize import nfkc

_X = "xX×ｘＸ"
# "×3 REF", "x3 REF", "×3枚 REF": the mark before the count (a space or 枚 ends the count)
_MARKED_FIRST = re.compile(rf"^[{_X}]\s*(?P<count>\d+)(?:\s*枚\s*|\s+)(?P<ref>\S.*)$")
# "REF ×3", "REF×3", "REF x3" (an ASCII x only after a space: "MAX3" keeps its x),
# "REF 3枚", "REF 3x", "REF ×3枚"
_COUNT_AFTER = re.compile(
    rf"^(?P<ref>\S.*?)(?:(?:\s+[xX]|\s*[×ｘＸ])\s*(?P<count>\d+)\s*枚?"
    rf"|\s*(?P<count2>\d+)\s*枚|\s+(?P<count3>\d+)\s*[{_X}])$"
)


class CardLine(NamedTuple):
    written: str  # the count as written (any width)
    ref: str


def card_line(line: str) -> CardLine | None:
    """A card line whose count is not its first word, as (count as written, reference)."""
    m = _MARKED_FIRST.match(line)
    if m is not None:
        return CardLine(m["count"], m["ref"])
    m = _COUNT_AFTER.match(line)
    if m is not None:
        return CardLine(m["count"] or m["count2"] or m["count3"], m["ref"].strip())
    return None


# marks before a heading, and the brackets around it (after NFKC: ［］ are [])
_MARKS = "■□◆◇●○◎▼▽▲△▶►★☆・*#"
_BRACKETS = re.compile(r"[【】〔〕\[\]〈〉《》<>]")
# the heading's word, then its count: "コマンド 34", "コマンド: 34", "コマンド (34枚)"
# ("サイドボード2" is no heading: a count is set apart by a space, ":" or "(")
_HEADING = re.compile(
    r"^(?P<word>[^\d:()]+?)(?:(?:\s*[:(]\s*|\s+)\(?\s*\d{1,3}\s*枚?\s*\)?)?\s*:?$"
)


class Heading(NamedTuple):
    section: str | None  # the section it starts; None: a card type's heading within one
    word: str


def heading(line: str) -> Heading | None:
    """The section or card-type heading ``line`` is, or None. A type word (each game's card
    types: キャラクター, スペル, コマンド…) heads a group of the current section."""
    text = _BRACKETS.sub(" ", nfkc(line).lstrip(_MARKS)).strip()
    m = _HEADING.match(text)
    if m is None:
        return None
    word = m["word"].strip()
    section = section_name(word)
    if section is not None:
        return Heading(section, word)
    folded = word.casefold()
    if any(folded in spec.type_words for spec in games.specs()):
        return Heading(None, word)
    return None
