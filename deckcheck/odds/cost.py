"""What an exact count will cost, known from its inputs before any counting (issue 24: every
request has a budget derived from its inputs, and past it the answer names the limit).

The exact engine (``exact``) works over every capped count vector of the groups the conditions
mention, so its size is the product of (cap + 1) over those groups: ten conditions on ten
different cards already make 4¹⁰ vectors, and sixteen groups asked for a 384 GiB array (a
``MemoryError``, exit 70). The figures here follow the engine's own loops:

- the largest array it builds: the vectors × the groups (Hall's check) or × the cards drawn;
- its work: Hall's check, the vectors × the groups for each set of demanding conditions (and
  each bound); each
  chance, the vectors × (cards drawn + 1)²; with a mulligan or a forced redraw, one chance for
  each opening hand the groups can make.

On the 2-core machine of docs/performance.md, 10¹⁰ of this work took about 8 s."""

from __future__ import annotations

import math
from dataclasses import dataclass

from deckcheck.i18n import _
from deckcheck.odds.errors import OddsError
from deckcheck.odds.exact import Problem
from deckcheck.odds.mulligan import Mulligan
from deckcheck.odds.timeline import Timeline

# The largest array an exact count may build, in numbers (8 bytes each: 400 MB). Past it the
# machine would run out of memory long before the count ended.
MAX_CELLS = 50_000_000


class OddsTooLarge(OddsError):
    """An exact count over a limit; ``limit`` is the limit it is over."""

    def __init__(self, message: str, limit: int) -> None:
        super().__init__(message)
        self.limit = limit

    def __reduce__(self) -> tuple[type[OddsTooLarge], tuple[str, int]]:
        """Pickled whole: raised in a service worker process, it comes back with its limit."""
        return (OddsTooLarge, (str(self), self.limit))


@dataclass(frozen=True)
class Cost:
    cells: int  # the largest array, in numbers
    work: int  # multiply-adds, roughly


def cost_of(problem: Problem, timeline: Timeline, mulligan: Mulligan, forced: bool) -> Cost:
    groups = problem.relevant()
    vectors = math.prod(problem.caps[g] + 1 for g in groups)
    width = max(timeline.seen) + mulligan.depth(timeline.hand) + 1  # cards drawn, and none
    demanding = sum(1 for c in problem.conditions if c.demand > 0)
    bounded = sum(1 for c in problem.conditions if c.bound is not None)
    hall = vectors * len(groups) * (2**demanding - 1 + bounded)
    chance = vectors * width * width
    hands = _hands(problem.sizes, problem.rest, timeline.hand) if mulligan.active or forced else 0
    return Cost(vectors * max(len(groups), width), hall + chance * (1 + hands))


def simulation_cost(problem: Problem, games: int, rows: int) -> Cost:
    """What a simulation of ``games`` hands over ``rows`` turns costs (``simulate``): each
    hand is dealt and tested at each row, over the groups and conditions, and each distinct
    count vector it meets (never more than the exact table's vectors) is tested once against
    each of Hall's sets. No exact table is built (issue 35)."""
    groups = problem.relevant()
    vectors = math.prod(problem.caps[g] + 1 for g in groups) if groups else 1
    demanding = sum(1 for c in problem.conditions if c.demand > 0)
    bounded = sum(1 for c in problem.conditions if c.bound is not None)
    sets = 2**demanding - 1 + bounded
    dealt = games * rows
    work = dealt * (len(problem.sizes) + 1 + len(problem.conditions)) + min(dealt, vectors) * sets
    return Cost(sets * max(len(groups), 1), work)


def _hands(sizes: tuple[int, ...], rest: int, hand: int) -> int:
    """How many per-group count vectors an opening hand can have (``tables.compositions``)."""
    ways = [1] + [0] * hand  # ways[s]: vectors of the groups so far holding s cards
    for n in sizes:
        ways = [sum(ways[s - k] for k in range(min(n, s) + 1)) for s in range(hand + 1)]
    return sum(w for s, w in enumerate(ways) if hand - s <= rest)


def check_cost(cost: Cost, max_work: int | None, simulated: bool = False) -> None:
    """An ``OddsTooLarge`` when ``cost`` is over ``MAX_CELLS`` or over ``max_work`` (the
    service's ``DECKCHECK_ODDS_WORK``; None: no limit on work, as on the command line).
    ``simulated``: the cost is a simulation's (``simulation_cost``), and the message says so."""
    if cost.cells > MAX_CELLS:
        cells, limit = f"{cost.cells:,}", f"{MAX_CELLS:,}"
        message = (
            _(
                "a simulation of these conditions needs a table of {cells} numbers for Hall's "
                "check, over the limit of {limit}; ask about fewer conditions",
                cells=cells,
                limit=limit,
            )
            if simulated
            else _(
                "an exact count of these conditions needs a table of {cells} numbers, over the "
                "limit of {limit}; ask about fewer cards or conditions, or for a simulation",
                cells=cells,
                limit=limit,
            )
        )
        raise OddsTooLarge(message, MAX_CELLS)
    if max_work is not None and cost.work > max_work:
        work, limit = f"{cost.work:,}", f"{max_work:,}"
        message = (
            _(
                "a simulation of these conditions is about {work} steps of work, over the "
                "limit of {limit} for an answer at once (DECKCHECK_ODDS_WORK); ask for fewer "
                "hands or about fewer conditions",
                work=work,
                limit=limit,
            )
            if simulated
            else _(
                "an exact count of these conditions is about {work} steps of work, over the "
                "limit of {limit} for an answer at once (DECKCHECK_ODDS_WORK); ask about fewer "
                "cards or conditions, or for a simulation",
                work=work,
                limit=limit,
            )
        )
        raise OddsTooLarge(message, max_work)
