"""This game's words for messages (``GameSpec.words.words``; see ``deckcheck.wording.word``)."""

from __future__ import annotations

from deckcheck.sdk import _p, game_words

words = game_words(
    lambda: (
        _p("chaos", "chaos"),
        _p("chaos", "chara"),
        _p("chaos", "extra"),
        _p("chaos", "partner"),
        _p("chaos", "set"),
        _p("chaos", "event"),
        _p("chaos", "main"),
    )
)
