"""The あいりすミスティリア! batch engine (games/iris/fast.py) on its production random numbers
(numba's generator) against the reference engine (engine.py) on its own (``random.Random``):
streams that cannot be shared, so the same distribution of games, turn by turn (means and
percentiles), on the play and on the draw, played to the deck-out the rules give (詳しい遊び方
ターンの流れ 1. ドローフェイズ ※). Game by game, on one tape, the engines are held equal in
tests/test_exact_iris.py. Seeds and workers; the reference on request."""

from __future__ import annotations

from typing import Any

import pytest

from deckcheck import decklist
from deckcheck.formats.registry import FormatRegistry
from deckcheck.goldfish.policy import policy_from_keys
from deckcheck.goldfish.run import GoldfishRequest, goldfish, prepare
from deckcheck.goldfish.setup import Setup
from deckcheck.models import DeckList
from deckcheck.resolve import CardIndex
from tests.agreement import (
    chunks_agree,
    deck_out_turn,
    decks_out,
    production_chunks,
    same_results_any_workers,
)
from tests.conftest import EXAMPLES
from tests.test_exact_iris import DECK, FEW_UNITS
from tests.test_rules import deck

GAMES = 2_000  # as strict as this many games of each engine (production_chunks)


@pytest.fixture(scope="module")
def parsed() -> DeckList:
    return decklist.parse((EXAMPLES / "iris-standard-legal.deck").read_text(encoding="utf-8"))


def setup_for(
    parsed: DeckList, registry: FormatRegistry, index: CardIndex, keys: dict[str, Any]
) -> Setup:
    policy = policy_from_keys("iris", keys, "test")
    return prepare(parsed, registry.get("iris-standard"), index, policy)


@pytest.mark.parametrize(
    ("cards", "keys", "on_play"),
    [
        (None, {}, True),
        (None, {"retreat": True, "charge": False}, False),
        # hands without a unit are redrawn about twice a game
        (FEW_UNITS, {"use_commands": False}, True),
    ],
    ids=["legal-default-play", "legal-retreat-draw", "few-units-no-commands-play"],
)
def test_production_streams_agree_with_the_reference(
    parsed: DeckList,
    registry: FormatRegistry,
    index: CardIndex,
    cards: list[tuple[int, str]] | None,
    keys: dict[str, Any],
    on_play: bool,
) -> None:
    """Every metric on every turn up to the deck-out, which both engines reach on turn 46 (50
    cards, 5 dealt, 1 drawn a turn from turn 1)."""
    if cards is not None:
        parsed = decklist.parse(deck("iris-standard", cards))
    setup = setup_for(parsed, registry, index, keys)
    fast, slow = production_chunks(setup, GAMES, 47, on_play)
    chunks_agree(fast, slow)
    out = deck_out_turn(50 - 5, lambda turn: 1)
    decks_out(fast, out, deck=DECK)
    decks_out(slow, out, deck=DECK)
    if cards is FEW_UNITS:
        assert fast.mulligans.mean() > 1 and slow.mulligans.mean() > 1


def test_same_seed_same_results_with_any_workers(
    parsed: DeckList, registry: FormatRegistry, index: CardIndex
) -> None:
    policy = policy_from_keys("iris", {}, "test")
    same_results_any_workers(parsed, registry.get("iris-standard"), index, policy)


def test_the_reference_plays_when_asked(
    parsed: DeckList, registry: FormatRegistry, index: CardIndex
) -> None:
    """``--engine reference``: game by game, game i the one ``--replay i`` shows."""
    fmt = registry.get("iris-standard")
    policy = policy_from_keys("iris", {}, "test")
    req = GoldfishRequest(games=50, turns=3, seed=1, engine="reference")
    result = goldfish(parsed, fmt, index, policy, req)
    assert result.engine == "reference" and result.games == 50
