"""CPU-heavy work (goldfish, Monte Carlo odds) in worker processes, never on the event loop.

Threads would hold the GIL that the request loop needs: two goldfish jobs pushed ``/validate``
p99 from 0.2 s to 11 s. Worker processes run at a lower priority (``nice``), so requests win
the CPU, and at most ``workers + queue`` tasks are in flight: past that the service answers 429
with ``Retry-After`` rather than let a backlog grow.

The service keeps two pools (issue 24, item 2): one for synchronous requests and one for
background jobs, whose processes run at a lower priority still, so a running job never holds a
place ``/odds`` waits for. A pool whose process died (killed, out of memory) is broken for
good in ``concurrent.futures``: it is replaced by a new one (item 3), and the in-flight count is
released whatever happens to a task.

Background jobs report progress and read their cancel flag through the database
(``jobstore.Progress``), so that any process can answer for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from deckcheck.forking import drop_inherited_sockets, shared_on_fork
from deckcheck.i18n import _, current, override
from deckcheck.service.problems import Problem

T = TypeVar("T")
NICE = 10
JOB_NICE = 19  # background jobs yield the CPU to the request pool's work
RETRY_AFTER = 2  # seconds; a typical synchronous task is shorter


# Which tasks a worker has begun: the pool's shared array, slot ``token % STARTED_SLOTS``
# holding the token of the last task begun there (far fewer tasks are in flight than slots).
STARTED_SLOTS = 4096
_started: Any = None  # in a worker process: its pool's array


def _init(nice: int, started: Any, service: int) -> None:
    """A worker's start: ``service`` is the pid of the process that made the pool, given by
    that process itself."""
    global _started
    _started = started
    drop_inherited_sockets()
    with contextlib.suppress(OSError):  # not allowed here: run at the normal priority
        os.nice(nice)
    # A forked worker holds the write ends of its own pipes, so it never sees the service end
    # by them: it outlived even a clean shutdown. The service's pid comes from the service:
    # one that ended between forking a worker and the worker's start left a worker that took
    # init for its parent, waited for that to change, and stayed (a loaded suite run,
    # 2026-12-03: tests/test_service_workers.py waited on it).
    threading.Thread(target=_exit_with, args=(service,), daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)


class OverDeadline(Exception):
    """A synchronous task ran past its deadline (raised in the worker by a timer)."""


def _alarm(_signum: int, _frame: Any) -> None:
    raise OverDeadline


@contextlib.contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """Raise ``OverDeadline`` in this (worker) process's main thread after ``seconds``. Compiled
    code is not interrupted: the exception comes when it returns, between goldfish chunks."""
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _begin(token: int, lang: str, deadline: float | None, fn: Callable[..., T], *args: Any) -> T:
    """In a worker: mark task ``token`` begun, then run it (``in_language``)."""
    if _started is not None:
        _started[token % STARTED_SLOTS] = token
    return in_language(lang, deadline, fn, *args)


def in_language(lang: str, deadline: float | None, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` writing its messages in ``lang``, stopped after ``deadline`` seconds (run
    in a worker process)."""
    with override(lang), _deadline(deadline):
        return fn(*args)


def is_broken(pool: ProcessPoolExecutor) -> bool:
    """Whether a process of ``pool`` died: then every later submit fails. ``_broken`` is the
    flag CPython's executor sets itself (3.8 and later); there is no public accessor."""
    return bool(getattr(pool, "_broken", False))


class Workers:
    def __init__(self, workers: int, queue: int, nice: int = NICE, name: str = "requests") -> None:
        self.capacity = workers + queue
        self.in_flight = 0
        self.name = name  # i18n: machine
        self._lock = threading.Lock()
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        self._workers, self._context, self._nice = workers, context, nice
        self.pool: ProcessPoolExecutor | None = None  # started by the first task
        self.replaced = 0  # broken pools replaced so far
        # shared with every worker this object's pools start (passed at their start)
        self._started = context.RawArray("q", STARTED_SLOTS)
        self._tokens = itertools.count(1)
        self._token_of: weakref.WeakKeyDictionary[Future[Any], int] = weakref.WeakKeyDictionary()

    def submit(
        self, fn: Callable[..., T], *args: Any, extra: int = 0, deadline: float | None = None
    ) -> Future[T]:
        """Queue ``fn(*args)`` in a worker; 429 with ``Retry-After`` when the queue is full.
        ``extra``: further places for this caller (API-key holders); ``deadline``: seconds
        after which the task raises ``OverDeadline``."""
        self._reserve(extra)
        token = next(self._tokens)
        try:
            # a worker process has its own context: the language goes along with the work
            future = self._submit(_begin, token, current(), deadline, fn, *args)
        except BaseException:
            self._release()
            raise
        self._token_of[future] = token
        future.add_done_callback(self._done)
        return future

    def began(self, future: Future[Any]) -> bool:
        """Whether a worker had begun ``future``'s task (so a death under it may be its own
        doing); False for a task still waiting in the queue."""
        token = self._token_of.get(future)
        return token is not None and self._started[token % STARTED_SLOTS] == token

    def _reserve(self, extra: int) -> None:
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

    def _release(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Submit to the current pool; a pool found broken is replaced and the task goes to
        the new one."""
        pool = self._pool()
        try:
            return pool.submit(fn, *args)
        except BrokenProcessPool:
            self._replace(pool)
            return self._pool().submit(fn, *args)

    def start(self) -> None:
        """Fork the worker processes now: at start-up, before the service runs other threads.

        A process forked while another thread held a lock keeps it held, by a thread it does
        not have. The pool used to start on the first heavy request, while the server's other
        threads answered requests and imported modules on first use: a worker forked during
        such an import waited for the module's lock forever, and every task sent to it stayed
        queued (issue 38: all 12 jobs of one ``serve`` worker, 600 s;
        tests/test_fork_locks.py). Forking all of them (the pool forks every process at its
        first task) when nothing else runs leaves no lock to inherit."""
        self._pool()

    def _pool(self) -> ProcessPoolExecutor:
        """The current pool; a new one forks its processes here, at once (a pool forks every
        process at its first task), sharing this process's objects with them
        (forking.shared_on_fork). Only there: each freeze and thaw moves every object to the
        oldest generation, which the collector seldom visits, and doing it at every request
        let the service grow by 500 MB under 500 requests (tests/test_service_memory.py)."""
        with self._lock:
            if self.pool is None:
                pool = ProcessPoolExecutor(
                    max_workers=self._workers,
                    mp_context=self._context,
                    initializer=_init,
                    initargs=(self._nice, self._started, os.getpid()),
                )
                with shared_on_fork():
                    pool.submit(os.getpid)
                self.pool = pool
            return self.pool

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        """Drop ``pool`` if it is still the current one; the next task starts a new one."""
        with self._lock:
            if self.pool is not pool:
                return  # another thread replaced it first
            self.pool = None
            self.replaced += 1
        pool.shutdown(wait=False, cancel_futures=True)

    def _done(self, future: Future[Any]) -> None:
        self._release()
        if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
            pool = self.pool
            if pool is not None and is_broken(pool):
                self._replace(pool)

    def processes(self) -> list[int]:
        """The process ids of the pool's workers (none before it starts). ``_processes`` is
        the executor's own table; there is no public accessor."""
        pool = self.pool
        return sorted(getattr(pool, "_processes", None) or {}) if pool is not None else []

    @property
    def size(self) -> int:
        """Processes the pool runs (the rest of ``capacity`` is its queue)."""
        return self._workers

    def check(self) -> bool:
        """True when the pool was found broken (it is replaced now); for ``/health``."""
        pool = self.pool
        if pool is None or not is_broken(pool):
            return False
        self._replace(pool)
        return True

    async def run(
        self, fn: Callable[..., T], *args: Any, extra: int = 0, deadline: float | None = None
    ) -> T:
        """``fn(*args)`` in a worker, awaited without blocking the event loop. A worker that
        dies under the task is a 503 (the pool is replaced for the next request); a task
        over its deadline is a 422 naming it."""
        try:
            return await self._run(fn, *args, extra=extra, deadline=deadline)
        except BrokenProcessPool as exc:
            raise Problem(
                503,
                "worker-lost",  # i18n: machine
                _("a worker process stopped while it worked on this request; try again"),
                headers={"Retry-After": str(RETRY_AFTER)},
            ) from exc
        except OverDeadline as exc:
            raise Problem(
                422,
                "over-deadline",  # i18n: machine
                _(
                    "the request took longer than the limit of {n} s (DECKCHECK_SYNC_SECONDS); "
                    "ask for less work, or start a job",
                    n=deadline,
                ),
                limit=deadline,
            ) from exc

    async def _run(self, fn: Callable[..., T], *args: Any, extra: int, deadline: float | None) -> T:
        """Once more on a new pool when the task's pool broke while the task still waited in
        the queue: a request then paid for another's death. A task a worker had begun is not
        run again: its own work may have killed the worker (issue 37: a runaway task was
        resubmitted to the new pool after its worker was killed)."""
        future = self.submit(fn, *args, extra=extra, deadline=deadline)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            if self.began(future):
                raise
            return await asyncio.wrap_future(self.submit(fn, *args, extra=extra, deadline=deadline))

    def close(self) -> None:
        """End the worker processes; a later task starts new ones."""
        with self._lock:
            pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
