"""Deck checks (``/validate``, ``/resolve``) in a thread pool of their own, never on the event
loop, with a concurrency limit: four clients posting decks of 499 misspelled names cut
``/validate`` from 1,561 to 42 requests/s and held ``/health`` for seconds when the checks ran on
the loop (issue 24, item 1). A check is short and bounded (``suggest``'s caps and budget), so
threads suffice: the loop gets the GIL back every switch interval. Past ``threads + queue``
checks in flight the answer is 429 with ``Retry-After``.

Costly decks (``check_work`` over ``HEAVY_WORK``: a deck of 499 unknown names reports 499
violations, however short the names) have a lane of their own, one process and a short queue,
so they never queue ahead of ordinary decks and never hold the interpreter the event loop
needs: in a thread of the service, four clients posting such decks still cost ``/health`` a
p99 of 63–67 ms (goal 50 ms). The check process is forked when the service starts, after the
card index and its name indexes are built, so it inherits them; it runs at ``nice`` 10, so the
service's own process wins the CPU; its card cache reloads itself when the pool file changes. A
pool in PostgreSQL (``DECKCHECK_DATABASE_URL``: its connections must not cross a fork) and
``DECKCHECK_CHECK_PROCESSES=0`` keep the lane in one thread.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from deckcheck import suggest
from deckcheck.i18n import _
from deckcheck.service.problems import Problem
from deckcheck.service.workers import Workers

T = TypeVar("T")
THREADS = 2  # the machine's cores: more threads only share the GIL
QUEUE = 32
# A check's work, in characters' worth, known before parsing: the text (parsed once), each line
# (resolved, and reported when unknown: 499 near-miss names of 5 characters were 2,770
# characters but the work of 17,000; issue 37) and each name that may get suggestions (scored
# against up to ``suggest.CANDIDATES`` names, in proportion to its length).
LINE_COST = 30
SUGGEST_COST = 2
HEAVY_WORK = 8_000  # about 100 lines of an ordinary deck; more takes the heavy lane
HEAVY_QUEUE = 3
RETRY_AFTER = 1


class Checks:
    """A lane of threads."""

    def __init__(self, threads: int = THREADS, queue: int = QUEUE) -> None:
        self.size = threads
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


# What the check process inherits when it is forked: the service's cards and formats.
_SERVICE: dict[str, Any] = {}


def _inherited(fn: Callable[[Any, Any, Any], T], body: Any) -> T:
    """In the check process: ``fn`` on the cards and formats it was forked with (the cards'
    cache reloads when the pool changed since)."""
    return fn(body, _SERVICE["registry"], _SERVICE["cards"].cache.index())


class ProcessChecks:
    """A lane of one worker process (``Workers``: 429 past its queue, replaced when it dies, a
    deadline in seconds like the other synchronous work)."""

    def __init__(self, cards: Any, registry: Any, queue: int, deadline: float | None) -> None:
        _SERVICE.update(cards=cards, registry=registry)  # before the fork, so it is inherited
        self.workers = Workers(1, queue, name="checks")  # i18n: machine
        self.deadline = deadline

    def start(self) -> None:
        """Fork the process now (while no other thread of the service runs)."""
        self.workers.submit(os.getpid).result()

    async def run(self, fn: Callable[..., T], body: Any, *_local: Any) -> T:
        """``fn(body, registry, index)`` in the process, on its own copies of the two."""
        return await self.workers.run(_inherited, fn, body, deadline=self.deadline)

    def close(self) -> None:
        self.workers.close()


_LOCK = threading.Lock()
Lane = Checks | ProcessChecks


def lanes_of(state: Any) -> tuple[Lane, Lane]:
    """The app's lanes (``app.state.check_lanes``): ordinary decks, long decks. Made on first
    use, or when the service starts (``start_lanes``)."""
    lanes: tuple[Lane, Lane] | None = getattr(state, "check_lanes", None)
    if lanes is None:
        with _LOCK:
            lanes = getattr(state, "check_lanes", None)
            if lanes is None:
                settings = state.settings
                heavy: Lane = Checks(1, HEAVY_QUEUE)
                if settings.check_processes and not settings.database_url:
                    heavy = ProcessChecks(
                        state.cards, state.registry, HEAVY_QUEUE, settings.sync_seconds
                    )
                lanes = (Checks(), heavy)
                state.check_lanes = lanes
    return lanes


def start_lanes(state: Any) -> None:
    """At start-up, once the card index is built: fork the long decks' process now, so it
    inherits the index rather than building its own in the first long deck's request."""
    heavy = lanes_of(state)[1]
    if isinstance(heavy, ProcessChecks):
        heavy.start()


def close_lanes(state: Any) -> None:
    """End the lanes with the service; an app started again makes new ones."""
    with _LOCK:
        lanes, state.check_lanes = getattr(state, "check_lanes", None), None
    for lane in lanes or ():
        lane.close()


def check_work(deck: str | dict[str, Any], names: int = suggest.NAMES) -> int:
    """A deck check's work (``LINE_COST``, ``SUGGEST_COST``), estimated from the text alone,
    without parsing it (cheap enough for the event loop): characters, lines, and the lengths
    of the first ``names`` lines, whose names may get suggestions."""
    if isinstance(deck, str):
        text, lines = deck, deck.count("\n") + 1
    else:  # the JSON form: each entry is a few comma-separated fields (counted high)
        text = json.dumps(deck, ensure_ascii=False)
        lines = text.count(",") + 1
    named = sum(len(line) for line in text.split("\n", names)[:names]) if names else 0
    return len(text) + LINE_COST * lines + SUGGEST_COST * named


def checks_of(state: Any, deck: str | dict[str, Any], names: int = suggest.NAMES) -> Lane:
    """The app's lane for ``deck`` whose first ``names`` unknown names get suggestions: by the
    work its check costs, not its characters."""
    return lanes_of(state)[check_work(deck, names) > HEAVY_WORK]
