"""Deck checks (``/validate``, ``/resolve``) in a thread pool of their own, never on the event
loop, with a concurrency limit: four clients posting decks of 499 misspelled names cut
``/validate`` from 1,561 to 42 requests/s and held ``/health`` for seconds when the checks ran on
the loop (issue 24, item 1). A check is short and bounded (``suggest``'s caps and budget), so
threads suffice: the loop gets the GIL back every switch interval. Past ``threads + queue``
checks in flight the answer is 429 with ``Retry-After``.

Long decks (``HEAVY_CHARS``; a deck of 499 unknown names reports 499 violations) have a lane of
their own, one thread and a short queue, so they never queue ahead of ordinary decks nor take
more than one thread's share of the interpreter (deckcheck's reading of "cannot stall").
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from deckcheck.i18n import _
from deckcheck.service.problems import Problem

T = TypeVar("T")
THREADS = 2  # the machine's cores: more threads only share the GIL
QUEUE = 32
HEAVY_CHARS = 4_000  # a deck text longer than this (about 100 lines) takes the heavy lane
HEAVY_QUEUE = 3
RETRY_AFTER = 1


class Checks:
    def __init__(self, threads: int = THREADS, queue: int = QUEUE) -> None:
        self.capacity = threads + queue
        self.in_flight = 0
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="deckcheck-check")

    def _enter(self) -> None:
        with self._lock:
            if self.in_flight >= self.capacity:
                raise Problem(
                    429,
                    "busy",  # i18n: machine
                    _("{n} deck checks are running or queued; try again shortly", n=self.capacity),
                    headers={"Retry-After": str(RETRY_AFTER)},
                )
            self.in_flight += 1

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool, with the request's context (its language). The place is
        released when the check ends, not when the client stops waiting for it."""
        self._enter()
        try:
            future = self._pool.submit(contextvars.copy_context().run, fn, *args)
        except BaseException:
            self._leave()
            raise
        future.add_done_callback(lambda _: self._leave())
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


_LOCK = threading.Lock()


def checks_of(state: Any, deck: str | dict[str, Any]) -> Checks:
    """The app's lane for ``deck`` (``app.state.check_lanes``), made on first use."""
    lanes: tuple[Checks, Checks] | None = getattr(state, "check_lanes", None)
    if lanes is None:
        with _LOCK:
            lanes = getattr(state, "check_lanes", None)
            if lanes is None:
                lanes = (Checks(), Checks(1, HEAVY_QUEUE))
                state.check_lanes = lanes
    size = len(deck) if isinstance(deck, str) else len(json.dumps(deck, ensure_ascii=False))
    return lanes[size > HEAVY_CHARS]
