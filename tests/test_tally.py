"""A batch chunk's histograms are counted by a compiled pass (goldfish/counting.py) and a
reference chunk's by NumPy (tally.Tally.of): both give the same tally for any chunk, lost
games (rows of -1), values past the last bin and negative values included."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.goldfish.tally import BINS, Chunk, Tally


def _chunk(seed: int, games: int, turns: int, metrics: int, dtype: type) -> Chunk:
    rng = np.random.default_rng(seed)
    values = rng.integers(-3, BINS + 40, size=(games, turns, metrics)).astype(dtype)
    lost_at = rng.integers(1, turns + 2, size=games)  # turns + 1: never lost
    for g, turn in enumerate(lost_at):
        values[g, turn - 1 :, :] = -1
    values[:, :, 0] = np.where(values[:, :, 0] == -1, -1, np.abs(values[:, :, 0]))
    return Chunk(
        start=0,
        metrics=values,
        milestones=rng.integers(0, turns + 1, size=(games, 3)).astype(np.int16),
        mulligans=rng.integers(0, 2, size=games).astype(np.int32),
        loss=(lost_at <= turns).astype(np.int8),
        loss_turn=np.where(lost_at <= turns, lost_at, 0).astype(np.int16),
        reasons=1,
    )


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    games=st.integers(1, 60),
    turns=st.integers(1, 12),
    metrics=st.integers(1, 12),
    dtype=st.sampled_from([np.int16, np.int32]),
)
def test_the_compiled_count_equals_numpy(
    seed: int, games: int, turns: int, metrics: int, dtype: type
) -> None:
    chunk = _chunk(seed, games, turns, metrics, dtype)
    numpy_tally = Tally.of(chunk, turns)
    compiled = Tally.of(dataclasses.replace(chunk, compiled=True), turns)
    for field in dataclasses.fields(Tally):
        a, b = getattr(numpy_tally, field.name), getattr(compiled, field.name)
        assert np.array_equal(a, b), field.name
    # the histograms count every value of every game still playing
    playing = chunk.metrics[:, :, 0] >= 0
    assert compiled.hist.sum() == playing.sum() * metrics
    assert list(compiled.alive) == list(playing.sum(axis=0))


def test_a_batch_run_is_counted_by_the_compiled_pass(index, registry) -> None:  # type: ignore[no-untyped-def]
    """goldfish's batch chunks take the compiled pass, and its figures are the reference
    counting's: the same games tallied both ways."""
    from deckcheck import decks
    from deckcheck.goldfish.policy import default_policy
    from deckcheck.goldfish.run import play_chunk, prepare
    from tests.conftest import EXAMPLES

    deck = decks.read(EXAMPLES / "vision-standard-legal.deck")
    fmt = registry.get("vision-standard")
    setup = prepare(deck, fmt, index, default_policy(fmt.game))
    chunk = play_chunk(setup, 0, list(range(400)), 10, True)
    assert chunk.compiled
    compiled = Tally.of(chunk, 10)
    counted = Tally.of(dataclasses.replace(chunk, compiled=False), 10)
    assert np.array_equal(compiled.hist, counted.hist)
    assert compiled.hist[0].sum() == 400 * chunk.metrics.shape[2]  # every game plays turn 1
