"""The forms of a deck-list line players write besides ``4 REF`` (blogs, Twitter, tournament
sheets): the count after the name or marked before it (``チルノ ×3``, ``×3 チルノ``,
``3枚 チルノ``, ``チルノ 3枚``, in either width), and headings for a section or a card type,
bare or in 【】〔〕[] or after ■◆, with or without a count (``【TYPE】``, ``■TYPE 6``,
``SECTION（10枚）``: each game's own words), and list bullets before any of them (``・``,
``- ``). deckcheck's reading of how lists are written; outside the rulebooks.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from deckcheck import plugins
from deckcheck.decklist.headers import section_name
from deckcheck.normalize import nfkc

_X = "xX×ｘＸ"
# marks that need no space before them (an ASCII x may end a word: MAX3); after a name, an
# asterisk is a count's mark too (因幡てゐ*3)
_TIMES = "×ｘＸ*＊"
# "×3 REF", "x3 REF", "×3枚 REF": the mark before the count (a space or 枚 ends the count)
_MARKED_FIRST = re.compile(rf"^[{_X}]\s*(?P<count>\d+)(?:\s*枚\s*|\s+)(?P<ref>\S.*)$")


_SET_APART = ",，、:："  # a count after a name in a spreadsheet's or a form's column


def _trailing_digits(text: str) -> str:
    end = len(text)
    start = end
    while start > 0 and text[start - 1].isdecimal():
        start -= 1
    return text[start:end]


def _x_apart(before: str) -> bool:
    """An ASCII x is a count's mark after a space, or glued to a name that does not end in an
    ASCII letter or digit (``マナの生成x3``, as lists on social media write it); ``MAX3`` is a
    word."""
    return before.rstrip() != before or (before[-1:] != "" and not before[-1].isascii())


def _count_after(line: str) -> tuple[str, str] | None:
    """``REF ×3``, ``REF×3``, ``REF x3``, ``REF*3``, ``REF 3枚``, ``REF 3x``, ``REF ×3枚``,
    ``REF,3``, ``REF：3``, ``REF<tab>3`` as (count, reference). String methods, not a regex: a
    lazy name before optional marks and digits backtracks in quadratic time on long runs of
    spaces or digits (tests/test_regex_time)."""
    text = line.rstrip()
    counted = text.endswith("枚")
    if counted:
        text = text[:-1].rstrip()
    elif text[-1:] in _X and text[:-1].rstrip() != text[:-1]:  # never "REF 3 x"
        return None
    elif text[-1:] in _X:  # REF 3x
        digits = _trailing_digits(text[:-1])
        head = text[: len(text) - 1 - len(digits)]
        if digits and head.rstrip() != head and head.strip():
            return digits, head.strip()
        return None
    digits = _trailing_digits(text)
    if not digits:
        return None
    head = text[: len(text) - len(digits)].rstrip()
    if head[-1:] in _TIMES or (head[-1:] in "xX" and _x_apart(head[:-1])):
        ref = head[:-1].strip()
    elif head[-1:] in _SET_APART or text[len(head) : len(head) + 1] == "\t":
        ref = head.rstrip(_SET_APART).strip()  # REF,3  REF：3  REF<tab>3, as sheets copy them
    elif counted:
        ref = head.strip()  # REF 3枚
    else:
        return None
    return (digits, ref) if ref else None


# List bullets before a line, as blogs, chats and Markdown write them: ``・チルノ ×3``,
# ``- 3 チルノ``, ``* 3 チルノ``. An ASCII mark counts only before a space (``-3`` is a count).
BULLETS = "・･•●○◆◇■□▪▫‣∙◦-*"


def without_bullet(line: str) -> str:
    """``line`` without the list bullet in front of it (callers check ``line[0] in BULLETS``)."""
    rest = line[1:]
    if line[0] in "-*" and rest[:1] not in (" ", "\t", "\u3000"):
        return line
    return rest.lstrip() or line


class CardLine(NamedTuple):
    written: str  # the count as written (any width)
    ref: str


def card_line(line: str) -> CardLine | None:
    """A card line whose count is not its first word, as (count as written, reference)."""
    m = _MARKED_FIRST.match(line)
    if m is not None:
        return CardLine(m["count"], m["ref"])
    after = _count_after(line)
    if after is None and (split := _number_last(line)) is not None:
        # REF ×3 N1374, REF ×3（N1374）: the printing's number after the count, read as
        # 「REF N1374」, the name beside its number (resolve.py; deckcheck's reading)
        counted = _count_after(split[0])
        after = counted and (counted[0], f"{counted[1]} {split[1]}")
    if after:
        return CardLine(after[0], unnumbered(after[1]))
    return None


# a card number: letters, then digits, maybe a dot or a hyphen (N30, PR.008, SAMPLE-C-003)
_NUMBER = re.compile(r"[A-Za-z]{1,8}[-.]?(?:[A-Za-z]{1,8}-)?[0-9]{1,5}")


def _number_last(line: str) -> tuple[str, str] | None:
    """``(head, number)`` of a line that ends in a card number, after white space or in
    brackets; string methods, for the reason ``_count_after`` gives."""
    text = line.rstrip()
    if text[-1:] in ")）]】〕":
        start = max(text.rfind(mark) for mark in "(（[【〔")
        head, token = text[:start], text[start + 1 : -1].strip()
    else:
        start = max(text.rfind(" "), text.rfind("\t"), text.rfind("\u3000"))
        head, token = text[:start], text[start + 1 :]
    return (head, token) if start > 0 and _NUMBER.fullmatch(token) else None


# A list's own numbering before a card whose count is written elsewhere on the line:
# ``1. 森近 霖之助 ×2``, ``2) チルノ 3``, ``③チルノ×3`` (no card's name starts with a digit;
# ``3. チルノ`` alone, with no other count, stays no card line). deckcheck's reading.
_LIST_NUMBER = re.compile(r"(?:[0-9０-９]{1,3}[.．)）]|[\u2460-\u2473])\s*")


def unnumbered(ref: str) -> str:
    """``ref`` without a list's number in front of it."""
    m = _LIST_NUMBER.match(ref)
    return ref[m.end() :] or ref if m is not None else ref


def bare_count(line: str) -> CardLine | None:
    """``REF 3``: a count after a space and nothing else (``森近 霖之助 2``, ``秋 穣子　３``), or
    in brackets (``大妖精（3）``) or after dots (``大妖精……3``), as plain-text lists write it.
    The parser cannot tell it from a name that ends in a number (some shipped sample cards'
    names do), so the validator decides with the pool: the line is a card line when the words
    before the count name a card (``DeckList.bare``); otherwise it is not a card line, as
    before. deckcheck's reading, outside the rulebooks."""
    if line[-1:] in ")）":  # REF (3), REF（3枚）: a count in brackets, as some lists write it
        start = max(line.rfind("("), line.rfind("（"))
        inside = line[start + 1 : -1].strip().removesuffix("枚").rstrip()
        if start > 0 and inside.isdecimal() and len(inside) <= 4 and line[:start].strip():
            return CardLine(inside, unnumbered(line[:start].strip()))
        return None
    digits = _trailing_digits(line)
    head = line[: len(line) - len(digits)]
    trimmed = head.rstrip()
    dotless = trimmed.rstrip("…‥.")  # REF……3, REF … 3: a contents page's dots
    if head == trimmed:  # REF……3; REF3 (no space, no dots) is no count
        ref = dotless if dotless != trimmed else ""
    else:  # REF 3, REF … 3; the dots of a name that ends in them stay (西行妖、開花… 1)
        ref = dotless if dotless != dotless.rstrip() else trimmed
    if not digits or len(digits) > 4 or not ref.strip():
        return None
    return CardLine(digits, unnumbered(ref.strip()))


# marks before a heading, and the brackets around it (after NFKC: ［］ are [])
_MARKS = "■□◆◇●○◎▼▽▲△▶►★☆・*#"
# a heading may be framed on both sides: ◆SECTION◆, --- SECTION ---, ── SECTION ──
_AROUND = _MARKS + "-=~─━ \t"
_BRACKETS = re.compile(r"[【】〔〕\[\]〈〉《》<>]")


class Heading(NamedTuple):
    section: str | None  # the section it starts; None: a card type's heading within one
    word: str


def heading(line: str) -> Heading | None:
    """The section or card-type heading ``line`` is, or None. A type word (each game's card
    types, from its spec) heads a group of the current section."""
    word = _heading_word(_BRACKETS.sub(" ", nfkc(line).strip(_AROUND)).strip())
    if word is None:
        return None
    section = section_name(word)
    if section is not None:
        return Heading(section, word)
    folded = word.casefold()
    if any(folded in spec.cards.type_words for spec in plugins.specs()):
        return Heading(None, word)
    return None


def _heading_word(text: str) -> str | None:
    """The word of ``WORD``, ``WORD 34``, ``WORD: 34``, ``WORD (34枚)``; None when a count is
    glued to the word (``WORD2``). String methods, for the reason
    ``_count_after`` gives."""
    text = text.rstrip(": \t")
    if text.endswith(")"):
        text = text[:-1].rstrip()
    if text.endswith("枚"):
        text = text[:-1].rstrip()
    digits = _trailing_digits(text)
    if digits:
        if len(digits) > 3:
            return None
        text = text[: len(text) - len(digits)]
        if text.rstrip(" \t(:") == text:  # the count is set apart by a space, ":" or "("
            return None
        text = text.rstrip(" \t(:")
    word = text.strip()
    return word if word and not any(ch.isdecimal() for ch in word) else None


# The words of a list's total line, after NFKC and case folding: 合計50枚, 計 50, Total: 50
_TOTAL_WORDS = sorted(
    ("合計", "計", "総計", "総数", "枚数", "総枚数", "デッキ枚数", "カード枚数", "total", "sum"),
    key=len,
    reverse=True,
)


def total_line(line: str) -> bool:
    """A line that states the list's total (``合計50枚``, ``計 50``, ``デッキ枚数：50``, ``Total:
    50 cards``): not a card, read and left aside, as a type's subtotal is. The validator counts
    the cards itself (its size rule says when the total is off). String methods, for the
    reason ``_count_after`` gives."""
    text = _BRACKETS.sub(" ", nfkc(line).lstrip(_MARKS)).strip().casefold()
    word = next((w for w in _TOTAL_WORDS if text.startswith(w)), None)
    if word is None:
        return False
    rest = text[len(word) :].strip(" \t:=()")
    for unit in ("枚", "cards"):
        rest = rest.removesuffix(unit).rstrip(" \t)")
    return rest.isdecimal() and len(rest) <= 4
