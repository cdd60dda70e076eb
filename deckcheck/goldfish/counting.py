"""The histograms of a batch engine's chunk (``tally.Tally.of``), compiled: one pass over the
games' metrics instead of a NumPy selection and a ``bincount`` per turn and metric, which took
a sixth of a batch run of the real-deck benchmark (cProfile of ``goldfish``: 0.15 s of 0.86 s;
issue 35).

Imported only for a chunk a batch engine played, so numba stays off the reference engine's
path; compiled into numba's cache by the warm step with the engines (its first chunk)."""

from __future__ import annotations

from deckcheck.goldfish.compiling import njit


@njit()
def count_values(metrics, turns, bins, hist):  # type: ignore[no-untyped-def]
    """``hist[t, j, v]`` += 1 for each game still playing at turn ``t`` (its metric 0 is not
    -1: a lost game's rows are all -1) whose metric ``j`` is ``v``, clipped to 0..bins - 1."""
    games, width = metrics.shape[0], metrics.shape[2]
    for t in range(turns):  # one turn and metric at a time: its row of ``hist`` stays in cache
        for j in range(width):
            row = hist[t, j]
            for g in range(games):
                if metrics[g, t, 0] < 0:
                    continue
                v = metrics[g, t, j]
                if v < 0:
                    v = 0
                elif v >= bins:
                    v = bins - 1
                row[v] += 1
