"""This game's words for messages (``GameSpec.words.words``; see ``deckcheck.wording.word``)."""

from __future__ import annotations

from deckcheck.sdk import _p


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
