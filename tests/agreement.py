"""The one test of "two samplers play the same game": means agree within sampling error."""

from __future__ import annotations

from typing import Any

import numpy as np

from deckcheck.goldfish.run import Chunk


def agree(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> None:
    """Means per column agree within 4.5 standard errors of their difference."""
    a, b = a.astype(float), b.astype(float)
    se = np.sqrt(a.var(axis=0) / len(a) + b.var(axis=0) / len(b)) + 1e-9
    assert (np.abs(a.mean(axis=0) - b.mean(axis=0)) <= 4.5 * se + 1e-12).all()


def chunks_agree(fast: Chunk, slow: Chunk) -> None:
    """A batch engine's chunk against the reference engine's on the same games: every metric
    on every turn, the mulligans, the milestones' rates and their turns."""
    assert fast.metrics.shape == slow.metrics.shape
    assert fast.milestones.shape == slow.milestones.shape
    agree(fast.metrics, slow.metrics)
    agree(fast.mulligans, slow.mulligans)
    agree(fast.milestones > 0, slow.milestones > 0)
    agree(fast.milestones, slow.milestones)
