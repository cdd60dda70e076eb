"""The rakuen batch engine (games/rakuen/fast.py) on its production random numbers (numba's
generator) against the reference engine (engine.py) on its own (``random.Random``): streams
that cannot be shared, so the same distribution of games, turn by turn (means and
percentiles), with the hand limit of the format in force today (rakuen-standard: 8 at the end
phase) and without one (rakuen-standard-1.0, ルールブック Ver1.0). Game by game, on one tape,
the engines are held equal in tests/test_exact_rakuen.py. Seeds and workers; fallback."""

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
from tests.agreement import chunks_agree, production_chunks, same_results_any_workers
from tests.conftest import EXAMPLES

GAMES = 6000  # as strict as this many games of each engine (production_chunks)


@pytest.fixture(scope="module")
def parsed() -> DeckList:
    return decklist.parse((EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8"))


def setup_for(
    parsed: DeckList,
    registry: FormatRegistry,
    index: CardIndex,
    keys: dict[str, Any],
    format_id: str = "rakuen-standard",
) -> Setup:
    policy = policy_from_keys("rakuen", keys, "test")
    return prepare(parsed, registry.get(format_id), index, policy)


# luck drives, refreshes, their penalties and the loss they bring; the level swap
LUCK = {"luck_drive_times": 3, "luck_drive_when_stuck": False, "swap_level": True}


@pytest.mark.parametrize(
    ("keys", "turns", "format_id"),
    [
        (LUCK, 22, "rakuen-standard"),
        # no hand limit: the hand grows past 8 in about half of the turns played
        ({}, 12, "rakuen-standard-1.0"),
    ],
)
def test_production_streams_agree_with_the_reference(
    parsed: DeckList,
    registry: FormatRegistry,
    index: CardIndex,
    keys: dict[str, Any],
    turns: int,
    format_id: str,
) -> None:
    setup = setup_for(parsed, registry, index, keys, format_id)
    fast, slow = production_chunks(setup, GAMES, turns)
    chunks_agree(fast, slow)
    limit = setup.rules.params.get("hand_limit")
    hands = slow.metrics[:, :, 0]
    if limit is not None:  # the limit binds: without it these games hold more
        assert hands.max() == fast.metrics[:, :, 0].max() == limit
    else:
        assert (hands > 8).mean() > 0.3 and (fast.metrics[:, :, 0] > 8).mean() > 0.3


def test_same_seed_same_results_with_any_workers(
    parsed: DeckList, registry: FormatRegistry, index: CardIndex
) -> None:
    policy = policy_from_keys("rakuen", {}, "test")
    same_results_any_workers(parsed, registry.get("rakuen-standard"), index, policy)


def test_a_pilot_the_batch_engine_does_not_model_plays_on_the_reference(
    parsed: DeckList, registry: FormatRegistry, index: CardIndex
) -> None:
    """A keep rule that tells more opening hands apart than the batch engine's table holds."""
    keep = [f"number:SAMPLE-R-00{i}>=1" for i in range(1, 10)]
    fmt = registry.get("rakuen-standard")
    policy = policy_from_keys("rakuen", {"keep": keep}, "test")
    result = goldfish(parsed, fmt, index, policy, GoldfishRequest(games=50, turns=3, seed=1))
    assert result.engine == "reference"
    assert result.games == 50
