"""A cancelled batch-engine goldfish run stops within one chunk (issue 37, item 4b): a job's
cancel is read between chunks (its progress callback raises ``Cancelled``), and a chunk is
``GameSpec.play.batch_size`` games, 5,000, which every game's batch engine plays in under 0.3 s at
30 turns (benchmarks/goldfish_bench.py). Before, a chunk was 25,000 games: a cancel asked
during the first chunk of a 30-turn rakuen job let it play on for 1.3 s, all 25,000 games."""

from __future__ import annotations

import pytest

from deckcheck import decks, plugins
from deckcheck.formats.registry import FormatRegistry
from deckcheck.goldfish.run import GoldfishRequest, goldfish, prepare
from deckcheck.resolve import CardIndex
from deckcheck.service.jobstore import Cancelled
from tests.conftest import EXAMPLES


@pytest.mark.parametrize("format_id", ["chaos-standard", "rakuen-standard", "vision-standard",
                                       "iris-standard"])  # fmt: skip
def test_a_cancel_during_the_first_chunk_stops_after_it(
    format_id: str, index: CardIndex, registry: FormatRegistry
) -> None:
    deck = decks.read(EXAMPLES / f"{format_id}-legal.deck")
    fmt = registry.get(format_id)
    policy = plugins.get(fmt.game).play.default_policy
    setup = prepare(deck, fmt, index, policy)
    played: list[int] = []

    def cancelled(n: int) -> None:  # a job whose cancel was asked while its first chunk ran
        played.append(n)
        raise Cancelled

    req = GoldfishRequest(games=60_000, turns=30, seed=3)
    result = goldfish(deck, fmt, index, policy, req, cancelled, setup=setup)
    assert result.engine == "batch" and result.interrupted
    assert played == [5_000] and result.games == 5_000  # one chunk, of the 60,000
