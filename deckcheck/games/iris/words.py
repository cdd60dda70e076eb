"""This game's words for messages (``GameSpec.words.words``; see ``deckcheck.wording.word``)."""

from __future__ import annotations

from deckcheck.sdk import _p


def words() -> dict[str, str]:
    return {
        "iris": _p("iris", "iris"),
        "unit": _p("iris", "unit"),
        "strategy": _p("iris", "strategy"),
        "tactic": _p("iris", "tactic"),
        "enhancement": _p("iris", "enhancement"),
        "main": _p("iris", "main"),
    }
