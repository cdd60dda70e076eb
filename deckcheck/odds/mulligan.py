"""Mulligan rules as objects: how a hand that misses the conditions is redrawn, for the exact
engine (``exact``), the two simulators (``opening_only``, ``counts``, ``positions``) and sample
hands (``sample``). A format's ``mulligan`` names one: a common rule below, or one of its game's
own (``GameSpec.deal.mulligans``: name -> "module:attribute" of a ``Mulligan``), found by
``find_mulligan``.

The kept hand is the one the default keep policy takes: a hand that meets every condition. A
rule sees the engines through the two small interfaces below (``exact.Opening`` and
``simulate.Simulator`` provide them), so this module imports neither engine.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from deckcheck.errors import GameContractError
from deckcheck.i18n import _
from deckcheck.odds.errors import OddsError

C = TypeVar("C")
Floats = NDArray[np.float64]
Ints = NDArray[np.int64]


class Counting(Protocol):
    """What the exact engine gives a rule (``exact.Opening``): the opening hand's size,
    ``fresh`` (P(good) at each row with no mulligan), ``later`` (cards drawn after the opening
    hand, per row), and exact sums over opening hands."""

    @property
    def hand(self) -> int: ...

    @property
    def fresh(self) -> Floats: ...

    @property
    def later(self) -> list[int]: ...

    @property
    def monotone(self) -> bool: ...  # only >= conditions: a good hand stays good

    def hands(self) -> Iterator[tuple[tuple[int, ...], float, list[int], int]]: ...

    def good(self, counts: Sequence[int]) -> bool: ...

    def kept(self, counts: tuple[int, ...]) -> tuple[int, ...]: ...

    def chance(
        self, base: Sequence[int], sizes: Sequence[int], rest: int, draws: Sequence[int]
    ) -> Floats: ...


class Sampling(Protocol):
    """What the simulators give a rule (``simulate.Simulator``): hands as counts per group
    (the last column: cards no condition counts), dealt and drawn from its random source."""

    @property
    def hand(self) -> int: ...

    @property
    def groups(self) -> int: ...

    @property
    def colours(self) -> Ints: ...

    @property
    def compositions(self) -> tuple[Ints, Floats, NDArray[np.bool_]]: ...

    def good(self, counts: Ints) -> NDArray[np.bool_]: ...

    def deal(self, rows: int) -> Ints: ...

    def draw(self, left: Ints, n: Ints | int) -> Ints: ...

    def shuffled(self, rows: int) -> Ints: ...

    def kept(self, counts: tuple[int, ...]) -> tuple[int, ...]: ...


def group_counts(labels: Ints, groups: int) -> Ints:
    """Per row, how many cards of each group ``labels`` holds."""
    out = np.zeros((labels.shape[0], groups), dtype=np.int64)
    for g in range(groups):
        out[:, g] = (labels == g).sum(axis=1)
    return out


@dataclass
class Dealt(Generic[C]):
    """A sample hand a mulligan may redraw: the opening ``hand``, the whole shuffled ``order``
    (the hand first, then the deck from its top), each hand card's group (-1: it counts toward
    no condition), the hand's ``counts`` per group and ``keep``, the cards per group that fill
    a slot of a condition (``exact.kept_cards``)."""

    hand: list[C]
    order: list[C]
    size: int
    groups: list[int]
    counts: tuple[int, ...]
    keep: tuple[int, ...]


class Mulligan:
    """A mulligan rule. Subclass it and override what the rule supports: ``exact`` (exact
    odds), ``sample`` (sample hands) and ``opening_only``/``counts``/``positions`` (the two
    simulators); a method not overridden refuses the question with an ``OddsError`` that names
    the rule. ``name`` is what a format writes; ``active``: whether a hand is ever redrawn."""

    name = ""
    active = True

    def describe(self, hand: int) -> str:
        return self.name

    def depth(self, hand: int) -> int:
        """Cards beyond the draw timeline the mulligan may take from the deck."""
        return 0

    def _unsupported(self, what: str) -> OddsError:
        return OddsError(
            _(
                "the mulligan {name} has no {what}; ask with --no-mulligan",
                name=repr(self.name),
                what=what,
            )
        )

    def exact(self, opening: Counting) -> Floats:
        raise self._unsupported(_("exact odds"))

    def opening_only(self, sim: Sampling, pick: Ints) -> bool:
        raise self._unsupported(_("simulation"))

    def counts(self, sim: Sampling, pick: Ints, seen: Ints, left: Ints) -> None:
        raise self._unsupported(_("simulation"))

    def positions(self, sim: Sampling, deck: Ints, first: Ints, kept: Ints, redraw: Ints) -> None:
        raise self._unsupported(_("simulation"))

    def sample(self, dealt: Dealt[C], rng: random.Random) -> tuple[list[C], list[C]]:
        """(the cards returned, the new hand) of a hand that misses."""
        raise self._unsupported("sample hands")


class NoMulligan(Mulligan):
    """No mulligan: every hand is kept."""

    name = "none"
    active = False

    def describe(self, hand: int) -> str:
        return _("none")

    def exact(self, opening: Counting) -> Floats:
        return opening.fresh

    def opening_only(self, sim: Sampling, pick: Ints) -> bool:
        return True

    def counts(self, sim: Sampling, pick: Ints, seen: Ints, left: Ints) -> None:
        return None

    def positions(self, sim: Sampling, deck: Ints, first: Ints, kept: Ints, redraw: Ints) -> None:
        return None

    def sample(self, dealt: Dealt[C], rng: random.Random) -> tuple[list[C], list[C]]:
        return [], list(dealt.hand)


class ReturnAllOnce(Mulligan):
    """Every card back, shuffle, draw as many; once."""

    name = "return-all-once"
    active = True

    def describe(self, hand: int) -> str:
        return _("return all {n} and redraw, once", n=hand)

    def exact(self, opening: Counting) -> Floats:
        fresh = opening.fresh
        p0 = float(fresh[0])
        if opening.monotone:  # a kept hand stays good; a returned one starts afresh
            return p0 + (1 - p0) * fresh
        rows = np.zeros(len(opening.later))
        for k1, weight, remaining, left in opening.hands():
            if opening.good(k1):
                rows += weight * opening.chance(k1, remaining, left, opening.later)
        return rows + (1 - p0) * fresh

    def opening_only(self, sim: Sampling, pick: Ints) -> bool:
        bad = ~sim.compositions[2][pick]
        pick[bad] = sim.deal(int(bad.sum()))
        return True

    def counts(self, sim: Sampling, pick: Ints, seen: Ints, left: Ints) -> None:
        comps, _cdf, good = sim.compositions
        bad = ~good[pick]
        again = comps[sim.deal(int(bad.sum()))]
        seen[bad] = again
        left[bad] = sim.colours[None, :] - again

    def positions(self, sim: Sampling, deck: Ints, first: Ints, kept: Ints, redraw: Ints) -> None:
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
        return _("bottom the cards no condition needs and redraw as many, once")

    def depth(self, hand: int) -> int:
        return hand  # the bottomed cards leave the pile drawn from

    def exact(self, opening: Counting) -> Floats:
        later = opening.later
        rows = np.zeros(len(later))
        for k1, weight, remaining, left in opening.hands():
            if opening.good(k1):
                if opening.monotone:
                    rows += weight
                else:
                    rows += weight * opening.chance(k1, remaining, left, later)
                continue
            kept = opening.kept(tuple(k1))
            redraw = opening.hand - sum(kept)  # the bottomed cards are not in the pile drawn from
            rows += weight * opening.chance(kept, remaining, left, [redraw + d for d in later])
        return rows

    def opening_only(self, sim: Sampling, pick: Ints) -> bool:
        return False

    def counts(self, sim: Sampling, pick: Ints, seen: Ints, left: Ints) -> None:
        comps, _cdf, good = sim.compositions
        which = np.flatnonzero(~good[pick])
        keys, inverse = np.unique(pick[which], return_inverse=True)
        kept = np.array(
            [[*sim.kept(tuple(comps[k, :-1].tolist())), 0] for k in keys], dtype=np.int64
        ).reshape(len(keys), sim.groups)[inverse]
        redraw = sim.hand - kept.sum(axis=1)
        part = left[which]  # the bottomed cards are under the deck: never reached
        seen[which] = kept + sim.draw(part, redraw)
        left[which] = part

    def positions(self, sim: Sampling, deck: Ints, first: Ints, kept: Ints, redraw: Ints) -> None:
        for row in np.flatnonzero(~sim.good(first)):
            k = sim.kept(tuple(first[row, :-1].tolist()))
            kept[row, :-1] = k
            kept[row, -1] = 0
            redraw[row] = sim.hand - sum(k)

    def sample(self, dealt: Dealt[C], rng: random.Random) -> tuple[list[C], list[C]]:
        keep = list(dealt.keep)
        kept, returned = [], []
        for card, group in zip(dealt.hand, dealt.groups, strict=True):
            if group >= 0 and keep[group] > 0:
                keep[group] -= 1
                kept.append(card)
            else:
                returned.append(card)
        rest = dealt.order[dealt.size :]
        return returned, kept + rest[: len(returned)]


NONE = NoMulligan()
# plugins/deal.py COMMON_MULLIGANS holds these names for the format loader, which needs no NumPy
COMMON: dict[str, Mulligan] = {m.name: m for m in (NONE, ReturnAllOnce(), BottomOnce())}


def find_mulligan(game: str, own: Mapping[str, str], name: str, where: str) -> Mulligan:
    """The mulligan rule ``name``: one of the game's ``own`` (its spec's ``mulligans``), else a
    common one; ``where`` names the format for the error."""
    target = own.get(name)
    if target is not None:
        module, _sep, attribute = target.partition(":")
        found = getattr(importlib.import_module(module), attribute, None)
        if not isinstance(found, Mulligan):
            raise GameContractError(
                _(
                    "game {game}: its mulligan {name} ({target}) is not a Mulligan",
                    game=repr(game),
                    name=repr(name),
                    target=target,
                )
            )
        return found
    if name in COMMON:
        return COMMON[name]
    known = ", ".join([*COMMON, *own])
    raise OddsError(
        _(
            "format {format}: mulligan {name} is not one of {known}",
            format=where,
            name=repr(name),
            known=known,
        )
    )
