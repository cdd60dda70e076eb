"""A chunk of goldfish games as arrays (``Chunk``), and what statistics need of it, summed
(``Tally``): histograms instead of per-game rows, so workers send little and a run of any size
takes fixed memory (run.py plays the chunks; sweeps and clusters add the tallies)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass
class Chunk:
    """Results of consecutive games, as arrays (-1: the game was already lost)."""

    start: int
    metrics: NDArray[np.int32] | NDArray[np.int16]  # (games, turns, metrics)
    milestones: NDArray[np.int16]  # (games, milestones), 0 = never
    mulligans: NDArray[np.int32]
    loss: NDArray[np.int8]  # 0 none, 1 + index in the spec's losses
    loss_turn: NDArray[np.int16]
    reasons: int = 0  # how many loss reasons the game declares (len(spec.losses))
    compiled: bool = False  # a batch engine played it (numba is loaded): counting.py counts it


BINS = 512  # metric values are small counts; larger ones share the last bin


@dataclass
class Tally:
    """What statistics need of a chunk, summed: histograms instead of per-game rows, so
    workers send little and a run of any size takes fixed memory."""

    games: int
    alive: NDArray[np.int64]  # (turns,) games still playing
    hist: NDArray[np.int64]  # (turns, metrics, BINS) values among those games
    milestone_turns: NDArray[np.int64]  # (milestones, turns + 1) games by first turn, 0 = never
    mulligans: int
    losses: NDArray[np.int64]  # (len(spec.losses),) games lost each way
    loss_turn_sum: int

    @classmethod
    def of(cls, chunk: Chunk, turns: int) -> Tally:
        metrics = chunk.metrics
        n, _turns, m = metrics.shape
        alive = metrics[:, :, 0] >= 0
        hist = np.zeros((turns, m, BINS), dtype=np.int64)
        if chunk.compiled:
            from deckcheck.goldfish.counting import count_values

            count_values(metrics, turns, BINS, hist)
        else:
            for t in range(turns):
                values = np.clip(metrics[alive[:, t], t, :], 0, BINS - 1)
                for j in range(m):
                    hist[t, j] = np.bincount(values[:, j], minlength=BINS)
        milestones = (
            np.stack(
                [
                    np.bincount(chunk.milestones[:, j], minlength=turns + 1)
                    for j in range(chunk.milestones.shape[1])
                ]
            )
            if chunk.milestones.size
            else np.zeros((0, turns + 1), dtype=np.int64)
        )
        lost = chunk.loss > 0
        return cls(
            games=n,
            alive=alive.sum(axis=0).astype(np.int64),
            hist=hist,
            milestone_turns=milestones.astype(np.int64),
            mulligans=int(chunk.mulligans.sum()),
            losses=np.array(
                [(chunk.loss == i + 1).sum() for i in range(chunk.reasons)], dtype=np.int64
            ),
            loss_turn_sum=int(chunk.loss_turn[lost].sum()),
        )

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.games + other.games,
            self.alive + other.alive,
            self.hist + other.hist,
            self.milestone_turns + other.milestone_turns,
            self.mulligans + other.mulligans,
            self.losses + other.losses,
            self.loss_turn_sum + other.loss_turn_sum,
        )
