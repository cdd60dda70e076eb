"""Background jobs as rows of the saved-decks database, so that any worker process or host
answers ``GET /jobs/{id}`` and ``DELETE /jobs/{id}``.

The process that starts a job runs it (in its worker pool, or on the Dask cluster); the running
code writes its progress back and polls ``cancel_requested`` between chunks (``Progress``), and
the starting process writes the end: status, result as JSON, error. Ended rows are deleted
after a time to live by whichever process next touches the table.
"""

from __future__ import annotations

import json
import os
import socket
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    String,
    Table,
    Text,
    delete,
    select,
    update,
)

from deckcheck.service.store import create_tables, engine_for, metadata

ENDED = ("done", "failed", "cancelled")
OPEN = ("queued", "running")
FLUSH_EVERY = 0.25  # seconds between progress writes: a chunk can take a millisecond

jobs = Table(
    "jobs",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("kind", String(20), nullable=False),
    Column("owner", String(200), nullable=False),  # host:pid that runs it
    Column("status", String(12), nullable=False),
    Column("games", Integer, nullable=False),
    Column("games_done", Integer, nullable=False, default=0),
    Column("cancel_requested", Boolean, nullable=False, default=False),
    Column("result", Text),  # JSON, once done
    Column("error", Text),
    Column("created", Float, nullable=False),  # wall-clock seconds: shared across hosts
    Column("ended", Float),
)


class Cancelled(KeyboardInterrupt):
    """Raised inside a job's progress callback; the simulator stops as on Ctrl-C."""


def owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def orphaned(job_owner: str) -> bool:
    """Whether ``job_owner`` (host:pid) was a process of this host that no longer runs. A job
    owned on another host cannot be checked from here and counts as alive. (A new process
    that happens to get the same pid hides a stopped one: pids are reused rarely.)"""
    host, _, pid = job_owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except OSError:  # it exists, under another user
        return False
    return False


def interrupted(job_owner: str) -> str:
    return (
        f"interrupted: the service process that ran the job ({job_owner}) stopped before it "
        "ended; start it again"
    )


@dataclass(frozen=True)
class JobRef:
    """What the running code needs to report on its job (picklable: it goes to a worker).
    ``scheduler``: the Dask scheduler to play on, None for in-process."""

    id: str
    url: str
    scheduler: str | None = None


class JobStore:
    def __init__(self, url: str, create: bool = False) -> None:
        self.url = url
        self.engine = engine_for(url)
        if create:
            create_tables(self.engine)

    def create(self, job_id: str, kind: str, games: int) -> None:
        row = {
            "id": job_id,
            "kind": kind,
            "owner": owner(),
            "status": "queued",
            "games": games,
            "games_done": 0,
            "cancel_requested": False,
            "created": time.time(),
        }
        with self.engine.begin() as conn:
            conn.execute(jobs.insert().values(**row))

    def get(self, job_id: str) -> dict[str, Any] | None:
        """The job's row. An open job whose owner was a process of this host that is gone
        (the service was stopped or killed) is ended as failed first: nothing will finish it."""
        with self.engine.connect() as conn:
            row = conn.execute(select(jobs).where(jobs.c.id == job_id)).mappings().first()
        if row is None:
            return None
        if row["status"] in OPEN and orphaned(row["owner"]):
            self.finish(job_id, "failed", None, interrupted(row["owner"]))
            return self.get(job_id)
        return dict(row)

    def request_cancel(self, job_id: str) -> dict[str, Any] | None:
        with self.engine.begin() as conn:
            conn.execute(
                update(jobs)
                .where((jobs.c.id == job_id) & jobs.c.status.in_(OPEN))
                .values(cancel_requested=True)
            )
        return self.get(job_id)

    def progress(
        self, job_id: str, done: int, games: int | None = None, started: bool = True
    ) -> bool:
        """Write ``done`` (and a new total) while the job is open; True when a cancel was
        asked for."""
        values: dict[str, Any] = {"games_done": done}
        if started:
            values["status"] = "running"
        if games is not None:
            values["games"] = games
        with self.engine.begin() as conn:
            conn.execute(
                update(jobs).where((jobs.c.id == job_id) & jobs.c.status.in_(OPEN)).values(values)
            )
            asked = conn.execute(
                select(jobs.c.cancel_requested).where(jobs.c.id == job_id)
            ).scalar()
        return bool(asked)

    def finish(
        self, job_id: str, status: str, result: dict[str, Any] | None, error: str | None
    ) -> None:
        values: dict[str, Any] = {"status": status, "error": error, "ended": time.time()}
        if result is not None:
            values["result"] = json.dumps(result, ensure_ascii=False)
        with self.engine.begin() as conn:
            row = conn.execute(select(jobs.c.cancel_requested).where(jobs.c.id == job_id))
            if row.scalar() and status == "done":
                values["status"] = "cancelled"  # it ended on its own after a late cancel
            conn.execute(update(jobs).where(jobs.c.id == job_id).values(values))

    def delete(self, job_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(jobs).where(jobs.c.id == job_id))

    def evict(self, ttl: float, now: float | None = None) -> None:
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            conn.execute(delete(jobs).where(jobs.c.ended.is_not(None) & (jobs.c.ended < now - ttl)))


def view(row: dict[str, Any]) -> dict[str, Any]:
    """A row as the API shows it."""
    return {
        "id": row["id"],
        "status": row["status"],
        "games_done": row["games_done"],
        "games": row["games"],
        "result": json.loads(row["result"]) if row["result"] else None,
        "error": row["error"],
    }


class Progress:
    """The running code's progress callback: counts games, writes them back at most every
    ``FLUSH_EVERY`` seconds, and raises ``Cancelled`` once a cancel was asked for (from any
    process). Also the place that marks the job running and sets its total once known."""

    def __init__(self, ref: JobRef) -> None:
        self.ref, self.store = ref, JobStore(ref.url)
        self.done, self.last = 0, 0.0

    def start(self) -> None:
        self.last = time.monotonic()
        if self.store.progress(self.ref.id, 0):
            raise Cancelled

    def total(self, games: int) -> None:
        """The games the job will play, once it knows (a sweep skips illegal variants)."""
        if self.store.progress(self.ref.id, self.done, games):
            raise Cancelled

    def __call__(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.last >= FLUSH_EVERY:
            self.last = now
            if self.store.progress(self.ref.id, self.done):
                raise Cancelled

    def flush(self) -> None:
        self.store.progress(self.ref.id, self.done)
