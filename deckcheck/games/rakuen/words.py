"""The game's own words, as deckcheck's messages show them: its name, its card types and its
deck sections as a deck-list header accepts them (``GameSpec.words``). Literal ``_p`` calls so
the catalogue extracts them; a function, as ``_p`` answers in the language of the moment."""

from __future__ import annotations

from deckcheck.i18n import _p


def words() -> dict[str, str]:
    return {
        "rakuen": _p("rakuen", "rakuen"),
        "member": _p("rakuen", "member"),
        "tactics": _p("rakuen", "tactics"),
        "paradox": _p("rakuen", "paradox"),
        "gate": _p("rakuen", "gate"),
        "gate number": _p("rakuen", "gate number"),
        "main": _p("rakuen", "main"),
    }
