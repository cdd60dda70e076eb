"""Exact odds by counting: multivariate hypergeometric tables over the card groups the
conditions mention, then the format's mulligan rule on top (``Opening`` is what a rule's
``exact`` works from; the rules are in ``mulligan``). No sampling.

Cards are grouped by *signature*: the set of conditions they count toward (plus the format's
forced-redraw selector, if it has one). A group's count only matters up to a cap (beyond the
demands and bounds of its conditions nothing changes), so a table of weights over capped count
vectors and the number of cards drawn answers every "turn" at once:

    T[u_1, …, u_G, m] = Σ over draws of m cards whose capped group counts are u  Π_g C(n_g, k_g)

A deck state is *good* when the ``>=``/``==`` conditions can be filled by distinct cards (Hall's
condition on the bipartite graph groups → conditions) and no bound is exceeded.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from deckcheck.i18n import _
from deckcheck.odds.conditions import Condition
from deckcheck.odds.errors import OddsError as OddsError
from deckcheck.odds.keep import clear_cache, kept_cards
from deckcheck.odds.mulligan import Mulligan
from deckcheck.odds.tables import clear_caches as clear_tables
from deckcheck.odds.tables import (
    comb_row,
    compositions,
    hand_tables,
    hand_weight,
    prefix,
    rest_step,
)
from deckcheck.odds.timeline import Timeline

Floats = NDArray[np.float64]


@dataclass(frozen=True)
class Problem:
    """The deck as the conditions see it.

    ``sizes[g]`` cards have signature ``sigs[g]`` (bit c: counts toward condition c; bit
    ``len(conditions)``: matches the forced-redraw selector). ``rest`` cards have neither.
    """

    conditions: tuple[Condition, ...]
    sizes: tuple[int, ...]
    sigs: tuple[int, ...]
    rest: int
    caps: tuple[int, ...] = field(init=False)
    demands: tuple[int, ...] = field(init=False)  # each condition's demand (``kept_cards``)

    def __post_init__(self) -> None:
        caps = []
        for n, sig in zip(self.sizes, self.sigs, strict=True):
            mine = [c for i, c in enumerate(self.conditions) if sig >> i & 1]
            need = sum(c.demand for c in mine)
            over = max((c.bound + 1 for c in mine if c.bound is not None), default=0)
            caps.append(min(n, max(need, over)))
        object.__setattr__(self, "caps", tuple(caps))
        object.__setattr__(self, "demands", tuple(c.demand for c in self.conditions))

    @property
    def total(self) -> int:
        return sum(self.sizes) + self.rest

    @property
    def forced_bit(self) -> int:
        return 1 << len(self.conditions)

    @property
    def monotone(self) -> bool:
        """Only ``>=`` conditions: a good hand stays good as cards are added."""
        return all(c.op == ">=" for c in self.conditions)

    def relevant(self) -> list[int]:
        return [g for g, cap in enumerate(self.caps) if cap > 0]


# Rows per block when testing count vectors against Hall's sets: a block's (rows × sets)
# comparison stays near 32 MB however many conditions there are.
_HALL_BLOCK = 4_000_000


def good_rows(problem: Problem, rows: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Whether each row of capped counts over ``problem.relevant()`` groups (rows × groups) is
    good: every set S of demanding conditions is served by the groups touching it (Hall) and
    no bound is exceeded. Works on any rows, so a simulation tests only the hands it dealt
    instead of every vector the exact table would hold (issue 35)."""
    groups = problem.relevant()
    conds = problem.conditions
    sigs = [problem.sigs[g] for g in groups]
    demand_idx = [i for i, c in enumerate(conds) if c.demand > 0]
    touch, need = [], []
    for r in range(1, len(demand_idx) + 1):
        for subset in itertools.combinations(demand_idx, r):
            mask = sum(1 << i for i in subset)
            need.append(sum(conds[i].demand for i in subset))
            touch.append([bool(s & mask) for s in sigs])
    hits, bound = [], []
    for i, c in enumerate(conds):
        if c.bound is not None:
            hits.append([bool(s >> i & 1) for s in sigs])
            bound.append(c.bound)
    values = np.asarray(rows, dtype=np.float64)  # exact for counts: BLAS instead of int loops
    ok = np.ones(values.shape[0], dtype=bool)
    for sets, limits, at_least in ((touch, need, True), (hits, bound, False)):
        if not sets:
            continue
        matrix = np.array(sets, dtype=np.float64).T  # (G, S)
        limit = np.array(limits, dtype=np.float64)
        step = max(1, _HALL_BLOCK // len(limits))
        for start in range(0, values.shape[0], step):
            sums = values[start : start + step] @ matrix
            part = (sums >= limit) if at_least else (sums <= limit)
            ok[start : start + step] &= part.all(axis=1)
    return ok


@dataclass
class Predicate:
    """``good[u…]`` over capped count vectors of the relevant groups."""

    problem: Problem
    groups: list[int]
    good: NDArray[np.bool_]
    _shifted: dict[tuple[int, ...], Floats] = field(default_factory=dict)

    @classmethod
    def build(cls, problem: Problem) -> Predicate:
        groups = problem.relevant()
        caps = [problem.caps[g] for g in groups]
        if not groups:  # no card counts toward any condition
            return cls(problem, groups, np.array(all(c.demand == 0 for c in problem.conditions)))
        grids = np.indices([c + 1 for c in caps]).reshape(len(caps), -1).T  # (P, G)
        return cls(problem, groups, good_rows(problem, grids).reshape([c + 1 for c in caps]))

    def at(self, counts: Sequence[int]) -> bool:
        """Whether exact per-group counts (all groups of the problem) are good."""
        idx = tuple(min(counts[g], self.problem.caps[g]) for g in self.groups)
        return bool(self.good[idx])

    def shifted(self, base: Sequence[int]) -> Floats:
        """``good`` seen from a state that already holds ``base`` (all groups' counts), as a
        flat 0/1 vector over the capped count vectors of the cards still to come."""
        caps = self.problem.caps
        key = tuple(min(base[g], caps[g]) for g in self.groups)
        hit = self._shifted.get(key)
        if hit is None:
            if not self.groups:
                hit = np.array([float(self.good)])
            else:
                index = [
                    np.minimum(k + np.arange(caps[g] + 1), caps[g])
                    for k, g in zip(key, self.groups, strict=True)
                ]
                hit = self.good[np.ix_(*index)].astype(np.float64).ravel()
            self._shifted[key] = hit
        return hit


# The tables after every opening hand together: past this many bytes a question's hands are
# counted one by one instead, through the memoised prefixes (``tables.prefix``).
HANDS_BYTES = 32 << 20


class _Hands:
    """``chance`` after each opening hand, from ``hand_tables`` when the call asks about what
    an opening hand left in the deck (as ``Opening.hands`` gives it), else counted alone."""

    def __init__(self, pred: Predicate, hand: int, depth: int) -> None:
        self.pred, self.hand, self.depth = pred, hand, depth
        self._tables: Floats | None = None
        self._too_large = False
        self._rows: dict[tuple[tuple[int, ...], int], int] = {}
        self._ways: Floats = np.zeros(0)  # C(cards after the hand, m) for m ≤ depth

    @functools.cached_property
    def every(self) -> list[tuple[int, ...]]:
        """Every opening hand's cards per group (``compositions``)."""
        problem = self.pred.problem
        return compositions(problem.sizes, problem.rest, self.hand)

    def _row(self, sizes: Sequence[int], rest: int) -> int | None:
        problem = self.pred.problem
        if self._tables is None and not self._too_large:
            hands = self.every
            cells = math.prod(problem.caps[g] + 1 for g in self.pred.groups)
            width = self.depth + 1  # the tables, and a draw's matrix for each hand
            if len(hands) * (cells + width) * width * 8 > HANDS_BYTES:
                self._too_large = True
                return None
            self._tables = hand_tables(
                problem.sizes, problem.caps, problem.rest, self.hand, self.depth
            )
            for h, k1 in enumerate(hands):
                left = tuple(n - k for n, k in zip(problem.sizes, k1, strict=True))
                self._rows[left, problem.rest - (self.hand - sum(k1))] = h
            ways = comb_row(problem.total - self.hand, self.depth + 1)
            self._ways = np.where(ways > 0, ways, math.nan)  # past the deck: nan, as alone
        return self._rows.get((tuple(sizes), rest))

    def chance(
        self, base: Sequence[int], sizes: Sequence[int], rest: int, draws: Sequence[int]
    ) -> Floats:
        row = self._row(sizes, rest) if max(draws) <= self.depth else None
        if row is None or self._tables is None:
            return _chance(self.pred, base, sizes, rest, draws)
        weights: Floats = self.pred.shifted(base) @ self._tables[row]
        at = np.asarray(draws)
        chances: Floats = weights[at] / self._ways[at]
        return chances


def _chance(
    pred: Predicate, base: Sequence[int], sizes: Sequence[int], rest: int, draws: Sequence[int]
) -> Floats:
    """P(good) after drawing each of ``draws`` more cards from a deck of ``sizes`` (per group)
    and ``rest`` cards, holding ``base`` already."""
    problem = pred.problem
    rel = pred.groups
    others = rest + sum(n for g, n in enumerate(sizes) if g not in rel)
    depth = max(draws)
    core = prefix(tuple(sizes[g] for g in rel), tuple(problem.caps[g] for g in rel), depth)
    # contract the predicate first (small), then let the other cards fill each draw size
    good_core = pred.shifted(base) @ core.reshape(-1, depth + 1)
    weights = good_core @ rest_step(others, depth)
    total = sum(sizes) + rest
    return np.array([weights[m] / math.comb(total, m) if m <= total else math.nan for m in draws])


# The tables hold sums of products of binomials as float64. Each sum is at most C(deck, cards
# drawn) (Vandermonde's identity), so that one number bounds them all; a margin under the
# float range leaves room for rounding.
FLOAT_BOUND = 1e300


def check_range(total: int, drawn: int) -> None:
    """An ``OddsError`` when drawing ``drawn`` cards from ``total`` has more ways than float64
    holds: the count would overflow (exit 2 / 422, not an OverflowError)."""
    k = min(drawn, total // 2)  # C(total, m) for m ≤ drawn is largest here
    ways = math.comb(total, k)
    if ways > FLOAT_BOUND:
        raise OddsError(
            _(
                "the last turn holds {drawn} of the deck's {total} cards: C({n}, {k}) ≈ "
                "1e{power} ways, beyond exact counting in floating point (1e300); "
                "ask about fewer turns or a smaller deck",
                drawn=drawn,
                total=f"{total:,}",
                n=total,
                k=k,
                power=len(str(ways)) - 1,
            )
        )


@dataclass
class Opening:
    """What a mulligan rule's exact answer works from: the conditions' predicate, the opening
    hand's size, ``fresh`` (P(good) at each row with no mulligan) and ``later`` (cards drawn
    after the opening hand, per row)."""

    pred: Predicate
    hand: int
    fresh: Floats
    later: list[int]
    _hands: _Hands = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._hands = _Hands(self.pred, self.hand, self.hand + max(self.later, default=0))

    @property
    def problem(self) -> Problem:
        return self.pred.problem

    @property
    def monotone(self) -> bool:
        return self.problem.monotone

    def kept(self, counts: tuple[int, ...]) -> tuple[int, ...]:
        """The cards per group a bottom mulligan keeps (``kept_cards``)."""
        return kept_cards(self.problem, counts)

    def hands(self) -> Iterator[tuple[tuple[int, ...], float, list[int], int]]:
        """Every opening hand as (cards per group, its probability, the cards per group still
        in the deck, the cards no condition counts still in the deck)."""
        sizes, rest, hand = self.problem.sizes, self.problem.rest, self.hand
        for k1 in self._hands.every:
            weight = hand_weight(sizes, rest, k1, hand)
            remaining = [n - k for n, k in zip(sizes, k1, strict=True)]
            yield k1, weight, remaining, rest - (hand - sum(k1))

    def good(self, counts: Sequence[int]) -> bool:
        return self.pred.at(counts)

    def chance(
        self, base: Sequence[int], sizes: Sequence[int], rest: int, draws: Sequence[int]
    ) -> Floats:
        """P(good) after drawing each of ``draws`` more cards from ``sizes`` and ``rest``,
        holding ``base`` already."""
        return self._hands.chance(base, sizes, rest, draws)


def exact_rows(
    problem: Problem, timeline: Timeline, mulligan: Mulligan, forced: bool
) -> list[float]:
    """P(every condition holds) at each row of ``timeline``.

    ``mulligan``: the rule applied when the opening hand fails a condition (its ``exact``).
    ``forced``: the hand is redrawn until it holds a card with the forced bit (a forced
    redraw), so answers are conditioned on that.
    """
    n_total, hand = problem.total, timeline.hand
    last = timeline.consumed[-1]
    budget = last + mulligan.depth(hand)
    if budget > n_total:
        raise OddsError(
            _(
                "the last turn needs {n} cards from a deck of {total}; "
                "ask about fewer turns (refresh and deck-out are not modelled)",
                n=budget,
                total=n_total,
            )
        )
    check_range(n_total, max(timeline.seen))  # no table is deeper than the cards in hand
    pred = Predicate.build(problem)
    sizes, rest = problem.sizes, problem.rest
    zero = [0] * len(sizes)
    fresh = _chance(pred, zero, sizes, rest, timeline.seen)
    later = [s - hand for s in timeline.seen]  # cards drawn after the opening hand, per row

    if forced:
        if mulligan.active:
            raise OddsError(_("a forced redraw together with a voluntary mulligan is not modelled"))
        bit = problem.forced_bit
        without = [n for n, s in zip(sizes, problem.sigs, strict=True) if not s & bit]
        p_none = math.comb(sum(without) + rest, hand) / math.comb(n_total, hand)
        if p_none >= 1:
            raise OddsError(_("no card can end the forced redraw (the deck has none of them)"))
        bad_and_good = np.zeros(len(later))
        after = _Hands(pred, hand, max(later, default=0))
        for k1 in after.every:
            if any(k for k, s in zip(k1, problem.sigs, strict=True) if s & bit):
                continue  # this opening hand ends the redraw
            remaining = [n - k for n, k in zip(sizes, k1, strict=True)]
            weight = hand_weight(sizes, rest, k1, hand)
            left = rest - (hand - sum(k1))
            bad_and_good += weight * after.chance(k1, remaining, left, later)
        return list((fresh - bad_and_good) / (1 - p_none))

    return list(mulligan.exact(Opening(pred, hand, fresh, later)))


def clear_caches() -> None:
    """Forget the memoised tables (benchmarks time cold questions with it)."""
    clear_tables()
    clear_cache()
