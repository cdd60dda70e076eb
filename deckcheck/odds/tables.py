"""The counting tables under exact odds: weights of every draw of m cards over the capped
counts of the card groups (``exact``'s module docstring gives the formula), memoised in bytes.
Pure arithmetic on group sizes: what a condition means lives in ``exact``."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from deckcheck.memo import array_bytes, byte_cache

Floats = NDArray[np.float64]


def comb_row(n: int, length: int) -> Floats:
    return np.array([math.comb(n, k) if k <= n else 0 for k in range(length)], dtype=np.float64)


# The tables are memoised in bytes, not entries: one exact question's tables can be hundreds of
# MB, and 4,096 of them were kept for ever (issue 37). Past a budget the memo starts afresh.
STEP_BYTES = 16 << 20
PREFIX_BYTES = 64 << 20


@byte_cache(STEP_BYTES, array_bytes)
def group_step(n: int, cap: int, depth: int) -> Floats:
    """``S[j, u, m]``: from j cards drawn so far, drawing m - j of this group's ``n`` cards
    (capped count u) weighs C(n, m - j). One tensordot with it adds a group to a table."""
    step = np.zeros((depth + 1, cap + 1, depth + 1))
    j, x = np.meshgrid(np.arange(depth + 1), np.arange(min(n, depth) + 1), indexing="ij")
    fits = j + x <= depth
    j, x = j[fits], x[fits]
    step[j, np.minimum(x, cap), j + x] = comb_row(n, depth + 1)[x]
    return step


@byte_cache(STEP_BYTES, array_bytes)
def rest_step(n: int, depth: int) -> Floats:
    """``R[j, m]`` = C(n, m - j): the cards no condition counts fill the draw up to m."""
    ways: Floats = np.append(comb_row(n, depth + 1), 0.0)[gaps(depth)]
    return ways


@byte_cache(PREFIX_BYTES, array_bytes)
def prefix(sizes: tuple[int, ...], caps: tuple[int, ...], depth: int) -> Floats:
    """Weights over (capped counts of the groups, cards drawn from them) up to ``depth``."""
    if not sizes:
        base = np.zeros(depth + 1)
        base[0] = 1.0
        return base
    head: Floats = prefix(sizes[:-1], caps[:-1], depth)
    step = group_step(sizes[-1], caps[-1], depth)
    flat: Floats = head.reshape(-1, depth + 1) @ step.reshape(depth + 1, -1)  # matmul, not
    return flat.reshape(*head.shape[:-1], caps[-1] + 1, depth + 1)  # tensordot: less overhead


def table(sizes: tuple[int, ...], caps: tuple[int, ...], rest: int, depth: int) -> Floats:
    """``T[u…, m]``: weights of drawing ``m`` ≤ ``depth`` cards with capped counts ``u``."""
    return np.tensordot(prefix(sizes, caps, depth), rest_step(rest, depth), axes=([-1], [0]))


def combs(ns: NDArray[np.int64], length: int) -> Floats:
    """``C(n, x)`` for each ``n`` of ``ns`` (rows) and ``x < length`` (columns), then a column
    of zeros (``gaps`` points past the draw there)."""
    values, where = np.unique(ns, return_inverse=True)
    rows = np.zeros((len(values), length + 1))
    for i, n in enumerate(values.tolist()):
        rows[i, :length] = comb_row(n, length)
    return rows[where.reshape(-1)]


@byte_cache(STEP_BYTES, array_bytes)
def gaps(depth: int) -> NDArray[np.int64]:
    """``[j, m]``: the cards a draw adds to go from ``j`` cards to ``m``, or ``depth + 1`` (a
    column of zeros in ``combs``) where ``m < j``."""
    gap = np.arange(depth + 1)[None, :] - np.arange(depth + 1)[:, None]
    return np.where(gap >= 0, gap, depth + 1)


@byte_cache(PREFIX_BYTES, array_bytes)
def hand_tables(
    sizes: tuple[int, ...], caps: tuple[int, ...], rest: int, hand: int, depth: int
) -> Floats:
    """``T[h, u…, m]`` for every opening hand ``h`` (in ``compositions`` order): the weights of
    drawing ``m`` ≤ ``depth`` more cards, with capped counts ``u`` of the groups whose cap is
    not 0, from what the hand left in the deck. The hands are counted together, a group at a
    time, instead of a chain of tables for each (the cold exact question built 52: issue 35).
    """
    every = compositions(sizes, rest, hand)
    count, width = len(every), depth + 1
    hands = np.array(every, dtype=np.int64).reshape(count, len(sizes))  # no group: (1, 0)
    remaining = np.asarray(sizes, dtype=np.int64) - hands
    others = rest - (hand - hands.sum(axis=1))
    gap = gaps(depth)
    grid = np.zeros((count, 1, width))
    grid[:, 0, 0] = 1.0
    for g, cap in enumerate(caps):
        if cap == 0:
            others = others + remaining[:, g]
            continue
        ways = combs(remaining[:, g], width)  # C(n, x): x of the group's n cards drawn
        grown = np.zeros((count, grid.shape[1], cap + 1, width))
        for u in range(min(cap, width)):  # exactly u drawn: the draw moves u cards on (a
            # draw of depth cards at most: a cap past it, as for a demand of 99, leaves zeros)
            grown[:, :, u, u:] = grid[:, :, : width - u] * ways[:, None, u : u + 1]
        ways[:, :cap] = 0.0  # cap or more drawn, counted as cap: a sum over x ≥ cap
        grown[:, :, cap, :] = np.matmul(grid, ways[:, gap])
        grid = grown.reshape(count, -1, width)
    result: Floats = np.matmul(grid, combs(others, width)[:, gap])  # the rest fill the draw
    return result


def compositions(sizes: Sequence[int], rest: int, hand: int) -> list[tuple[int, ...]]:
    """Every per-group count vector of a ``hand``-card draw (the rest makes up the hand), in
    lexicographic order. Built a group at a time as a list: a recursive generator, walked
    for the hands and again for their tables, was a tenth of a cold exact question (issue 35)."""
    partial: list[tuple[tuple[int, ...], int]] = [((), hand)]  # (counts so far, cards left)
    for n in sizes:
        partial = [((*p, k), left - k) for p, left in partial for k in range(min(n, left) + 1)]
    return [p for p, left in partial if left <= rest]


def hand_weight(sizes: Sequence[int], rest: int, k1: Sequence[int], hand: int) -> float:
    w = math.comb(rest, hand - sum(k1))
    for n, k in zip(sizes, k1, strict=True):
        w *= math.comb(n, k)
    return w / math.comb(sum(sizes) + rest, hand)


def clear_caches() -> None:
    """Forget the memoised tables."""
    for cached in (group_step, rest_step, prefix, gaps, hand_tables):
        cached.cache_clear()
