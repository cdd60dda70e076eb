"""The bottom mulligan's keep (``kept_cards``): which cards of a hand a player keeps, the
rest going to the bottom. Used by the exact odds, the simulation and goldfish's pilots."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Protocol

from deckcheck.memo import byte_cache, ints_bytes


class Problem(Protocol):
    """What a keep depends on of ``exact.Problem``: each group's signature (bit c: it counts
    toward condition c) and each condition's demand."""

    @property
    def sigs(self) -> tuple[int, ...]: ...
    @property
    def demands(self) -> tuple[int, ...]: ...


def kept_cards(problem: Problem, k1: tuple[int, ...]) -> tuple[int, ...]:
    """The bottom mulligan's keep: the largest set of cards that can each fill a slot
    of a ``>=``/``==`` condition (at most its K), preferring cards that fit more conditions;
    everything else goes to the bottom."""
    sigs, demands = problem.sigs, problem.demands
    # A group keeps at most the slots of the conditions it counts toward (Hall's condition for
    # the group alone), so hands past that share one keep: memoised once (the cold exact
    # benchmark's 52 opening hands have 11 keeps between them: issue 35).
    capped = tuple(min(k, s) for k, s in zip(k1, _group_slots(sigs, demands), strict=False))
    return _kept(sigs, demands, capped)


# The keeps are memoised by what they depend on, small tuples of counts, in bytes: the memo
# was an lru_cache of 65,536 entries keyed by the ``Problem``, which kept every question's
# conditions (their text, up to a request's size) alive while any of its keeps was cached.
KEEP_BYTES = 8 << 20


@byte_cache(KEEP_BYTES, ints_bytes)
def _kept(sigs: tuple[int, ...], demands: tuple[int, ...], k1: tuple[int, ...]) -> tuple[int, ...]:
    width = (1 << len(demands)) - 1
    fits = [bin(sig & width).count("1") for sig in sigs[: len(k1)]]
    # ``k1`` comes capped at each group's slots (``kept_cards``): the keeps past them can never
    # be assigned, so they are not ranked.
    candidates = sorted(
        (
            (sum(kv), sum(k * f for k, f in zip(kv, fits, strict=True)), kv)
            for kv in itertools.product(*(range(c + 1) for c in k1))
        ),
        reverse=True,
    )
    # the best keep is the first that can be assigned; the empty keep always can
    return next(kv for _size, _fit, kv in candidates if _assignable(sigs, demands, kv))


@byte_cache(KEEP_BYTES, ints_bytes)
def _group_slots(sigs: tuple[int, ...], demands: tuple[int, ...]) -> tuple[int, ...]:
    """Each group's slots (``_slots``): asked for every hand of a question."""
    return tuple(_slots(sig, demands) for sig in sigs)


def _slots(reach: int, demands: Sequence[int]) -> int:
    """The slots of the conditions whose bits are set in ``reach``."""
    return sum(d for i, d in enumerate(demands) if reach >> i & 1)


def _assignable(sigs: Sequence[int], demands: Sequence[int], kv: Sequence[int]) -> bool:
    """Each of these cards can take its own slot (Hall's condition from the cards' side)."""
    live = [g for g, k in enumerate(kv) if k]
    for r in range(1, len(live) + 1):
        for subset in itertools.combinations(live, r):
            reach = 0
            for g in subset:
                reach |= sigs[g]
            if sum(kv[g] for g in subset) > _slots(reach, demands):
                return False
    return True


def clear_cache() -> None:
    """Forget the memoised keeps (``exact.clear_caches``)."""
    _kept.cache_clear()
    _group_slots.cache_clear()
