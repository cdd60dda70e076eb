"""This game's words for messages (``GameSpec.words.words``; see ``deckcheck.wording.word``)."""

from __future__ import annotations

from deckcheck.sdk import _p, game_words

words = game_words(
    lambda: (
        _p("iris", "iris"),
        _p("iris", "unit"),
        _p("iris", "strategy"),
        _p("iris", "tactic"),
        _p("iris", "enhancement"),
        _p("iris", "main"),
    )
)
