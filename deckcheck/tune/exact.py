"""Exact search for odds goals. An odds count depends on a variant only through how many cards
of each *class* it holds (a class: the cards every condition sees alike, ``OddsValues.key_of``),
so the search enumerates every class-level change within the limits (exhaustive, hence exact:
no local optimum can hide the best), counts each once, and then, best value first, finds for
each one a concrete change the validator accepts. ``brute_force`` is the plain reference the
property test compares with."""

from __future__ import annotations

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


def _spans(group: Sequence[Candidate], total: int) -> list[range]:
    """Each card's changes when a class gains ``total`` copies (negative: cuts), most copies
    first: one direction only, since a cut and an addition inside one class change no count."""
    if total > 0:
        return [range(c.high - c.count, max(c.low - c.count, 0) - 1, -1) for c in group]
    return [range(c.low - c.count, 1) for c in group]


def _spread(group: Sequence[Candidate], total: int) -> Iterator[tuple[int, ...]]:
    """Ways to add ``total`` copies (negative: cut) across a class, each card in its range:
    the first card's most copies first, then the next card's, and so on. A walk with a stack,
    not a recursion a card deep: a class can hold hundreds of cards (``--from`` a whole type),
    and each step knows from the bounds of the cards after it whether any way remains, so no
    branch without one is walked (a recursive walk of every branch took 7 CPU-s of such a
    tune: issue 35)."""
    spans = _spans(group, total)
    n = len(spans)
    low, high = [0] * (n + 1), [0] * (n + 1)  # the fewest and most copies cards i… can take
    for i in range(n - 1, -1, -1):
        if not spans[i]:
            return
        low[i] = low[i + 1] + min(spans[i])
        high[i] = high[i + 1] + max(spans[i])
    if not low[0] <= total <= high[0]:
        return
    out, left, tried = [0] * n, [0] * (n + 1), [0] * n
    left[0] = total
    i = 0
    while i >= 0:
        if i == n:  # every card given its part: left[n] is 0 by the bounds
            yield tuple(out)
            i -= 1
            continue
        span, k = spans[i], tried[i]
        while k < len(span) and not low[i + 1] <= left[i] - span[k] <= high[i + 1]:
            k += 1
        if k == len(span):  # no more ways from here: back to the card before
            tried[i] = 0
            i -= 1
            continue
        out[i], tried[i], left[i + 1] = span[k], k + 1, left[i] - span[k]
        i += 1


def _realise(classes: Sequence[Sequence[Candidate]], vector: Sequence[int]) -> Iterator[Changes]:
    """The concrete changes of a class-level change, in ``itertools.product``'s order over
    each class's spreads, built as they are asked for (the search asks for the first, and at
    most ``MAX_TRIES``, of up to hundreds of thousands)."""

    def product(c: int) -> Iterator[tuple[tuple[int, ...], ...]]:
        if c == len(classes):
            yield ()
            return
        group, d = classes[c], vector[c]
        for ds in _spread(group, d) if d else iter([(0,) * len(group)]):
            for rest in product(c + 1):
                yield (ds, *rest)

    for combo in product(0):
        yield tuple(
            sorted(
                (c.card.number, d)
                for group, ds in zip(classes, combo, strict=True)
                for c, d in zip(group, ds, strict=True)
                if d
            )
        )


def _count(classes: Sequence[Sequence[Candidate]], vector: Sequence[int]) -> int:
    """How many concrete changes ``_realise`` gives, counted without building them: per class,
    the ways its cards' changes add up to its total (a count over partial sums)."""
    total = 1
    for group, d in zip(classes, vector, strict=True):
        if not d:
            continue
        ways = {0: 1}  # partial sum → ways; one direction, so |sum| never passes |d|
        for span in _spans(group, d):
            grown: dict[int, int] = {}
            for s, w in ways.items():
                for x in span:
                    if abs(s + x) <= abs(d):
                        grown[s + x] = grown.get(s + x, 0) + w
            ways = grown
        total *= ways.get(d, 0)
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
