"""The lines of a text deck list that are not cards: section headers (``[side]``, or the bare
section word, as tournament lists write them) and type subtotals (a card type word of the
game's spec and a number)."""

from __future__ import annotations

import re

from deckcheck import games
from deckcheck.normalize import nfkc

# Header words every game shares; each game's spec adds its own (games/<game>/).
_COMMON_ALIASES = {"main": "main", "deck": "main", "メイン": "main", "メインデッキ": "main"}
_aliases: dict[str, str] | None = None


def _section_aliases() -> dict[str, str]:
    global _aliases
    if _aliases is None:
        found = dict(_COMMON_ALIASES)
        for spec in games.specs():
            found.update({k.casefold(): v for k, v in spec.section_aliases.items()})
        _aliases = found
    return _aliases


def _forget_aliases() -> None:
    global _aliases
    _aliases = None


games.on_change(_forget_aliases)


def header_word(line: str) -> str | None:
    """The word of a ``[ word ]`` header line, or None when the line is no header. String
    methods, not a regex: the pattern this replaced backtracked in cubic time on ``[`` followed
    by many spaces."""
    if len(line) < 2 or line[0] != "[" or line[-1] != "]" or "]" in line[1:-1]:
        return None
    return line[1:-1].strip()


def section_name(header: str) -> str | None:
    """Canonical section for a header word, or None when it names no section."""
    return _section_aliases().get(header.strip().casefold())


_SUBTOTAL = re.compile(r"^(?P<word>[^\d\s]+)\s*[0-9]{1,3}$")  # a word, then a count


def subtotal(line: str) -> bool:
    m = _SUBTOTAL.match(line)  # a card type word of some game, then the list's count of it
    return m is not None and any(nfkc(m["word"]).casefold() in s.type_words for s in games.specs())
