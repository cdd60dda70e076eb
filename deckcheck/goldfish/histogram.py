"""Quantiles of the values a histogram counts (goldfish tallies keep histograms, not games)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def percentile(hist: NDArray[np.int64], q: float) -> float:
    """numpy.percentile's default (linear) of the values a histogram counts."""
    n = int(hist.sum())
    position = q / 100 * (n - 1)
    low = int(np.floor(position))
    cum = np.cumsum(hist)
    a = int(np.searchsorted(cum, low, side="right"))  # the value of rank ``low``
    b = int(np.searchsorted(cum, min(low + 1, n - 1), side="right"))
    return float(a + (position - low) * (b - a))


def quantiles(hist: NDArray[np.int64]) -> dict[str, float | None]:
    n = int(hist.sum())
    if n == 0:
        return {"mean": None, "p10": None, "p50": None, "p90": None}
    mean = float((np.arange(len(hist)) * hist).sum() / n)
    return {
        "mean": mean,
        "p10": percentile(hist, 10),
        "p50": percentile(hist, 50),
        "p90": percentile(hist, 90),
    }
