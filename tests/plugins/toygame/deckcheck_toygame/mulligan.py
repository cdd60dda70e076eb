"""The toy game's own mulligan rule, ``bottom-two`` (deckcheck's test fixture, outside the
rulebooks): a hand that misses keeps the cards that fill a slot of a condition, puts two of the
others under the deck (cards that count toward no condition first, then by group) and draws
two; once. Loaded by name from the spec's ``mulligans`` only when odds ask (it needs NumPy)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from deckcheck.sdk import Counting, Dealt, Floats, Ints, Mulligan, Sampling

UNDER = 2  # cards put under the deck
C = TypeVar("C")


def bottomed(hand: Sequence[int], kept: Sequence[int], rest: int) -> tuple[list[int], int]:
    """Of a missing hand (cards per group, and ``rest`` cards no condition counts), the cards
    per group and the rest cards that go under: the rest first, then the groups in order."""
    left = UNDER
    from_rest = min(rest, left)
    left -= from_rest
    out = []
    for have, keep in zip(hand, kept, strict=True):
        take = min(have - keep, left)
        out.append(take)
        left -= take
    return out, from_rest


class BottomTwo(Mulligan):
    name = "bottom-two"

    def describe(self, hand: int) -> str:
        return f"put {UNDER} cards no condition needs under the deck and draw {UNDER}, once"

    def depth(self, hand: int) -> int:
        return UNDER  # the cards under the deck leave the pile drawn from

    def exact(self, opening: Counting) -> Floats:
        later = opening.later
        rows = np.zeros(len(later))
        for k1, weight, remaining, left in opening.hands():
            if opening.good(k1):
                rows += weight * opening.chance(k1, remaining, left, later)
                continue
            rest = opening.hand - sum(k1)
            under, under_rest = bottomed(k1, opening.kept(tuple(k1)), rest)
            held = [k - u for k, u in zip(k1, under, strict=True)]
            draws = [sum(under) + under_rest + d for d in later]
            rows += weight * opening.chance(held, remaining, left, draws)
        return rows

    def opening_only(self, sim: Sampling, pick: Ints) -> bool:
        return False

    def counts(self, sim: Sampling, pick: Ints, seen: Ints, left: Ints) -> None:
        comps, _, good = sim.compositions
        missed = np.flatnonzero(~good[pick])
        # the hands that miss, one opening composition at a time: the same cards go under
        # for each, so one draw serves them all (a draw a hand cost 8 s of the plugin test)
        for composition in np.unique(pick[missed]):
            rows = missed[pick[missed] == composition]
            hand = comps[composition]
            kept = sim.kept(tuple(hand[:-1].tolist()))
            under, under_rest = bottomed(hand[:-1].tolist(), kept, int(hand[-1]))
            held = np.array([*(h - u for h, u in zip(hand[:-1], under, strict=True)), 0])
            part = left[rows]  # the cards under the deck are never reached
            seen[rows] = held + sim.draw(part, sum(under) + under_rest)
            left[rows] = part

    def positions(
        self, sim: Sampling, deck: Ints, first: Ints, kept: Ints, redraw: Ints
    ) -> None:
        for row in np.flatnonzero(~sim.good(first)):
            hand = first[row]
            keep = sim.kept(tuple(hand[:-1].tolist()))
            under, under_rest = bottomed(hand[:-1].tolist(), keep, int(hand[-1]))
            kept[row, :-1] = hand[:-1] - np.array(under)
            kept[row, -1] = 0  # the rest cards left in hand count toward nothing
            redraw[row] = sum(under) + under_rest

    def sample(self, dealt: Dealt[C], rng: random.Random) -> tuple[list[C], list[C]]:
        keep = list(dealt.keep)
        spare: list[tuple[int, int]] = []  # (group, position in hand) of the cards not kept
        for i, group in enumerate(dealt.groups):
            if group >= 0 and keep[group] > 0:
                keep[group] -= 1
            else:
                spare.append((group, i))
        spare.sort()  # the rest (-1) first, then by group, as ``bottomed`` counts them
        under = {i for _, i in spare[:UNDER]}
        held = [c for i, c in enumerate(dealt.hand) if i not in under]
        top = dealt.order[dealt.size : dealt.size + len(under)]
        return [dealt.hand[i] for i in sorted(under)], held + top


BOTTOM_TWO = BottomTwo()
