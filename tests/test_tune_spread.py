"""The tune's concrete changes of one class-level change (``tune/exact.py``): the walk with a
stack gives the ways the plain recursion gave, in its order (the search takes the first legal
one, and ties go to the enumeration's order), and the count over partial sums is how many there
are. Until issue 35 the recursion walked every branch, 7 CPU-s of a ``--from type:character``
tune; a class of a thousand cards passed Python's recursion limit."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.models import Card
from deckcheck.tune.exact import _count, _realise, _spread
from deckcheck.tune.space import Candidate


def plain_spread(group: Sequence[Candidate], total: int) -> Iterator[tuple[int, ...]]:
    """The recursion as it was: each card's copies, most first, every branch walked."""
    lows = [c.low - c.count for c in group]
    highs = [c.high - c.count for c in group]

    def go(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == len(group):
            if left == 0:
                yield ()
            return
        span = range(max(lows[i], 0), highs[i] + 1) if total > 0 else range(0, lows[i] - 1, -1)
        for d in sorted(span, key=lambda d: -abs(d)):
            rest = left - d
            if sum(lows[i + 1 :]) <= rest <= sum(highs[i + 1 :]):
                for tail in go(i + 1, rest):
                    yield (d, *tail)

    yield from go(0, total)


def candidate(i: int, count: int, low: int, high: int) -> Candidate:
    card = Card(game="vision", number=f"T-{i:03d}", name=f"card {i}", type="character")
    return Candidate(card, count, low, high)


# a card: its copies now, then how far below and above them it may go
cards = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=6
)


@settings(max_examples=300, deadline=None)
@given(cards, st.integers(-6, 6))
def test_the_walk_gives_the_recursions_ways_in_its_order(spec, total) -> None:  # type: ignore[no-untyped-def]
    group = [candidate(i, n, max(n - down, 0), n + up) for i, (n, down, up) in enumerate(spec)]
    if total == 0:
        return  # a class with no change is never spread
    ways = list(_spread(group, total))
    assert ways == list(plain_spread(group, total))
    assert _count([group], [total]) == len(ways)


def test_a_class_of_a_thousand_cards_spreads_and_counts() -> None:
    group = [candidate(i, 0, 0, 3) for i in range(1_000)]
    first = next(_spread(group, 2))
    assert first[:2] == (2, 0) and sum(first) == 2  # the first card's most copies first
    assert _count([group], [2]) == 1_000 + 1_000 * 999 // 2  # two of one, or one each of two
    changes = list(zip(range(5), _realise([group], [2]), strict=False))
    assert [c for _i, c in changes][:2] == [(("T-000", 2),), (("T-000", 1), ("T-001", 1))]
