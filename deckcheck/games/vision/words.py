"""This game's words for messages (``GameSpec.words.words``; see ``deckcheck.wording.word``)."""

from __future__ import annotations

from deckcheck.sdk import _p


def words() -> dict[str, str]:
    return {
        "vision": _p("vision", "vision"),
        "character": _p("vision", "character"),
        "spell": _p("vision", "spell"),
        "command": _p("vision", "command"),
        "main": _p("vision", "main"),
        "side": _p("vision", "side"),
        # the copy key of 「Phantom Magic Vision 総合ルール」 §1.2.2.b, with 符ノ壱“X” counted as
        # X (a fan source: names.py); formats show names it by this word
        "vision-name": _p("vision", "vision-name"),
    }
