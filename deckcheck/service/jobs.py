"""Background goldfish jobs: a small thread pool, a cap on running jobs, cancellation."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any


class Cancelled(KeyboardInterrupt):
    """Raised inside a job's progress callback; the simulator stops as on Ctrl-C."""


@dataclass
class Job:
    id: str
    total: int
    status: str = "queued"  # queued, running, done, failed, cancelled
    done: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)  # set once it has ended

    def view(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "games_done": self.done,
            "games": self.total,
            "result": self.result,
            "error": self.error,
        }


class Jobs:
    def __init__(self, max_running: int) -> None:
        self.max_running = max_running
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(max_workers=max(1, max_running))

    def running(self) -> int:
        return sum(j.status in ("queued", "running") for j in self.jobs.values())

    def start(
        self, total: int, work: Callable[[Callable[[int], None]], dict[str, Any]]
    ) -> Job | None:
        """None when ``max_running`` jobs are already queued or running."""
        with self.lock:
            if self.running() >= self.max_running:
                return None
            job = Job(uuid.uuid4().hex, total)
            self.jobs[job.id] = job

        def progress(n: int) -> None:
            job.done += n
            if job.cancel.is_set():
                raise Cancelled

        def run() -> None:
            if job.cancel.is_set():
                job.status = "cancelled"
                return
            job.status = "running"
            try:
                result = work(progress)
            except Exception as exc:  # reported through GET /jobs/{id}
                job.status, job.error = "failed", f"{type(exc).__name__}: {exc}"
                return
            job.result = result
            job.status = "cancelled" if job.cancel.is_set() else "done"

        def ended() -> None:
            try:
                run()
            finally:
                job.finished.set()

        self.pool.submit(ended)
        return job

    def get(self, job_id: str) -> Job | None:
        return self.jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self.jobs.get(job_id)
        if job is not None:
            job.cancel.set()
            if job.status == "queued":
                job.status = "cancelled"
        return job
