"""Mulligan kinds as objects: how a hand that misses the conditions is redrawn, for the exact
engine (``exact``), the two simulators (``opening_only``, ``counts``, ``positions``) and sample
hands (``sample``). A format's ``mulligan`` names one: a common kind below, or one of its game's
own (``GameSpec.mulligans``: name -> "module:attribute" of a ``Mulligan``), found by ``kind_of``.

The kept hand is the one the default keep policy takes: a hand that meets every condition.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from deckcheck.errors import GameContractError
from deckcheck.games.registry import GameSpec
from deckcheck.odds.exact import Floats, OddsError, Opening, Problem, kept_cards
from deckcheck.odds.simulate import Ints, Simulator, group_counts

C = TypeVar("C")


@dataclass
class Dealt(Generic[C]):
    """A sample hand a mulligan may redraw: the opening ``hand``, the whole shuffled ``order``
    (the hand first, then the deck from its top), and each hand card's group in ``problem``
    (-1: it counts toward no condition) with the hand's ``counts`` per group."""

    hand: list[C]
    order: list[C]
    size: int
    problem: Problem
    groups: list[int]
    counts: tuple[int, ...]


class Mulligan:
    """No mulligan: the base every kind overrides. ``name`` is what a format writes."""

    name = "none"
    active = False  # whether a hand is ever redrawn

    def describe(self, hand: int) -> str:
        return "none"

    def depth(self, hand: int) -> int:
        """Cards beyond the draw timeline the mulligan may take from the deck."""
        return 0

    def exact(self, opening: Opening) -> Floats:
        return opening.fresh

    def opening_only(self, sim: Simulator, pick: Ints) -> bool:
        return True

    def counts(self, sim: Simulator, pick: Ints, seen: Ints, left: Ints) -> None:
        return None

    def positions(
        self, sim: Simulator, deck: Ints, first: Ints, kept: Ints, redraw: Ints
    ) -> None:
        return None

    def sample(self, dealt: Dealt[C], rng: random.Random) -> tuple[list[C], list[C]]:
        """(the cards returned, the new hand) of a hand that misses."""
        return [], list(dealt.hand)


class ReturnAllOnce(Mulligan):
    """Every card back, shuffle, draw as many; once."""

    name = "return-all-once"
    active = True

    def describe(self, hand: int) -> str:
        return f"return all {hand} and redraw, once"

    def exact(self, opening: Opening) -> Floats:
        fresh = opening.fresh
        p0 = float(fresh[0])
        if opening.problem.monotone:  # a kept hand stays good; a returned one starts afresh
            return p0 + (1 - p0) * fresh
        rows = np.zeros(len(opening.later))
        for k1, weight, remaining, left in opening.hands():
            if opening.good(k1):
                rows += weight * opening.chance(k1, remaining, left, opening.later)
        return rows + (1 - p0) * fresh

    def opening_only(self, sim: Simulator, pick: Ints) -> bool:
        bad = ~sim.compositions[2][pick]
        pick[bad] = sim.deal(int(bad.sum()))
        return True

    def counts(self, sim: Simulator, pick: Ints, seen: Ints, left: Ints) -> None:
        comps, _, good = sim.compositions
        bad = ~good[pick]
        again = comps[sim.deal(int(bad.sum()))]
        seen[bad] = again
        left[bad] = sim.colours[None, :] - again

    def positions(
        self, sim: Simulator, deck: Ints, first: Ints, kept: Ints, redraw: Ints
    ) -> None:
        bad = ~sim.good(first)
        deck[bad] = sim.shuffled(int(bad.sum()))
        kept[:] = group_counts(deck[:, : sim.hand], sim.groups)

    def sample(self, dealt: Dealt[C], rng: random.Random) -> tuple[list[C], list[C]]:
        rng.shuffle(dealt.order)
        return list(dealt.hand), dealt.order[: dealt.size]


class BottomOnce(Mulligan):
    """Any cards to the bottom of the deck, draw as many; once. The cards kept are those that
    fill a slot of a condition (``exact.kept_cards``); the rest go under the deck, out of
    reach."""

    name = "bottom-once"
    active = True

    def describe(self, hand: int) -> str:
        return "bottom the cards no condition needs and redraw as many, once"

    def depth(self, hand: int) -> int:
        return hand  # the bottomed cards leave the pile drawn from

    def exact(self, opening: Opening) -> Floats:
        problem, later = opening.problem, opening.later
        rows = np.zeros(len(later))
        for k1, weight, remaining, left in opening.hands():
            if opening.good(k1):
                if problem.monotone:
                    rows += weight
                else:
                    rows += weight * opening.chance(k1, remaining, left, later)
                continue
            kept = kept_cards(problem, tuple(k1))
            redraw = opening.hand - sum(kept)  # the bottomed cards are not in the pile drawn from
            rows += weight * opening.chance(kept, remaining, left, [redraw + d for d in later])
        return rows

    def opening_only(self, sim: Simulator, pick: Ints) -> bool:
        return False

    def counts(self, sim: Simulator, pick: Ints, seen: Ints, left: Ints) -> None:
        comps, _, good = sim.compositions
        which = np.flatnonzero(~good[pick])
        keys, inverse = np.unique(pick[which], return_inverse=True)
        kept = np.array(
            [[*sim.kept(tuple(comps[k, :-1].tolist())), 0] for k in keys], dtype=np.int64
        ).reshape(len(keys), sim.groups)[inverse]
        redraw = sim.hand - kept.sum(axis=1)
        part = left[which]  # the bottomed cards are under the deck: never reached
        seen[which] = kept + sim.draw(part, redraw)
        left[which] = part

    def positions(
        self, sim: Simulator, deck: Ints, first: Ints, kept: Ints, redraw: Ints
    ) -> None:
        for row in np.flatnonzero(~sim.good(first)):
            k = sim.kept(tuple(first[row, :-1].tolist()))
            kept[row, :-1] = k
            kept[row, -1] = 0
            redraw[row] = sim.hand - sum(k)

    def sample(self, dealt: Dealt[C], rng: random.Random) -> tuple[list[C], list[C]]:
        keep = list(kept_cards(dealt.problem, dealt.counts))
        kept, returned = [], []
        for card, group in zip(dealt.hand, dealt.groups, strict=True):
            if group >= 0 and keep[group] > 0:
                keep[group] -= 1
                kept.append(card)
            else:
                returned.append(card)
        rest = dealt.order[dealt.size :]
        return returned, kept + rest[: len(returned)]


NONE = Mulligan()
# deal_contract.COMMON_MULLIGANS holds these names for the format loader, which needs no NumPy
COMMON: dict[str, Mulligan] = {kind.name: kind for kind in (NONE, ReturnAllOnce(), BottomOnce())}


def kind_of(spec: GameSpec, name: str, where: str) -> Mulligan:
    """The mulligan kind ``name`` of ``spec``'s game: its own, else a common one."""
    target = spec.mulligans.get(name)
    if target is not None:
        module, _, attribute = target.partition(":")
        kind = getattr(importlib.import_module(module), attribute)
        if not isinstance(kind, Mulligan):
            raise GameContractError(
                f"game {spec.id!r}: its mulligan {name!r} ({target}) is not a Mulligan"
            )
        return kind
    if name in COMMON:
        return COMMON[name]
    kinds = ", ".join([*COMMON, *spec.mulligans])
    raise OddsError(f"format {where}: mulligan {name!r} is not one of {kinds}")

