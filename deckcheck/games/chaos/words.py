"""The game's own words, as deckcheck's messages show them: its name, its card types and its
deck sections as a deck-list header accepts them (``GameSpec.words``). Literal ``_p`` calls so
the catalogue extracts them; a function, as ``_p`` answers in the language of the moment."""

from __future__ import annotations

from deckcheck.i18n import _p


def words() -> dict[str, str]:
    return {
        "chaos": _p("chaos", "chaos"),
        "chara": _p("chaos", "chara"),
        "extra": _p("chaos", "extra"),
        "partner": _p("chaos", "partner"),
        "set": _p("chaos", "set"),
        "event": _p("chaos", "event"),
        "main": _p("chaos", "main"),
    }
