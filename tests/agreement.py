"""Two engines of a game, held to each other.

- ``same_games``: the exact test. Both engines play the same games from one tape of random
  numbers (goldfish/shuffles.py, ``common.Tape``): every per-game record must be identical.
- ``chunks_agree``: where the streams cannot be shared (each engine's production random
  source: numba's generator, ``random.Random``), the same distribution: means and the
  10th, 50th and 90th percentiles of every metric on every turn, the mulligans and the
  milestones, within sampling error.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from deckcheck.goldfish.batch import TapeEngine
from deckcheck.goldfish.common import Record, Tape
from deckcheck.goldfish.policy import Compiled
from deckcheck.goldfish.run import Chunk, records_chunk
from deckcheck.goldfish.setup import Setup

Z = 4.5  # standard errors


def tapes(games: int, rows: int, width: int, seed: int) -> NDArray[np.uint32]:
    """(games, rows, width) uniform 32-bit numbers: one row per shuffle of a game."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 1 << 32, size=(games, rows, width), dtype=np.uint32)


def reference_chunk(setup: Setup, tape: NDArray[np.uint32], turns: int, on_play: bool) -> Chunk:
    """The reference engine's games, game ``g`` shuffling from ``tape[g]``, as a Chunk."""
    policy = Compiled(setup.policy, setup.game)
    records = (setup.spec.play(setup, policy, Tape(row), turns, on_play) for row in tape)
    return records_chunk(setup, 0, tape.shape[0], turns, records)


def same_games(
    play_tape: TapeEngine, setup: Setup, games: int, turns: int, on_play: bool, seed: int,
    rows: int = 4,
) -> Chunk:  # fmt: skip
    """Play ``games`` games on both engines from one tape; assert every record is the same
    (each metric on each turn, milestones, mulligans, loss and its turn). Returns the batch
    engine's chunk, for what a caller checks the games exercised."""
    width = sum(n for _, n in setup.drawable)
    tape = tapes(games, rows, width, seed)
    fast = Chunk(0, *play_tape(setup, tape, turns, on_play))
    slow = reference_chunk(setup, tape, turns, on_play)
    for name in ("metrics", "milestones", "mulligans", "loss", "loss_turn"):
        a, b = getattr(fast, name), getattr(slow, name)
        assert a.shape == b.shape, name
        differ = np.flatnonzero((a != b).reshape(len(a), -1).any(axis=1))
        assert not len(differ), _first_difference(name, fast, slow, int(differ[0]))
    return fast


def stacked_games(
    play_tape: TapeEngine, setup: Setup, turns: int, on_play: bool = True
) -> tuple[Chunk, Record]:
    """One game on both engines from a stacked deck: a tape of 2**32 - 1 makes every
    Fisher–Yates step keep its card (j = i), so both draw ``setup.drawable`` from its end, as
    tests/test_goldfish.Stacked does for the reference. Asserts the records are identical and
    returns the batch engine's chunk and the reference's record."""
    width = sum(n for _, n in setup.drawable)
    tape = np.full((1, 2, width), (1 << 32) - 1, dtype=np.uint32)
    fast = Chunk(0, *play_tape(setup, tape, turns, on_play))
    policy = Compiled(setup.policy, setup.game)
    record = setup.spec.play(setup, policy, Tape(tape[0]), turns, on_play)
    slow = records_chunk(setup, 0, 1, turns, iter([record]))
    for name in ("metrics", "milestones", "mulligans", "loss", "loss_turn"):
        a, b = getattr(fast, name), getattr(slow, name)
        assert a.shape == b.shape and (a == b).all(), _first_difference(name, fast, slow, 0)
    return fast, record


def _first_difference(name: str, fast: Chunk, slow: Chunk, g: int) -> str:
    """Where game ``g`` first differs: the record field, and for metrics the turn and rows."""
    out = f"game {g}: {name} differs: batch {getattr(fast, name)[g].tolist()}"
    out += f", reference {getattr(slow, name)[g].tolist()}"
    if name == "metrics":
        turn = int(np.flatnonzero((fast.metrics[g] != slow.metrics[g]).any(axis=1))[0])
        out = (
            f"game {g}: metrics differ first on turn {turn + 1}: batch "
            f"{fast.metrics[g, turn].tolist()}, reference {slow.metrics[g, turn].tolist()}"
        )
    return out


def agree(a: NDArray[Any], b: NDArray[Any]) -> None:
    """Means per column agree within ``Z`` standard errors of their difference, and so do the
    10th, 50th and 90th percentiles: the q-quantile of each sample lies between the other's
    quantiles at q ∓ Z standard errors of a proportion (sample quantiles of small counts)."""
    a, b = a.astype(float).reshape(len(a), -1), b.astype(float).reshape(len(b), -1)
    se = np.sqrt(a.var(axis=0) / len(a) + b.var(axis=0) / len(b)) + 1e-9
    assert (np.abs(a.mean(axis=0) - b.mean(axis=0)) <= Z * se + 1e-12).all(), "means"
    for q in (0.1, 0.5, 0.9):
        spread = Z * np.sqrt(q * (1 - q) * (1 / len(a) + 1 / len(b)))
        for x, y in ((a, b), (b, a)):
            at = np.quantile(x, q, axis=0, method="inverted_cdf")
            low = np.quantile(y, max(q - spread, 0.0), axis=0, method="inverted_cdf")
            high = np.quantile(y, min(q + spread, 1.0), axis=0, method="inverted_cdf")
            assert ((low <= at) & (at <= high)).all(), f"p{round(q * 100)}"


def chunks_agree(fast: Chunk, slow: Chunk) -> None:
    """A batch engine's chunk against the reference engine's on as many games: every metric
    on every turn, the mulligans, the milestones' rates and their turns, the losses."""
    assert fast.metrics.shape == slow.metrics.shape
    assert fast.milestones.shape == slow.milestones.shape
    agree(fast.metrics, slow.metrics)
    agree(fast.mulligans, slow.mulligans)
    agree(fast.milestones > 0, slow.milestones > 0)
    agree(fast.milestones, slow.milestones)
    for code in range(1, int(max(fast.loss.max(), slow.loss.max(), 0)) + 1):
        agree(fast.loss == code, slow.loss == code)
    agree(fast.loss_turn, slow.loss_turn)
