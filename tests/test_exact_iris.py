"""The あいりすミスティリア! engines proved equal game by game: the batch engine (games/iris/fast.py:
the deal compiled in fast_core.py, the turns as counts in NumPy) and the reference (engine.py)
play the same games from one tape of random numbers (tests/agreement.py ``same_games``: the
deal and every forced redraw), and every record must be identical. On every shipped example
deck the goldfish plays, on the play and on the draw, and on decks for the forced redraw
(詳しい遊び方 対戦の準備 ④: few units, so hands often hold none) and enhancements on units that
did not enter this turn, played to the draw from an empty deck (ターンの流れ 1. ドローフェイズ ※)
at the turn the rules give, with the format's ``draw_per_turn`` and ``first_player_draws``."""

from __future__ import annotations

from typing import Any

import pytest

from deckcheck import decklist
from deckcheck.formats.params import Parameter
from deckcheck.formats.registry import FormatRegistry
from deckcheck.games.iris import fast_core
from deckcheck.games.iris.fast import play_batch, play_tape
from deckcheck.goldfish.common import GoldfishError
from deckcheck.goldfish.policy import default_policy
from deckcheck.goldfish.run import prepare
from deckcheck.goldfish.setup import Setup
from deckcheck.resolve import CardIndex
from tests.agreement import deck_out_turn, decks_out, same_games, tapes
from tests.conftest import EXAMPLES
from tests.test_rules import IRIS_MAIN, deck

# Games per case, half the 3,000 of before (issue 35): every branch of deckcheck/ that this
# file's run takes with 3,000 it still takes with 1,500 (coverage.py --branch: the same 465),
# and the two engines' records are compared game by game.
GAMES = 1_500
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


DECK = 5  # the deck metric's column (games/iris METRICS)


def setup_of(
    index: CardIndex,
    registry: FormatRegistry,
    text: str,
    keys: dict[str, Any],
    params: dict[str, int | bool] | None = None,
) -> Setup:
    """The deck under iris-standard, or under a copy of it with ``params`` changed."""
    parsed = decklist.parse(text, "iris.deck")
    policy = default_policy("iris").model_copy(update=keys)
    fmt = registry.get("iris-standard")
    if params:
        changed = {k: Parameter(value=v, source="test") for k, v in params.items()}
        fmt = fmt.model_copy(update={"parameters": {**fmt.parameters, **changed}})
    return prepare(parsed, fmt, index, policy)


@pytest.mark.parametrize("on_play", [True, False], ids=["play", "draw"])
@pytest.mark.parametrize("name", [d for d in DECKS if d not in REFUSED])
@pytest.mark.parametrize("keys", PILOTS, ids=["default", "retreat-no-charge", "no-commands"])
def test_example_decks(
    index: CardIndex, registry: FormatRegistry, name: str, keys: dict[str, Any], on_play: bool
) -> None:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    setup = setup_of(index, registry, text, keys)
    same_games(play_tape, setup, GAMES, 12, on_play, 50, rows=16)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_examples_left_out_are_refused_by_the_goldfish(
    index: CardIndex, registry: FormatRegistry, name: str
) -> None:
    with pytest.raises(GoldfishError):
        setup_of(index, registry, (EXAMPLES / name).read_text(encoding="utf-8"), {})


@pytest.mark.parametrize("on_play", [True, False], ids=["play", "draw"])
@pytest.mark.parametrize("cards", [IRIS_MAIN, FEW_UNITS], ids=["units", "few-units"])
@pytest.mark.parametrize("keys", PILOTS[:2], ids=["default", "retreat-no-charge"])
def test_redraw_and_enhancement_decks(
    index: CardIndex,
    registry: FormatRegistry,
    cards: list[tuple[int, str]],
    keys: dict[str, Any],
    on_play: bool,
) -> None:
    setup = setup_of(index, registry, deck("iris-standard", cards), keys)
    # up to 63 redraws; with few units, P(a game needs more) is about 0.7 ** 63 = 2e-10
    fast = same_games(play_tape, setup, GAMES // 2, 47, on_play, 51, rows=64)
    # 50 cards, 5 dealt, 1 a turn from turn 1 on either side: turn 46 cannot draw
    decks_out(fast, deck_out_turn(50 - 5, lambda turn: 1), deck=DECK)
    if cards is FEW_UNITS:
        assert fast.mulligans.mean() > 1


# (format parameters, on the play): the turn whose draw the deck cannot give moves with them
DRAWS = [
    ({"draw_per_turn": 2}, True),
    ({"draw_per_turn": 3}, False),
    ({"first_player_draws": False}, True),
    ({"first_player_draws": False}, False),
    ({"draw_per_turn": 2, "first_player_draws": False, "opening_hand": 6}, True),
]


@pytest.mark.parametrize(
    ("params", "on_play"),
    DRAWS,
    ids=["draw-2-play", "draw-3-draw", "first-no-draw-play", "first-no-draw-draw", "hand-6-draw-2"],
)
def test_the_format_s_draws_are_read_by_both_engines(
    index: CardIndex, registry: FormatRegistry, params: dict[str, int | bool], on_play: bool
) -> None:
    """ターンの流れ 1. ドローフェイズ draws 1 (iris-standard's ``draw_per_turn``), on the first
    player's first turn too; a format may change either, and both engines follow it: each
    turn's hand and deck, and the turn a draw meets too small a deck (which it loses, ※)."""
    setup = setup_of(index, registry, deck("iris-standard", IRIS_MAIN), {}, params)
    per_turn, hand = setup.rules.draw_per_turn, setup.rules.hand
    skip = on_play and not setup.rules.first_player_draws

    def draws(turn: int) -> int:
        return 0 if turn == 1 and skip else per_turn

    fast = same_games(play_tape, setup, 300, 48, on_play, 52, rows=16)
    decks_out(fast, deck_out_turn(50 - hand, draws), deck=DECK)
    assert (fast.metrics[:, 1, DECK] == 50 - hand - draws(1) - draws(2)).all()


def test_runs_and_tests_play_one_compiled_function(
    index: CardIndex, registry: FormatRegistry
) -> None:
    """A run (numba's numbers) and a test (a tape) call the same compiled deal."""
    setup = setup_of(index, registry, deck("iris-standard", IRIS_MAIN), {})
    play_batch(setup, 1, 10, 5, True)
    play_tape(setup, tapes(10, 16, sum(n for _, n in setup.drawable), 0), 5, True)
    assert len(fast_core.deal.signatures) == 1
