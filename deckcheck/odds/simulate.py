"""Monte Carlo odds: deal and mulligan game by game, as the rules say, in NumPy batches.

Two samplers share the deck grouping and the "good" test with the exact engine, and nothing
of its algebra:

- ``rows`` (what ``deckcheck odds --simulate`` runs) deals only what a question can see. A
  shuffled deck's cards in any fixed set of positions are a hypergeometric draw, so each game
  draws its opening hand (a composition drawn from its hypergeometric law), the mulligan's
  redraw, and each turn's cards to hand and to stock as counts from what is left.
- ``rows_by_position`` shuffles whole decks and follows physical card positions (cards set
  aside, a stock card after each draw, bottomed cards under the deck, repeated forced
  redraws). It is several times slower; the tests hold the two to each other and to the exact
  engine.

The format's mulligan rule (``mulligan``) redraws the hands that miss, through the public
samplers here (``deal``, ``draw``, ``shuffled``, ``compositions``, ``kept``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from deckcheck.i18n import _
from deckcheck.odds.exact import OddsError, Predicate, Problem, good_rows
from deckcheck.odds.keep import kept_cards
from deckcheck.odds.mulligan import Mulligan, group_counts
from deckcheck.odds.setup import Rules
from deckcheck.odds.timeline import pattern

Ints = NDArray[np.int64]
BATCH = 50_000  # whole decks per batch (rows_by_position)
# Up to this many capped count vectors, the whole good/bad table is built once and looked up;
# past it only the vectors the sample dealt are tested (ten conditions on ten cards make
# 4¹⁰ vectors, whose table took 18 s to build for a 2,000-hand question: issue 35).
TABLE_VECTORS = 65_536
COUNT_BATCH = 1_000_000  # games per batch when dealing counts


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _compositions(total: int, caps: list[int]) -> list[list[int]]:
    """Every way to split ``total`` cards over groups holding ``caps`` cards."""
    if len(caps) == 1:
        return [[total]] if total <= caps[0] else []
    return [
        [k, *rest]
        for k in range(min(total, caps[0]) + 1)
        for rest in _compositions(total - k, caps[1:])
    ]


# a batch of games: (games, marks, used, mulligan) → the hits of each row
_Batch = Callable[[int, Ints, Ints, Mulligan | None], Ints]


def _estimates(hits: Ints, games: int) -> list[Estimate]:
    out = []
    for h in hits:
        low, high = wilson(int(h), games)
        out.append(Estimate(float(h) / games, low, high, games))
    return out


@dataclass(frozen=True)
class Estimate:
    probability: float
    low: float  # 95% Wilson interval
    high: float
    games: int


def wilson(hits: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if hits == 0 else max(0.0, centre - half)  # exact ends, not rounding noise
    high = 1.0 if hits == n else min(1.0, centre + half)
    return low, high


class Simulator:
    def __init__(self, problem: Problem, rules: Rules, seed: int | None) -> None:
        self.problem = problem
        self.rules = rules
        self.hand = rules.hand
        self.rng = np.random.default_rng(seed)
        self.groups = len(problem.sizes) + 1  # the last label is "matches nothing"
        self.deck = np.repeat(np.arange(self.groups), [*problem.sizes, problem.rest])
        self._relevant = problem.relevant()
        caps = [problem.caps[g] for g in self._relevant]
        self._radix = np.array([math.prod(c + 1 for c in caps[i + 1 :]) for i in range(len(caps))])
        vectors = math.prod(c + 1 for c in caps)
        self.pred = Predicate.build(problem) if vectors <= TABLE_VECTORS else None
        # tested vectors (mixed-radix keys, sorted) and their verdicts, for the lazy path
        self._keys = np.zeros(0, dtype=np.int64)
        self._verdicts = np.zeros(0, dtype=bool)

    def good(self, counts: Ints) -> NDArray[np.bool_]:
        problem = self.problem
        if not self._relevant:
            return np.full(counts.shape[0], all(c.demand == 0 for c in problem.conditions))
        caps = np.array([problem.caps[g] for g in self._relevant], dtype=np.int64)
        capped = np.minimum(counts[:, self._relevant], caps[None, :])
        if self.pred is not None:
            return np.asarray(self.pred.good[tuple(capped.T)], dtype=bool)
        keys = capped @ self._radix
        wanted = np.unique(keys)
        new = wanted
        if len(self._keys):
            at = np.minimum(np.searchsorted(self._keys, wanted), len(self._keys) - 1)
            new = wanted[self._keys[at] != wanted]
        if len(new):
            rows = (new[:, None] // self._radix[None, :]) % (caps[None, :] + 1)
            keys_all = np.concatenate([self._keys, new])
            verdicts = np.concatenate([self._verdicts, good_rows(problem, rows)])
            order = np.argsort(keys_all)  # keys are distinct: any sort
            self._keys, self._verdicts = keys_all[order], verdicts[order]
        return np.asarray(self._verdicts[np.searchsorted(self._keys, keys)], dtype=bool)

    @cached_property
    def colours(self) -> Ints:
        return np.array([*self.problem.sizes, self.problem.rest], dtype=np.int64)

    def shuffled(self, rows: int) -> Ints:
        return self.rng.permuted(np.tile(self.deck, (rows, 1)), axis=1)

    def kept(self, counts: tuple[int, ...]) -> tuple[int, ...]:
        """The cards per group a bottom mulligan keeps of a hand (``exact.kept_cards``)."""
        return kept_cards(self.problem, counts)

    def _mulligan_rule(self, mulligan: bool) -> Mulligan | None:
        rules = self.rules
        return rules.mulligan if mulligan and rules.forced is None else None

    def _pattern(self, turns: int, on_play: bool, optional: bool) -> tuple[Ints, Ints]:
        marks, used = pattern(self.rules.draws, turns, on_play, optional)
        return np.array(marks, dtype=np.int64), np.array(used, dtype=np.int64)

    def rows(
        self, games: int, turns: int, on_play: bool, optional: bool, mulligan: bool
    ) -> list[Estimate]:
        """Estimates for rows 0..turns, dealing counts (the module's docstring)."""
        marks, used = self._pattern(turns, on_play, optional)
        if self.hand + len(marks) > int(self.colours.sum()):
            raise OddsError(_("the simulated turns run past the deck"))
        return self._tally(self._count_batch, COUNT_BATCH, games, turns, marks, used, mulligan)

    def rows_by_position(
        self, games: int, turns: int, on_play: bool, optional: bool, mulligan: bool
    ) -> list[Estimate]:
        """The same estimates from whole shuffled decks, card by card."""
        marks, used = self._pattern(turns, on_play, optional)
        return self._tally(self._batch, BATCH, games, turns, marks, used, mulligan)

    def _tally(
        self,
        play: _Batch,
        batch: int,
        games: int,
        turns: int,
        marks: Ints,
        used: Ints,
        mulligan: bool,
    ) -> list[Estimate]:
        """``games`` played by ``play``, ``batch`` at a time: the estimates of rows 0..turns."""
        hits = np.zeros(turns + 1, dtype=np.int64)
        done = 0
        while done < games:
            size = min(batch, games - done)
            hits += play(size, marks, used, self._mulligan_rule(mulligan))
            done += size
        return _estimates(hits, games)

    # --- counts -----------------------------------------------------------------------------

    @cached_property
    def compositions(self) -> tuple[Ints, NDArray[np.float64], NDArray[np.bool_]]:
        """Every opening-hand composition (cards per group), its cumulative probability under
        the hypergeometric law, and whether it is good."""
        hand, colours = self.hand, self.colours
        comps = np.array(_compositions(hand, colours.tolist()), dtype=np.int64)
        logs = np.array(
            [
                sum(_log_comb(int(c), int(k)) for c, k in zip(colours, row, strict=True))
                for row in comps
            ]
        ) - _log_comb(int(colours.sum()), hand)
        cdf = np.cumsum(np.exp(logs))
        cdf /= cdf[-1]
        return comps, cdf, self.good(comps)

    def deal(self, rows: int) -> Ints:
        """Indices into ``compositions`` of ``rows`` opening hands (forced redraw applied)."""
        comps, cdf, _ = self.compositions
        pick = np.searchsorted(cdf, self.rng.random(rows), side="right")
        np.minimum(pick, len(cdf) - 1, out=pick)
        if self.rules.forced is not None:  # redraw while the hand lacks the forced card
            forced = self._forced_groups
            for _ in range(10_000):
                missing = comps[pick][:, forced].sum(axis=1) == 0
                if not missing.any():
                    break
                again = np.searchsorted(cdf, self.rng.random(int(missing.sum())), side="right")
                pick[missing] = np.minimum(again, len(cdf) - 1)
            else:  # pragma: no cover - the exact engine refuses such decks first
                raise OddsError(_("no card can end the forced redraw"))
        return pick

    @cached_property
    def _forced_groups(self) -> list[int]:
        prob = self.problem
        return [g for g, s in enumerate(prob.sigs) if s & prob.forced_bit]

    def draw(self, left: Ints, n: Ints | int) -> Ints:
        """Per row, the cards of each group among ``n`` drawn from ``left`` (rows × groups),
        which loses them: the multivariate hypergeometric law, group by group."""
        out = np.zeros_like(left)
        need = np.broadcast_to(np.asarray(n, dtype=np.int64), left.shape[:1]).copy()
        total = left.sum(axis=1)
        for g in range(self.groups - 1):
            got = self.rng.hypergeometric(left[:, g], total - left[:, g], need)
            out[:, g] = got
            total -= left[:, g]
            need -= got
        out[:, -1] = need
        left -= out
        return out

    def _count_batch(self, rows: int, marks: Ints, used: Ints, mulligan: Mulligan | None) -> Ints:
        comps, _, good = self.compositions
        pick = self.deal(rows)
        hits = np.zeros(len(used), dtype=np.int64)
        if len(used) == 1 and (mulligan is None or mulligan.opening_only(self, pick)):
            hits[0] = int(good[pick].sum())  # the opening hand only
            return hits
        seen = comps[pick]
        left = self.colours[None, :] - seen
        if mulligan is not None:
            mulligan.counts(self, pick, seen, left)
        hits[0] = int(self.good(seen).sum())
        for t in range(1, len(used)):
            block = marks[used[t - 1] : used[t]]
            to_hand, to_stock = int(block.sum()), int(len(block) - block.sum())
            if to_hand:
                seen += self.draw(left, to_hand)
            if to_stock:
                self.draw(left, to_stock)
            hits[t] = int(self.good(seen).sum())
        return hits

    def _batch(self, rows: int, marks: Ints, used: Ints, mulligan: Mulligan | None) -> Ints:
        hand, rules, prob = self.hand, self.rules, self.problem
        deck = self.shuffled(rows)
        if rules.forced is not None:  # redraw while the hand lacks the forced card
            forced = [g for g, s in enumerate(prob.sigs) if s & prob.forced_bit]
            for _ in range(10_000):
                missing = group_counts(deck[:, :hand], self.groups)[:, forced].sum(axis=1) == 0
                if not missing.any():
                    break
                deck[missing] = self.shuffled(int(missing.sum()))
            else:  # pragma: no cover - the exact engine refuses such decks first
                raise OddsError(_("no card can end the forced redraw"))
        first = group_counts(deck[:, :hand], self.groups)
        kept = first.copy()
        redraw = np.zeros(rows, dtype=np.int64)
        if mulligan is not None:
            mulligan.positions(self, deck, first, kept, redraw)
        # After the opening hand: the redraw, then the turns' pattern, from position `hand` on.
        width = int(redraw.max()) + len(marks)
        if hand + width > deck.shape[1]:
            raise OddsError(_("the simulated turns run past the deck"))
        offsets = np.arange(width)
        to_hand = np.where(
            offsets[None, :] < redraw[:, None],
            1,
            marks[np.clip(offsets[None, :] - redraw[:, None], 0, max(len(marks) - 1, 0))]
            if len(marks)
            else 0,
        )
        labels = deck[:, hand : hand + width]
        hits = np.zeros(len(used), dtype=np.int64)
        for t, u in enumerate(used):
            upto = offsets[None, :] < (redraw[:, None] + u)
            seen = kept.copy()
            for g in range(self.groups):
                seen[:, g] += ((labels == g) & upto & (to_hand == 1)).sum(axis=1)
            hits[t] = int(self.good(seen).sum())
        return hits
