"""Deck checks (``/validate``, ``/resolve``) in a thread pool of their own, never on the event
loop, with a concurrency limit: four clients posting decks of 499 misspelled names cut
``/validate`` from 1,561 to 42 requests/s and held ``/health`` for seconds when the checks ran on
the loop (issue 24, item 1). A check is short and bounded (``suggest``'s caps and budget), so
threads suffice: the loop gets the GIL back every switch interval. Past ``threads + queue``
checks in flight the answer is 429 with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from deckcheck.i18n import _
from deckcheck.service.problems import Problem

T = TypeVar("T")
THREADS = 2  # the machine's cores: more threads only share the GIL
QUEUE = 32
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


def checks_of(state: Any) -> Checks:
    """The app's ``Checks``, made on first use (``app.state.checks``)."""
    found: Checks | None = getattr(state, "checks", None)
    if found is None:
        with _LOCK:
            found = getattr(state, "checks", None)
            if found is None:
                found = Checks()
                state.checks = found
    return found
