"""The bottom mulligan's keep (``odds.keep``) is the rule's: of every keep of the hand's cards,
ranked by size, then by the conditions its cards fit, then by the counts themselves, the first
whose cards can each take a slot of a condition of their own (Hall's condition). The rule is
written out here over every keep, unpruned, and the product's keep must equal it."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from deckcheck.odds import keep


def _by_the_rule(
    sigs: tuple[int, ...], demands: tuple[int, ...], k1: tuple[int, ...]
) -> tuple[int, ...]:
    def slots(reach: int) -> int:
        return sum(d for i, d in enumerate(demands) if reach >> i & 1)

    def assignable(kv: tuple[int, ...]) -> bool:
        for r in range(1, len(kv) + 1):
            for subset in itertools.combinations(range(len(kv)), r):
                reach = 0
                for g in subset:
                    reach |= sigs[g]
                if sum(kv[g] for g in subset) > slots(reach):
                    return False
        return True

    width = (1 << len(demands)) - 1
    fits = [bin(sigs[g] & width).count("1") for g in range(len(k1))]

    def rank(kv: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
        return sum(kv), sum(k * f for k, f in zip(kv, fits, strict=True)), kv

    every = itertools.product(*(range(k + 1) for k in k1))
    return max((kv for kv in every if assignable(kv)), key=rank)


@st.composite
def hands(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    conditions = draw(st.integers(1, 3))
    groups = draw(st.integers(1, 4))
    # a group's bits: the conditions it counts toward, and the bit past them (the forced card)
    sigs = tuple(draw(st.integers(0, (2 << conditions) - 1)) for _ in range(groups))
    demands = tuple(draw(st.integers(0, 3)) for _ in range(conditions))
    k1 = tuple(draw(st.integers(0, 4)) for _ in range(groups))
    return sigs, demands, k1


@given(hands())
def test_the_keep_is_the_rules_best_assignable_keep(
    hand: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]],
) -> None:
    sigs, demands, k1 = hand
    keep.clear_cache()
    problem = SimpleNamespace(sigs=sigs, demands=demands)
    assert keep.kept_cards(problem, k1) == _by_the_rule(sigs, demands, k1)
