"""Exact search for odds goals. An odds count depends on a variant only through how many cards
of each *class* it holds (a class: the cards every condition sees alike, ``OddsValues.key_of``),
so the search enumerates every class-level change within the limits (exhaustive, hence exact:
no local optimum can hide the best), counts each once, and then, best value first, finds for
each one a concrete change the validator accepts. ``brute_force`` is the plain reference the
property test compares with."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from deckcheck.errors import AsideError, UsageError
from deckcheck.goldfish.common import GoldfishError
from deckcheck.i18n import _
from deckcheck.models import Card
from deckcheck.odds.errors import OddsError
from deckcheck.tune.goal import OddsTerm
from deckcheck.tune.space import Candidate, Changes, Space, apply, legal, main_counts
from deckcheck.tune.values import OddsValues

MAX_CLASS_CHANGES = 200_000  # class-level changes counted in one tune
MAX_TRIES = 200  # concrete changes validated for one class-level change
# a variant the deal cannot start from (the game's spec refuses it): never a candidate
UNDEALT = (AsideError, OddsError, GoldfishError)


def cannot_deal(n: int, why: str) -> str:
    return _("{n} changes after which the deck cannot be dealt: {why}", n=n, why=why)


@dataclass(frozen=True)
class Found:
    changes: Changes
    values: tuple[float, ...]  # each term's value
    value: float  # the weighted sum
    alike: int  # concrete changes of the same class-level change (the same value)


def moves(lows: Sequence[int], highs: Sequence[int], most: int) -> Iterator[tuple[int, ...]]:
    """Every vector d with lows ≤ d ≤ highs, Σd = 0 and Σ max(d, 0) ≤ most (the copies moved),
    in a fixed order."""

    def go(i: int, total: int, added: int) -> Iterator[tuple[int, ...]]:
        if i == len(lows):
            if total == 0:
                yield ()
            return
        rest_low = sum(lows[i + 1 :])
        rest_high = sum(highs[i + 1 :])
        for d in range(max(lows[i], -most), min(highs[i], most) + 1):
            now, up = total + d, added + max(d, 0)
            if up > most or not (rest_low <= -now <= rest_high):
                continue
            for tail in go(i + 1, now, up):
                yield (d, *tail)

    yield from go(0, 0, 0)


def _classes(space: Space, values: OddsValues) -> list[list[Candidate]]:
    groups: dict[tuple[object, ...], list[Candidate]] = {}
    for cand in space.candidates:
        groups.setdefault(values.key_of(cand.card), []).append(cand)
    return list(groups.values())


def variant_cards(space: Space, changes: Changes) -> list[tuple[Card, int]]:
    """The main deck's cards after ``changes``."""
    now = main_counts(space.deck, space.index, space.fmt.game)
    delta = dict(changes)
    out = [(card, n + delta.pop(number, 0)) for number, (card, n) in now.items()]
    by_number = {c.card.number: c.card for c in space.candidates}
    out += [(by_number[number], d) for number, d in delta.items()]
    return out


def _spread(group: Sequence[Candidate], total: int) -> Iterator[tuple[int, ...]]:
    """Ways to add ``total`` copies (negative: cut) across a class, each card in its range."""
    lows = [c.low - c.count for c in group]
    highs = [c.high - c.count for c in group]

    def go(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == len(group):
            if left == 0:
                yield ()
            return
        # one direction only: a cut and an addition inside one class change no count
        span = range(max(lows[i], 0), highs[i] + 1) if total > 0 else range(0, lows[i] - 1, -1)
        for d in sorted(span, key=lambda d: -abs(d)):
            rest = left - d
            if sum(lows[i + 1 :]) <= rest <= sum(highs[i + 1 :]):
                for tail in go(i + 1, rest):
                    yield (d, *tail)

    yield from go(0, total)


def _realise(classes: Sequence[Sequence[Candidate]], vector: Sequence[int]) -> Iterator[Changes]:
    spreads = [
        list(_spread(g, d)) if d else [(0,) * len(g)] for g, d in zip(classes, vector, strict=True)
    ]
    for combo in itertools.product(*spreads):
        yield tuple(
            sorted(
                (c.card.number, d)
                for group, ds in zip(classes, combo, strict=True)
                for c, d in zip(group, ds, strict=True)
                if d
            )
        )


def _count(classes: Sequence[Sequence[Candidate]], vector: Sequence[int]) -> int:
    total = 1
    for g, d in zip(classes, vector, strict=True):
        total *= sum(1 for _s in _spread(g, d)) if d else 1
    return total


def search(space: Space, values: OddsValues, top: int) -> tuple[list[Found], list[str]]:
    """The ``top`` best class-level changes that have a legal concrete change, best first
    (ties: fewer copies moved, then the enumeration's order), and what was never tried."""
    classes = _classes(space, values)
    lows = [sum(c.low - c.count for c in g) for g in classes]
    highs = [sum(c.high - c.count for c in g) for g in classes]
    weights = [t.weight for t in values.terms]
    scored = []
    undealt: dict[str, int] = {}
    for n, vector in enumerate(moves(lows, highs, space.max_changes)):
        if n >= MAX_CLASS_CHANGES:
            raise UsageError(
                _(
                    "more than {n} changes to count: lower --max-changes or give fewer candidates",
                    n=MAX_CLASS_CHANGES,
                )
            )
        first = next(_realise(classes, vector))
        try:
            each = values.values(variant_cards(space, first))
        except UNDEALT as exc:  # e.g. the card the game sets aside before the deal, cut
            undealt.setdefault(str(exc), 0)
            undealt[str(exc)] += 1
            continue
        value = sum(w * v for w, v in zip(weights, each, strict=True))
        moved = sum(max(d, 0) for d in vector)
        scored.append((-value, moved, n, vector, each))
    scored.sort(key=lambda s: s[:3])
    found: list[Found] = []
    skipped = [cannot_deal(n, why) for why, n in undealt.items()]
    for negative, _moved, _n, vector, each in scored:
        if len(found) >= top:
            break
        for tried, changes in enumerate(_realise(classes, vector)):
            if tried >= MAX_TRIES:
                skipped.append(
                    _(
                        "a change worth {value:.4f}: only its first {n} ways were validated,"
                        " none legal",
                        value=-negative,
                        n=MAX_TRIES,
                    )
                )
                break
            deck = apply(space.deck, space.index, space.fmt.game, changes)
            if legal(deck, space.fmt, space.index):
                found.append(Found(changes, each, -negative, _count(classes, vector)))
                break
    return found, skipped


def brute_force(space: Space, terms: Sequence[OddsTerm]) -> float | None:
    """The best value over every concrete change the validator accepts, each deck asked
    through ``compute_odds`` as ``deckcheck odds`` asks it: the plain reference that
    ``search`` must equal (the property test)."""
    from deckcheck.odds.api import OddsRequest, compute_odds

    cands = space.candidates
    lows = [c.low - c.count for c in cands]
    highs = [c.high - c.count for c in cands]
    best: float | None = None
    for vector in moves(lows, highs, space.max_changes):
        changes = tuple(sorted((c.card.number, d) for c, d in zip(cands, vector, strict=True) if d))
        deck = apply(space.deck, space.index, space.fmt.game, changes)
        if not legal(deck, space.fmt, space.index):
            continue
        value = 0.0
        try:
            for term in terms:
                ask = OddsRequest(want=list(term.wants), turns=term.turn)
                rows = compute_odds(deck, space.fmt, space.index, ask).rows
                value += term.weight * rows[term.turn].probability
        except UNDEALT:
            continue
        best = value if best is None else max(best, value)
    return best
