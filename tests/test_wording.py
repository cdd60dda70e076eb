"""The indefinite article of deckcheck's messages (deckcheck.wording)."""

from __future__ import annotations

import pytest

from deckcheck import plugins
from deckcheck.wording import a_an


@pytest.mark.parametrize(
    ("word", "phrase"),
    [
        ("event", "an event"),
        ("extra", "an extra"),
        ("chara", "a chara"),
        ("partner", "a partner"),
        ("iris", "an iris"),
        ("int", "an int"),
        ("OS", "an OS"),
        ("unit", "a unit"),
        ("enhancement", "an enhancement"),
    ],
)
def test_a_an(word: str, phrase: str) -> None:
    assert a_an(word) == phrase


def test_every_game_and_card_type_reads_right() -> None:
    """The words the messages put after an article: game ids and card types."""
    specs = [plugins.get(g) for g in ("chaos", "rakuen", "vision", "iris")]
    words = {w for spec in specs for w in (spec.id, *spec.cards.card_types)}
    vowels = {w for w in words if a_an(w).startswith("an ")}
    assert vowels == {"event", "extra", "iris", "enhancement"}
