"""This game's words for messages (``GameSpec.words.words``; see ``deckcheck.wording.word``)."""

from __future__ import annotations

from deckcheck.sdk import _p, game_words

words = game_words(
    lambda: (
        _p("vision", "vision"),
        _p("vision", "character"),
        _p("vision", "spell"),
        _p("vision", "command"),
        _p("vision", "main"),
        _p("vision", "side"),
        # the copy key of 「Phantom Magic Vision 総合ルール」 §1.2.2.b, with 符ノ壱“X” counted as
        # X (a fan source: names.py); formats show names it by this word
        _p("vision", "vision-name"),
    )
)
