"""The shuffles themselves. The exact tests (tests/test_exact_*.py) give both engines one tape
of random numbers, so they prove the engines equal whatever the numbers; what the tape cannot
show is that each engine's production shuffle deals every order alike. Here: the batch engines'
shuffle (goldfish/shuffles.py) on a tape is the reference's Fisher–Yates (common.Tape) card for
card, and on numba's generator, as the reference's sort on random keys (common.shuffle), every
order of 4 cards comes out equally often (a chi-square test at p = 1e-6)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numba
import numpy as np
import pytest

from deckcheck.goldfish import batch, common, shuffles
from deckcheck.models import Card
from tests.agreement import tapes

ORDERS = list(itertools.permutations(range(4)))
DEALS = 48_000  # 2,000 of each of the 24 orders expected
CHI2_23_P1E6 = 62.5  # the chi-square (23 degrees of freedom) exceeded with probability 1e-6


def _chi2(counts: Counter[tuple[int, ...]]) -> float:
    expected = DEALS / len(ORDERS)
    return sum((counts[o] - expected) ** 2 / expected for o in ORDERS)


@numba.njit
def _seed(seed: int) -> None:
    np.random.seed(seed)


def _cards(n: int) -> list[Card]:
    return [Card(game="iris", number=str(i), name=f"c{i}", type="unit") for i in range(n)]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 50, 61])
def test_the_batch_shuffle_on_a_tape_is_the_references(n: int) -> None:
    tape = tapes(20, 3, max(n, 1), seed=n)
    cards = _cards(n)
    for g in range(len(tape)):
        rand = (tape, shuffles.cursor())
        shuffles.begin(g, rand)
        rng = common.Tape(tape[g])
        for _ in range(3):  # three shuffles in a row: rows 0, 1, 2
            a = np.arange(n, dtype=np.int64)
            shuffles.shuffle(a, n, rand)
            pile = list(cards)
            common.shuffle(pile, rng)
            assert [cards[i] for i in a] == pile
            cards = pile


def _deal(shuffle: Callable[[Any], None]) -> Counter[tuple[int, ...]]:
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(DEALS):
        counts[tuple(shuffle(list(range(4))))] += 1
    return counts


def test_the_batch_shuffle_deals_every_order_alike() -> None:
    _seed(12345)
    rand = (batch.no_tape(), shuffles.cursor())

    def batch_shuffle(order: list[int]) -> list[int]:
        a = np.array(order, dtype=np.int64)
        shuffles.shuffle(a, 4, rand)
        return a.tolist()

    counts = _deal(batch_shuffle)
    assert len(counts) == len(ORDERS) and _chi2(counts) < CHI2_23_P1E6


def test_the_reference_shuffle_deals_every_order_alike() -> None:
    rng = random.Random(12345)

    def reference(order: list[int]) -> list[int]:
        common.shuffle(order, rng)  # type: ignore[arg-type]
        return order

    counts = _deal(reference)
    assert len(counts) == len(ORDERS) and _chi2(counts) < CHI2_23_P1E6


def test_a_chi_square_that_tells() -> None:
    """The test above fails a shuffle that favours some orders: Sattolo's (j < i) deals only
    the 6 cyclic orders; one that swaps with j in [0, i + 1) wrapped is biased."""
    rng = random.Random(1)

    def sattolo(order: list[int]) -> list[int]:
        for i in range(len(order) - 1, 0, -1):
            j = rng.randrange(i)
            order[i], order[j] = order[j], order[i]
        return order

    def naive(order: list[int]) -> list[int]:
        for i in range(len(order)):
            j = rng.randrange(len(order))
            order[i], order[j] = order[j], order[i]
        return order

    assert len(_deal(sattolo)) == math.factorial(3)
    assert _chi2(_deal(naive)) > CHI2_23_P1E6
