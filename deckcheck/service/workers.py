"""CPU-heavy work (goldfish, Monte Carlo odds) in worker processes, never on the event loop.

Threads would hold the GIL that the request loop needs: two goldfish jobs pushed ``/validate``
p99 from 0.2 s to 11 s. Worker processes run at a lower priority (``nice``), so requests win
the CPU, and at most ``workers + queue`` tasks are in flight: past that the service answers 429
with ``Retry-After`` rather than let a backlog grow.

Background jobs report progress and read their cancel flag through the database
(``jobstore.Progress``), so that any process can answer for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

from deckcheck.i18n import _, current, override
from deckcheck.service.problems import Problem

T = TypeVar("T")
NICE = 10
RETRY_AFTER = 2  # seconds; a typical synchronous task is shorter

def _init() -> None:
    with contextlib.suppress(OSError):  # not allowed here: run at the normal priority
        os.nice(NICE)
    # A forked worker holds the write ends of its own pipes and the server's listening socket,
    # so it never sees the service end: it outlived even a clean shutdown and kept the port.
    threading.Thread(target=_exit_with, args=(os.getppid(),), daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)


def in_language(lang: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` writing its messages in ``lang`` (run in a worker process)."""
    with override(lang):
        return fn(*args)


class Workers:
    def __init__(self, workers: int, queue: int) -> None:
        self.capacity = workers + queue
        self.in_flight = 0
        self._lock = threading.Lock()
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        self._workers, self._context = workers, context
        self.pool: ProcessPoolExecutor | None = None  # started by the first task

    def submit(self, fn: Callable[..., T], *args: Any, extra: int = 0) -> Future[T]:
        """Queue ``fn(*args)`` in a worker; 429 with ``Retry-After`` when the queue is full.
        ``extra``: further places for this caller (API-key holders)."""
        with self._lock:
            if self.in_flight >= self.capacity + extra:
                raise Problem(
                    429,
                    "busy",  # i18n: machine
                    _(
                        "{n} heavy tasks are running or queued; try again shortly",
                        n=self.capacity,
                    ),
                    headers={"Retry-After": str(RETRY_AFTER)},
                )
            self.in_flight += 1
            if self.pool is None:
                self.pool = ProcessPoolExecutor(
                    max_workers=self._workers,
                    mp_context=self._context,
                    initializer=_init,
                )
            pool = self.pool
        # a worker process has its own context: the language goes along with the work
        future = pool.submit(in_language, current(), fn, *args)
        future.add_done_callback(self._done)
        return future

    def _done(self, _: Future[Any]) -> None:
        with self._lock:
            self.in_flight -= 1

    async def run(self, fn: Callable[..., T], *args: Any, extra: int = 0) -> T:
        """``fn(*args)`` in a worker, awaited without blocking the event loop."""
        return await asyncio.wrap_future(self.submit(fn, *args, extra=extra))

    def close(self) -> None:
        """End the worker processes; a later task starts new ones."""
        with self._lock:
            pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
