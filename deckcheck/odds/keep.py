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
    return _kept(problem.sigs, problem.demands, k1)


# The keeps are memoised by what they depend on, small tuples of counts, in bytes: the memo
# was an lru_cache of 65,536 entries keyed by the ``Problem``, which kept every question's
# conditions (their text, up to a request's size) alive while any of its keeps was cached.
KEEP_BYTES = 8 << 20


@byte_cache(KEEP_BYTES, ints_bytes)
def _kept(sigs: tuple[int, ...], demands: tuple[int, ...], k1: tuple[int, ...]) -> tuple[int, ...]:
    width = (1 << len(demands)) - 1
    fits = [bin(sigs[g] & width).count("1") for g in range(len(k1))]
    candidates = sorted(
        itertools.product(*(range(k + 1) for k in k1)),
        key=lambda kv: (sum(kv), sum(k * f for k, f in zip(kv, fits, strict=True)), kv),
        reverse=True,
    )
    # the best keep is the first that can be assigned; the empty keep always can
    return next(kv for kv in candidates if _assignable(sigs, demands, kv))


def _assignable(sigs: Sequence[int], demands: Sequence[int], kv: Sequence[int]) -> bool:
    """Each of these cards can take its own slot (Hall's condition from the cards' side)."""
    live = [g for g, k in enumerate(kv) if k]
    for r in range(1, len(live) + 1):
        for subset in itertools.combinations(live, r):
            reach = 0
            for g in subset:
                reach |= sigs[g]
            slots = sum(d for i, d in enumerate(demands) if reach >> i & 1)
            if sum(kv[g] for g in subset) > slots:
                return False
    return True


def clear_cache() -> None:
    """Forget the memoised keeps (``exact.clear_caches``)."""
    _kept.cache_clear()
