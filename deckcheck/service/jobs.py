"""Background goldfish jobs: run in the worker processes (``workers``), a cap on running jobs,
cancellation, and eviction of ended jobs after a time to live."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from deckcheck.service.workers import Workers

# A job's work: called in a worker as fn(slot, *args); the slot carries progress and cancel.
Work = Callable[..., dict[str, Any]]


@dataclass
class Job:
    id: str
    total: int
    slot: int
    workers: Workers
    future: Future[dict[str, Any]] | None = None
    cancelled: bool = False
    done: int = 0  # games done, kept once the job ends (its slot is reused)
    ended_at: float | None = None
    finished: threading.Event = field(default_factory=threading.Event)  # set once it has ended

    @property
    def status(self) -> str:  # queued, running, done, failed, cancelled
        future = self.future
        if future is None or not future.done():
            started = future is not None and (future.running() or self.workers.done(self.slot))
            return "running" if started else "queued"
        if future.cancelled() or self.cancelled:
            return "cancelled"
        return "failed" if future.exception() is not None else "done"

    def view(self) -> dict[str, Any]:
        future, result, error = self.future, None, None
        if future is not None and future.done() and not future.cancelled():
            exc = future.exception()
            if exc is None:
                result = future.result()
            else:
                error = f"{type(exc).__name__}: {exc}"
        running = self.ended_at is None
        return {
            "id": self.id,
            "status": self.status,
            "games_done": self.workers.done(self.slot) if running else self.done,
            "games": self.total,
            "result": result,
            "error": error,
        }


class Jobs:
    def __init__(self, workers: Workers, max_running: int, ttl: float = 3600.0) -> None:
        self.workers, self.max_running, self.ttl = workers, max_running, ttl
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.free = list(range(max_running))  # progress slots of the shared array

    def running(self) -> int:
        return sum(j.ended_at is None for j in self.jobs.values())

    def evict(self, now: float | None = None) -> None:
        """Forget jobs that ended more than ``ttl`` seconds ago."""
        now = time.monotonic() if now is None else now
        with self.lock:
            for job_id in [
                k
                for k, j in self.jobs.items()
                if j.ended_at is not None and now - j.ended_at > self.ttl
            ]:
                del self.jobs[job_id]

    def start(self, total: int, work: Work, *args: Any) -> Job | None:
        """None when ``max_running`` jobs are already queued or running; a 429 ``Problem``
        when the worker queue is full."""
        self.evict()
        with self.lock:
            if self.running() >= self.max_running or not self.free:
                return None
            job = Job(uuid.uuid4().hex, total, self.free.pop(), self.workers)
            self.workers.reset_slot(job.slot)
            try:
                job.future = self.workers.submit(work, job.slot, *args)
            except BaseException:
                self.free.append(job.slot)
                raise
            self.jobs[job.id] = job
        job.future.add_done_callback(lambda _: self._ended(job))
        return job

    def _ended(self, job: Job) -> None:
        with self.lock:
            job.done = self.workers.done(job.slot)
            job.ended_at = time.monotonic()
            self.free.append(job.slot)
        job.finished.set()

    def get(self, job_id: str) -> Job | None:
        self.evict()
        return self.jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None and job.ended_at is None:
            job.cancelled = True
            self.workers.cancel(job.slot)
            if job.future is not None:
                job.future.cancel()  # succeeds only while it waits in the queue
        return job


__all__ = ["Job", "Jobs"]
