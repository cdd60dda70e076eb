"""The あいりすミスティリア! engines proved equal game by game: the batch engine (games/iris/fast.py:
the deal compiled in fast_core.py, the turns as counts in NumPy) and the reference (engine.py)
play the same games from one tape of random numbers (tests/agreement.py ``same_games``: the
deal and every forced redraw), and every record must be identical. On every shipped example
deck the goldfish plays, and on decks for the forced redraw (詳しい遊び方 対戦の準備 ④: few
units, so hands often hold none) and enhancements on units that did not enter this turn."""

from __future__ import annotations

from typing import Any

import pytest

from deckcheck import decklist
from deckcheck.format_registry import FormatRegistry
from deckcheck.games.iris import fast_core
from deckcheck.games.iris.fast import play_batch, play_tape
from deckcheck.goldfish.common import GoldfishError
from deckcheck.goldfish.policy import default_policy
from deckcheck.goldfish.run import prepare
from deckcheck.goldfish.setup import Setup
from deckcheck.resolve import CardIndex
from tests.agreement import same_games, tapes
from tests.conftest import EXAMPLES
from tests.test_rules import IRIS_MAIN, deck

GAMES = 3_000
DECKS = sorted(p.name for p in EXAMPLES.glob("iris-*.deck"))
REFUSED = {"iris-standard-illegal.deck": "no unit: no opening hand can be kept"}
PILOTS = [{}, {"retreat": True, "charge": False}, {"use_commands": False}]
# three units in 46 cards: about two hands in three hold none and are redrawn
FEW_UNITS = [
    (1, "SAMPLE-I-U01"),
    (2, "SAMPLE-I-U02"),
    *IRIS_MAIN[6:-1],
    (4, "SAMPLE-I-S03"),
    (4, "SAMPLE-I-S04"),
    (4, "SAMPLE-I-T03"),
    (4, "SAMPLE-I-T04"),
    (4, "SAMPLE-I-E03"),
    (3, "SAMPLE-I-E04"),
]


def setup_of(
    index: CardIndex, registry: FormatRegistry, text: str, keys: dict[str, Any]
) -> Setup:
    parsed = decklist.parse(text, "iris.deck")
    policy = default_policy("iris").model_copy(update=keys)
    return prepare(parsed, registry.get("iris-standard"), index, policy)


@pytest.mark.parametrize("name", [d for d in DECKS if d not in REFUSED])
@pytest.mark.parametrize("keys", PILOTS, ids=["default", "retreat-no-charge", "no-commands"])
def test_example_decks(
    index: CardIndex, registry: FormatRegistry, name: str, keys: dict[str, Any]
) -> None:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    same_games(play_tape, setup_of(index, registry, text, keys), GAMES, 12, True, 50, rows=16)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_examples_left_out_are_refused_by_the_goldfish(
    index: CardIndex, registry: FormatRegistry, name: str
) -> None:
    with pytest.raises(GoldfishError):
        setup_of(index, registry, (EXAMPLES / name).read_text(encoding="utf-8"), {})


@pytest.mark.parametrize("cards", [IRIS_MAIN, FEW_UNITS], ids=["units", "few-units"])
@pytest.mark.parametrize("keys", PILOTS[:2], ids=["default", "retreat-no-charge"])
def test_redraw_and_enhancement_decks(
    index: CardIndex, registry: FormatRegistry, cards: list[tuple[int, str]], keys: dict[str, Any]
) -> None:
    setup = setup_of(index, registry, deck("iris-standard", cards), keys)
    # up to 63 redraws; with few units, P(a game needs more) is about 0.7 ** 63 = 2e-10
    fast = same_games(play_tape, setup, GAMES, 47, True, 51, rows=64)
    assert (fast.loss == 1).all()  # 47 turns: every game draws from an empty deck
    if cards is FEW_UNITS:
        assert fast.mulligans.mean() > 1


def test_runs_and_tests_play_one_compiled_function(
    index: CardIndex, registry: FormatRegistry
) -> None:
    """A run (numba's numbers) and a test (a tape) call the same compiled deal."""
    setup = setup_of(index, registry, deck("iris-standard", IRIS_MAIN), {})
    play_batch(setup, 1, 10, 5, True)
    play_tape(setup, tapes(10, 16, sum(n for _, n in setup.drawable), 0), 5, True)
    assert len(fast_core.deal.signatures) == 1
