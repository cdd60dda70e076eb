""""Did you mean" names for unknown cards, fast on a large pool and bounded in time per deck.

``difflib`` compared each unknown reference with every name in Python: with 20,000 cards, 500
near-miss lines took minutes. rapidfuzz scores in C and skips names that cannot reach the cutoff;
the list of names is built once per name table (the card index rebuilds its tables when the pool
changes). ``budget`` bounds the time one deck may spend on suggestions: past it, unknown cards are
still reported, only without suggestions.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from rapidfuzz import fuzz, process

LIMIT = 3
CUTOFF = 60.0  # difflib's 0.6: rapidfuzz's ratio is the same similarity, in percent
_CACHE_SIZE = 16  # name tables (a few per game and pool version)

_deadline: ContextVar[float | None] = ContextVar("suggest_deadline", default=None)
_choices: dict[int, tuple[dict[str, str], list[str]]] = {}


@contextmanager
def budget(seconds: float) -> Iterator[None]:
    """Within the block, suggestions stop once ``seconds`` have passed."""
    token = _deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)


def _keys(names: dict[str, str]) -> list[str]:
    # keyed by identity: the index hands out the same table until the pool changes
    hit = _choices.get(id(names))
    if hit is None or hit[0] is not names:
        if len(_choices) >= _CACHE_SIZE:
            _choices.clear()
        hit = _choices[id(names)] = (names, list(names))
    return hit[1]


def close_keys(key: str, names: dict[str, str]) -> list[str]:
    """Up to ``LIMIT`` keys of ``names`` most like ``key``, best first; none past the budget."""
    deadline = _deadline.get()
    if deadline is not None and time.monotonic() > deadline:
        return []
    found = process.extract(
        key, _keys(names), scorer=fuzz.ratio, limit=LIMIT, score_cutoff=CUTOFF
    )
    return [choice for choice, _, _ in found]
