"""The game's own words, as deckcheck's messages show them: its name, its card types and its
deck sections as a deck-list header accepts them (``GameSpec.words``). Literal ``_p`` calls so
the catalogue extracts them; a function, as ``_p`` answers in the language of the moment."""

from __future__ import annotations

from deckcheck.i18n import _p


def words() -> dict[str, str]:
    return {
        "iris": _p("iris", "iris"),
        "unit": _p("iris", "unit"),
        "strategy": _p("iris", "strategy"),
        "tactic": _p("iris", "tactic"),
        "enhancement": _p("iris", "enhancement"),
        "main": _p("iris", "main"),
    }
