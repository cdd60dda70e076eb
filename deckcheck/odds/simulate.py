"""Monte Carlo odds: shuffle, deal and mulligan card by card, as the rules say, in NumPy batches.

The simulator shares only the deck grouping and the "good" test with the exact engine; it
follows physical card positions (the partner set aside, rakuen's stock card after each draw,
bottomed cards under the deck, iris's repeated redraws) so it checks the engine's algebra.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from deckcheck.odds.exact import OddsError, Predicate, Problem, kept_cards
from deckcheck.odds.setup import Rules

Ints = NDArray[np.int64]
BATCH = 50_000


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


def _pattern(rules: Rules, turns: int, on_play: bool, attack_draws: bool) -> tuple[Ints, Ints]:
    """Positions after the opening hand: 1 = to hand, 0 = to stock; and, per row, how many of
    them are used up when that row's main phase starts."""
    marks: list[int] = []
    used = [0]
    for t in range(1, turns + 1):
        skip = t == 1 and on_play and not rules.first_player_draws
        marks += [1] * (0 if skip else rules.draw_per_turn) + [0] * rules.stock_per_turn
        used.append(len(marks))
        attack = attack_draws and not (t == 1 and on_play and not rules.first_turn_attack)
        if attack and t < turns:  # the battle phase after this main phase draws one more
            marks.append(1)
    return np.array(marks, dtype=np.int64), np.array(used, dtype=np.int64)


def _counts(labels: Ints, groups: int) -> Ints:
    """Per row, how many cards of each group ``labels`` holds."""
    out = np.zeros((labels.shape[0], groups), dtype=np.int64)
    for g in range(groups):
        out[:, g] = (labels == g).sum(axis=1)
    return out


class Simulator:
    def __init__(self, problem: Problem, rules: Rules, seed: int | None) -> None:
        self.problem = problem
        self.rules = rules
        self.pred = Predicate.build(problem)
        self.rng = np.random.default_rng(seed)
        self.groups = len(problem.sizes) + 1  # the last label is "matches nothing"
        self.deck = np.repeat(np.arange(self.groups), [*problem.sizes, problem.rest])
        self._kept: dict[tuple[int, ...], tuple[int, ...]] = {}

    def good(self, counts: Ints) -> NDArray[np.bool_]:
        pred = self.pred
        if not pred.groups:
            return np.full(counts.shape[0], bool(pred.good), dtype=bool)
        caps = self.problem.caps
        index = tuple(np.minimum(counts[:, g], caps[g]) for g in pred.groups)
        return np.asarray(pred.good[index], dtype=bool)

    def shuffled(self, rows: int) -> Ints:
        return self.rng.permuted(np.tile(self.deck, (rows, 1)), axis=1)

    def opening_hands(self, games: int) -> Ints:
        """Group counts of opening hands, no mulligan: the fast path timed by the benchmark."""
        colours = np.array([*self.problem.sizes, self.problem.rest], dtype=np.int64)
        return self.rng.multivariate_hypergeometric(colours, self.rules.hand, size=games)

    def rows(
        self, games: int, turns: int, on_play: bool, attack_draws: bool, mulligan: bool
    ) -> list[Estimate]:
        marks, used = _pattern(self.rules, turns, on_play, attack_draws)
        hits = np.zeros(turns + 1, dtype=np.int64)
        done = 0
        while done < games:
            size = min(BATCH, games - done)
            hits += self._batch(size, marks, used, mulligan)
            done += size
        out = []
        for h in hits:
            low, high = wilson(int(h), games)
            out.append(Estimate(float(h) / games, low, high, games))
        return out

    def _batch(self, rows: int, marks: Ints, used: Ints, mulligan: bool) -> Ints:
        hand, rules, prob = self.rules.hand, self.rules, self.problem
        deck = self.shuffled(rows)
        if rules.forced is not None:  # iris: redraw while the hand lacks a unit
            forced = [g for g, s in enumerate(prob.sigs) if s & prob.forced_bit]
            for _ in range(10_000):
                missing = _counts(deck[:, :hand], self.groups)[:, forced].sum(axis=1) == 0
                if not missing.any():
                    break
                deck[missing] = self.shuffled(int(missing.sum()))
            else:  # pragma: no cover - the exact engine refuses such decks first
                raise OddsError("no card can end the forced redraw")
        first = _counts(deck[:, :hand], self.groups)
        kept = first.copy()
        redraw = np.zeros(rows, dtype=np.int64)
        if mulligan and rules.mulligan != "none":
            bad = ~self.good(first)
            if rules.mulligan == "return-all-once":
                deck[bad] = self.shuffled(int(bad.sum()))
                kept = _counts(deck[:, :hand], self.groups)
            else:  # bottom-once: keep what fills a slot, bottom the rest, draw as many
                for row in np.flatnonzero(bad):
                    key = tuple(first[row, :-1].tolist())
                    k = self._kept.get(key) or self._kept.setdefault(key, kept_cards(prob, key))
                    kept[row, :-1] = k
                    kept[row, -1] = 0
                    redraw[row] = hand - sum(k)
        # After the opening hand: the redraw, then the turns' pattern, from position `hand` on.
        width = int(redraw.max()) + len(marks)
        if hand + width > deck.shape[1]:
            raise OddsError("the simulated turns run past the deck")
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
