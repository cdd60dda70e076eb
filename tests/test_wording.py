"""The indefinite article of deckcheck's messages, a game's words (deckcheck.wording) and a
state line's fields (goldfish.trace.told)."""

from __future__ import annotations

import pytest

from deckcheck import plugins
from deckcheck.goldfish.trace import told
from deckcheck.i18n import _p, override
from deckcheck.models import Card
from deckcheck.wording import a_an, game_words, word


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


def test_a_games_words_come_from_its_literal_calls_alone() -> None:
    """``game_words``: each word is keyed by its English self and shown in the language of the
    moment, from the game's own catalogue entries (msgctxt = game id)."""
    table = game_words(lambda: (_p("vision", "spell"), _p("vision", "main")))
    with override("en"):
        assert table() == {"spell": "spell", "main": "main"}
    with override("ja"):
        shown = table()
        assert set(shown) == {"spell", "main"} and shown["spell"] != "spell"
        assert shown["spell"] == word("vision", "spell")  # the game's own table says the same


def test_a_state_lines_fields_are_shown_alike() -> None:
    """``told``: a card and a list of cards as their quoted names (none: a dash), counts as
    they are."""
    card = Card(game="iris", number="X-1", name="A", type="unit")
    other = Card(game="iris", number="X-2", name="B", type="unit")
    with override("en"):
        assert told(main=card, standby=[card, other], field=(), hand=3) == {
            "main": "“A”", "standby": "“A”, “B”", "field": "—", "hand": 3,
        }  # fmt: skip

