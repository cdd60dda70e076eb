"""This game's words for messages (``GameSpec.words.words``; see ``deckcheck.wording.word``)."""

from __future__ import annotations

from deckcheck.sdk import _p


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
