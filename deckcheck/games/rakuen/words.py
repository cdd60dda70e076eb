"""This game's words for messages (``GameSpec.words.words``; see ``deckcheck.wording.word``)."""

from __future__ import annotations

from deckcheck.sdk import _p, game_words

words = game_words(
    lambda: (
        _p("rakuen", "rakuen"),
        _p("rakuen", "member"),
        _p("rakuen", "tactics"),
        _p("rakuen", "paradox"),
        _p("rakuen", "gate"),
        _p("rakuen", "gate number"),
        _p("rakuen", "main"),
    )
)
