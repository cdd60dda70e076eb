"""A memo bounded in bytes, not entries: a long-running service sees endless keys, and entries
of any size (issue 24, item 4: a unique 1 MB card reference a request grew the memory by
4.8 MB when the memos were bounded by their number of entries)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

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
