"""A memo bounded in bytes, not entries: a long-running service sees endless keys, and entries
of any size (issue 24, item 4: a unique 1 MB card reference a request grew the memory by
4.8 MB when the memos were bounded by their number of entries)."""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, Generic, ParamSpec, TypeVar

K = TypeVar("K")
V = TypeVar("V")
P = ParamSpec("P")

ENTRY = 120  # a dictionary slot, its tuple key and a small value object, about


def str_bytes(*parts: str) -> int:
    return sum(sys.getsizeof(p) for p in parts) + ENTRY


class ByteMemo(Generic[K, V]):
    """A dictionary whose entries' estimated size (``size(key, value)``) stays under
    ``max_bytes``: when the next entry would pass it, the memo starts again empty (the memos
    hold what is cheap to recompute, so forgetting all at once costs little and keeps ``get``
    as fast as a dictionary's)."""

    def __init__(self, max_bytes: int, size: Callable[[K, V], int]) -> None:
        self.max_bytes = max_bytes
        self._size = size
        self._data: dict[K, V] = {}
        self.nbytes = 0

    def get(self, key: K) -> V | None:
        return self._data.get(key)

    def put(self, key: K, value: V) -> V:
        size = self._size(key, value)
        if size > self.max_bytes:
            return value  # too large to keep at all
        if self.nbytes + size > self.max_bytes:
            self.clear()
        self._data[key] = value
        self.nbytes += size
        return value

    def clear(self) -> None:
        self._data.clear()
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)


class ByteCached(Generic[P, V]):
    """A function memoised in a ``ByteMemo`` keyed by its positional arguments: what
    ``functools.lru_cache`` does, bounded in bytes rather than entries (issue 37: 20 exact
    ``/odds`` grew the workers from 412 MB to 3.4 GB of cached NumPy tables, 3,600 hostile
    95 KB keywords by 700 MB of cached strings, never released)."""

    def __init__(self, fn: Callable[P, V], max_bytes: int, size: Callable[[Any, V], int]) -> None:
        self._fn = fn
        self.memo: ByteMemo[Any, V] = ByteMemo(max_bytes, size)
        self._lock = threading.Lock()
        functools.update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> V:
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        value = self._fn(*args, **kwargs)
        with self._lock:  # the byte count is read and written by each put
            return self.memo.put(key, value)

    def cache_clear(self) -> None:
        with self._lock:
            self.memo.clear()


def byte_cache(
    max_bytes: int, size: Callable[[Any, V], int]
) -> Callable[[Callable[P, V]], ByteCached[P, V]]:
    """Decorator: ``fn`` memoised in at most ``max_bytes`` (``size(args, value)`` estimates
    an entry)."""

    def wrap(fn: Callable[P, V]) -> ByteCached[P, V]:
        return ByteCached(fn, max_bytes, size)

    return wrap


def array_bytes(_args: Any, value: Any) -> int:
    """An entry holding a NumPy array under a key of a few numbers."""
    return int(value.nbytes) + ENTRY


def ints_bytes(args: tuple[tuple[int, ...], ...], value: tuple[int, ...]) -> int:
    """An entry holding a tuple of whole numbers under a key of such tuples (each number
    counted as an int object of its own: the small ones are shared, so this is an upper
    bound)."""
    return sum(sys.getsizeof(t) + 32 * len(t) for t in (*args, value)) + ENTRY


def strings_bytes(args: tuple[str, ...], value: str) -> int:
    """An entry holding a string under a key of strings."""
    return str_bytes(*args, value)
