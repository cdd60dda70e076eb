"""CPU-heavy work (goldfish, Monte Carlo odds) in worker processes, never on the event loop.

Threads would hold the GIL that the request loop needs: two goldfish jobs pushed ``/validate``
p99 from 0.2 s to 11 s. Worker processes run at a lower priority (``nice``), so requests win
the CPU, and at most ``workers + queue`` tasks are in flight: past that the service answers 429
with ``Retry-After`` rather than let a backlog grow.

Background jobs report progress and read their cancel flag through a small shared array (one
slot per job), created before the workers fork.
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

from deckcheck.service.problems import Problem

T = TypeVar("T")
NICE = 10
RETRY_AFTER = 2  # seconds; a typical synchronous task is shorter

_slots: Any = None  # the shared array, in a worker: [games done, cancel] per slot


class Cancelled(KeyboardInterrupt):
    """Raised inside a job's progress callback; the simulator stops as on Ctrl-C."""


def _init(slots: Any) -> None:
    global _slots
    _slots = slots
    with contextlib.suppress(OSError):  # not allowed here: run at the normal priority
        os.nice(NICE)
    # A forked worker holds the write ends of its own pipes and the server's listening socket,
    # so it never sees the service end: it outlived even a clean shutdown and kept the port.
    threading.Thread(target=_exit_with, args=(os.getppid(),), daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)


def progress_for(slot: int) -> Callable[[int], None]:
    """In a worker: count ``n`` games done for ``slot`` and stop if the job was cancelled."""

    def progress(n: int) -> None:
        _slots[2 * slot] += n
        if _slots[2 * slot + 1]:
            raise Cancelled

    return progress


class Workers:
    def __init__(self, workers: int, queue: int, slots: int) -> None:
        self.capacity = workers + queue
        self.in_flight = 0
        self._lock = threading.Lock()
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        # lock=False: each slot has one writer (its worker) and the parent only reads it
        self.slots = context.Array("q", 2 * max(1, slots), lock=False)
        self._workers, self._context = workers, context
        self.pool: ProcessPoolExecutor | None = None  # started by the first task

    def submit(self, fn: Callable[..., T], *args: Any, extra: int = 0) -> Future[T]:
        """Queue ``fn(*args)`` in a worker; 429 with ``Retry-After`` when the queue is full.
        ``extra``: further places for this caller (API-key holders)."""
        with self._lock:
            if self.in_flight >= self.capacity + extra:
                raise Problem(
                    429,
                    "busy",
                    f"{self.capacity} heavy tasks are running or queued; try again shortly",
                    headers={"Retry-After": str(RETRY_AFTER)},
                )
            self.in_flight += 1
            if self.pool is None:
                self.pool = ProcessPoolExecutor(
                    max_workers=self._workers,
                    mp_context=self._context,
                    initializer=_init,
                    initargs=(self.slots,),
                )
            pool = self.pool
        future = pool.submit(fn, *args)
        future.add_done_callback(self._done)
        return future

    def _done(self, _: Future[Any]) -> None:
        with self._lock:
            self.in_flight -= 1

    async def run(self, fn: Callable[..., T], *args: Any, extra: int = 0) -> T:
        """``fn(*args)`` in a worker, awaited without blocking the event loop."""
        return await asyncio.wrap_future(self.submit(fn, *args, extra=extra))

    def reset_slot(self, slot: int) -> None:
        self.slots[2 * slot] = self.slots[2 * slot + 1] = 0

    def done(self, slot: int) -> int:
        return int(self.slots[2 * slot])

    def cancel(self, slot: int) -> None:
        self.slots[2 * slot + 1] = 1

    def close(self) -> None:
        """End the worker processes; a later task starts new ones."""
        with self._lock:
            pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
