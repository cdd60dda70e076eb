"""Background jobs (goldfish games, sweeps): stored in the database (``jobstore``), so any
process or host answers for them; run by the process that started them, in its worker pool,
or, with a Dask scheduler set, in a thread of this process that sends the chunks to the cluster
(the thread only waits: the games are played on the cluster's workers).

A cap on the jobs each process runs at once, cancellation from any process, and eviction of
ended jobs after a time to live."""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from deckcheck.errors import DeckcheckError
from deckcheck.i18n import DEFAULT, _, current, override
from deckcheck.service import jobstore
from deckcheck.service.jobstore import ENDED, JobRef, JobStore, Progress, view
from deckcheck.service.store import REQUEST_WAIT
from deckcheck.service.workers import Workers

# A job's work: called as fn(progress, *args) where it runs; returns plain JSON data.
Work = Callable[..., dict[str, Any]]
EVICT_EVERY = 10.0  # seconds: eviction is a write, not one per request
# A job's end that cannot be written (disk full, database locked) is tried again this many
# times, waiting FINISH_WAIT seconds, doubled each time; then the job is ended failed saying why
# (a smaller write), and failing that too, written by the heartbeat or the next cancel.
FINISH_TRIES = 5
FINISH_WAIT = 0.2


def run_job(ref: JobRef, lang: str, work: Work, *args: Any) -> dict[str, Any]:
    """Where the job runs (a worker process, or a thread): mark it running, unless a cancel
    came first, then work, and write the last progress whatever happens. Its text is in
    ``lang``, the language of the request that started it: a worker process or a job thread
    has a context of its own, so the language is passed, not inherited."""
    progress = Progress(ref)
    with override(lang):
        progress.start()
        try:
            return work(progress, *args)
        finally:
            with contextlib.suppress(SQLAlchemyError):
                progress.flush()


class Jobs:
    def __init__(
        self,
        store: JobStore,
        workers: Workers,
        max_running: int,
        ttl: float = 3600.0,
        scheduler: str | None = None,
        timeouts: tuple[float, float] = (10.0, 30.0),
    ) -> None:
        """``workers``: the job pool, not the one synchronous requests use; ``timeouts``: the
        Dask scheduler's (``JobRef.timeouts``)."""
        self.store, self.workers, self.max_running, self.ttl = store, workers, max_running, ttl
        self.scheduler, self.timeouts = scheduler, timeouts
        self.local: dict[str, Future[dict[str, Any]]] = {}  # the jobs this process runs
        self.lock = threading.Lock()
        self.threads: ThreadPoolExecutor | None = None  # with a scheduler: started on demand
        self.evicted = 0.0
        self.beating = False  # a heartbeat thread runs while this process has open jobs
        # ended here, their end not yet written: job id -> (language, status, error)
        self.unwritten: dict[str, tuple[str, str, str | None]] = {}

    def evict(self, now: float | None = None) -> None:
        """Forget jobs that ended more than ``ttl`` seconds (wall clock) ago."""
        self.evicted = time.monotonic()
        # housekeeping on a request's path: a database locked by another writer leaves the
        # ended jobs to the next eviction rather than fail the request
        with contextlib.suppress(SQLAlchemyError):
            self.store.evict(self.ttl, now)

    def _maybe_evict(self) -> None:
        if time.monotonic() - self.evicted >= EVICT_EVERY:
            self.evict()

    def start(
        self, total: int, work: Work, *args: Any, task: str = "goldfish"
    ) -> dict[str, Any] | None:
        """The new job's view; None when ``max_running`` jobs already run here; a 429
        ``Problem`` when the worker queue is full.

        The job writes its result and error in the current language (the starting request's)
        and keeps them so: ``GET /jobs/{id}`` with another ``Accept-Language`` returns the
        same text, and its ``language`` (and ``Content-Language``) says which it is."""
        self._maybe_evict()
        lang = current()
        with self.lock:
            if len(self.local) >= self.max_running:
                return None
            job_id = uuid.uuid4().hex
            self.store.create(job_id, task, total, lang)  # a failed write: 503, no job
            ref = JobRef(job_id, self.store.url, self.scheduler, self.timeouts)
            try:
                if self.scheduler:
                    if self.threads is None:
                        self.threads = ThreadPoolExecutor(self.max_running, "job")
                    future = self.threads.submit(run_job, ref, lang, work, *args)
                else:
                    future = self.workers.submit(run_job, ref, lang, work, *args)
            except BaseException:
                self.store.delete(job_id)
                raise
            self.local[job_id] = future
            self._keep_beating()
        started = self.store.get(job_id)
        future.add_done_callback(lambda f: self._ended(job_id, f, lang))
        assert started is not None
        return view(started)

    def _keep_beating(self) -> None:
        """Start the heartbeat thread unless it runs (call with ``self.lock`` held)."""
        if not self.beating:
            self.beating = True
            threading.Thread(target=self._beat, name="job-heartbeat", daemon=True).start()

    def _beat(self) -> None:
        """Tell other processes and hosts, every ``BEAT_EVERY`` seconds, that this process
        still runs its open jobs (``jobstore.lost``), and write the ends that could not be
        written yet; ends when it has neither."""
        while True:
            time.sleep(jobstore.BEAT_EVERY)
            with self.lock:
                open_here = list(self.local)
                unwritten = dict(self.unwritten)
                if not open_here and not unwritten:
                    self.beating = False
                    return
            with contextlib.suppress(SQLAlchemyError):  # the next beat may get through
                if open_here:
                    self.store.beat(open_here)
            for job_id, (lang, status, error) in unwritten.items():
                self._write_end(job_id, lang, status, error)

    def _write_end(self, job_id: str, lang: str, status: str, error: str | None) -> bool:
        """One more try at an end that could not be written; True once it is."""
        try:
            with override(lang):
                self.store.finish(job_id, status, None, error)
        except SQLAlchemyError:
            return False
        with self.lock:
            self.unwritten.pop(job_id, None)
        return True

    def _ended(self, job_id: str, future: Future[dict[str, Any]], lang: str) -> None:
        result, error = None, None
        if future.cancelled():
            status = "cancelled"
        elif (exc := future.exception()) is None:
            status, result = "done", future.result()
        elif isinstance(exc, KeyboardInterrupt):  # Cancelled, raised by a progress callback
            status = "cancelled"
        else:
            status, error = "failed", _failure(exc)
        with self.lock:  # freed first: whoever sees the job ended may start the next one
            self.local.pop(job_id, None)
        with override(lang):  # called in the pool's thread: the job's own language
            try:
                self.store.finish(job_id, status, result, error)
                return
            except SQLAlchemyError as exc:  # disk full, database locked: not in this thread
                first = exc
        threading.Thread(
            target=self._finish_later,
            args=(job_id, lang, status, result, error, first),
            name="job-end",
            daemon=True,
        ).start()

    def _finish_later(
        self,
        job_id: str,
        lang: str,
        status: str,
        result: dict[str, Any] | None,
        error: str | None,
        exc: SQLAlchemyError,
    ) -> None:
        """A job's end whose write failed: tried again, then written as a failure that says
        why (issue 37: a job whose end met a full disk stayed "running" for ever)."""
        with override(lang):
            for attempt in range(FINISH_TRIES):
                time.sleep(FINISH_WAIT * 2**attempt)
                try:
                    self.store.finish(job_id, status, result, error)
                    return
                except SQLAlchemyError as again:
                    exc = again
            reason = _(
                "the job's end could not be stored ({error}); it is ended as failed",
                error=_database_reason(exc),
            )
        with self.lock:
            self.unwritten[job_id] = (lang, "failed", reason)
        if not self._write_end(job_id, lang, "failed", reason):
            with self.lock:
                self._keep_beating()  # the heartbeat tries again, and so does a cancel

    def get(self, job_id: str) -> dict[str, Any] | None:
        """The job's status (its result has a URL of its own: ``result``)."""
        self._maybe_evict()
        row = self.store.get(job_id)
        return view(row) if row else None

    def result(self, job_id: str) -> str | None:
        """The done job's result, JSON text as stored."""
        return self.store.result(job_id)

    def cancel(self, job_id: str) -> dict[str, Any] | None:
        """Asks the job to stop, wherever it runs: its progress callback reads the flag. A job
        still waiting in this process's queue is dropped at once."""
        row = self.store.request_cancel(job_id)
        if row is None:
            return None
        with self.lock:
            future = self.local.get(job_id)
            unwritten = self.unwritten.get(job_id)
        if future is not None and future.cancel():
            row = self.store.get(job_id) or row
        elif future is None and row["status"] in jobstore.OPEN and row["owner"] == jobstore.owner():
            # nothing here runs it any more (its end was never written): the cancel ends it
            if unwritten is not None:
                self._write_end(job_id, *unwritten)
            with override(row["language"] or DEFAULT):
                self.store.finish(job_id, "cancelled", None, None, REQUEST_WAIT)
            with self.lock:
                self.unwritten.pop(job_id, None)
            row = self.store.get(job_id) or row
        return view(row)

    def wait(self, job_id: str, timeout: float) -> dict[str, Any] | None:
        """The job's view once it has ended (None: no such job, or still open at timeout)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.get(job_id)
            if found is None or found["status"] in ENDED:
                return found
            time.sleep(0.05)
        return None

    def close(self) -> None:
        """Like ``Workers.close``: a later job starts new threads."""
        with self.lock:
            threads, self.threads = self.threads, None
        if threads is not None:
            threads.shutdown(wait=False, cancel_futures=True)


def _database_reason(exc: SQLAlchemyError) -> str:
    """The database's own words (``database or disk is full``), without SQLAlchemy's SQL."""
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).splitlines()[0]


def _failure(exc: BaseException) -> str:
    """A failed job's error: a user's message as it is, a lost worker process said plainly,
    anything else with its type."""
    if isinstance(exc, DeckcheckError):
        return str(exc)
    if isinstance(exc, BrokenProcessPool):
        return _("a worker process stopped (killed, or out of memory) while it ran the job")
    return f"{type(exc).__name__}: {exc}"


__all__ = ["Jobs", "Work", "run_job"]
