"""The game's own words, as deckcheck's messages show them: its name, its card types and its
deck sections as a deck-list header accepts them (``GameSpec.words``). Literal ``_p`` calls so
the catalogue extracts them; a function, as ``_p`` answers in the language of the moment."""

from __future__ import annotations

from deckcheck.i18n import _p


def words() -> dict[str, str]:
    return {
        "vision": _p("vision", "vision"),
        "character": _p("vision", "character"),
        "spell": _p("vision", "spell"),
        "command": _p("vision", "command"),
        "main": _p("vision", "main"),
        "side": _p("vision", "side"),
    }
