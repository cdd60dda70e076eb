"""Background jobs as rows of the saved-decks database, so that any worker process or host
answers ``GET /jobs/{id}`` and ``DELETE /jobs/{id}``.

The process that starts a job runs it (in its worker pool, or on the Dask cluster); the running
code writes its progress back and polls ``cancel_requested`` between chunks (``Progress``), and
the starting process writes the end: status, result as JSON, error. Ended rows are deleted
after a time to live by whichever process next touches the table.

The starting process also keeps a heartbeat (``beat``) on its open jobs. A reader that finds an
open job whose process is gone (a pid of this host that no longer exists; on another host, no
heartbeat for ``STALE_AFTER`` seconds) ends it as failed: nothing else would.
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
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.exc import SQLAlchemyError

from deckcheck.i18n import DEFAULT, _, override
from deckcheck.service.store import REQUEST_WAIT, create_tables, engine_for, metadata, writing
from deckcheck.text import lone_surrogate, printable

ENDED = ("done", "failed", "cancelled")
OPEN = ("queued", "running")
FLUSH_EVERY = 0.25  # seconds between progress writes: a chunk can take a millisecond
BEAT_EVERY = 5.0  # seconds between the owner's heartbeats on its open jobs
STALE_AFTER = 30.0  # seconds without a heartbeat after which an open job's owner is gone

jobs = Table(
    "jobs",  # i18n: machine
    metadata,
    Column("id", String(32), primary_key=True),
    Column("task", String(20), nullable=False),  # what the job plays: goldfish, sweep
    Column("owner", String(200), nullable=False),  # host:pid that runs it
    Column("status", String(12), nullable=False),
    Column("games", Integer, nullable=False),
    Column("games_done", Integer, nullable=False, default=0),
    Column("cancel_requested", Boolean, nullable=False, default=False),
    Column("result", Text),  # JSON, once done
    Column("error", Text),
    Column("created", Float, nullable=False),  # wall-clock seconds: shared across hosts
    Column("ended", Float),
    Column("beat", Float),  # wall-clock seconds of the owner's last sign of life
    Column("language", String(8)),  # of the request that started it: its text is in it
)


# What status polling reads: every column but the result, which may be large (issue 24,
# item 13: four clients polling a 757 KB result pushed /validate p99 from 26 to 186 ms).
STATUS = (
    *(c for c in jobs.c if c.name != "result"),
    jobs.c.result.is_not(None).label("has_result"),
)

# The columns later versions added or renamed, and the statement that gives an older table each.
_CHANGES = (
    ("beat", "ALTER TABLE jobs ADD COLUMN beat FLOAT"),  # heartbeats
    ("task", "ALTER TABLE jobs RENAME COLUMN kind TO task"),  # the column's old name
    ("language", "ALTER TABLE jobs ADD COLUMN language VARCHAR(8)"),  # issue 21
)


class Cancelled(KeyboardInterrupt):
    """Raised inside a job's progress callback; the simulator stops as on Ctrl-C."""


def owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def lost(job_owner: str, beat: float | None, now: float) -> str | None:
    """Why an open job can no longer end (its error), or None while its owner may be alive.

    An owner (host:pid) on this host is asked directly whether its process still exists; a
    busy one may beat late, and is not given up for that. One on another host is given up
    after ``STALE_AFTER`` seconds without a heartbeat (rows without one are never given up).
    A new process that happens to get a stopped one's pid hides it: pids are reused rarely."""
    host, _sep, pid = job_owner.rpartition(":")
    if host == socket.gethostname():
        if pid.isdigit() and _gone(int(pid)):
            return _(
                "interrupted: the service process that ran the job ({owner}) stopped before "
                "it ended; start it again",
                owner=job_owner,
            )
        return None
    if beat is not None and now - beat > STALE_AFTER:
        return _(
            "interrupted: the service process that ran the job ({owner}) gave no sign of life "
            "for {seconds} s; start it again",
            owner=job_owner,
            seconds=round(now - beat),
        )
    return None


def _gone(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except OSError:  # it exists, under another user
        return False
    return False


@dataclass(frozen=True)
class JobRef:
    """What the running code needs to report on its job (picklable: it goes to a worker).
    ``scheduler``: the Dask scheduler to play on, None for in-process; ``timeouts``: seconds
    to reach it and to wait for its first worker."""

    id: str
    url: str
    scheduler: str | None = None
    timeouts: tuple[float, float] = (10.0, 30.0)


class JobStore:
    """The jobs table. The writes a request's thread makes (create, cancel, the end of a job
    whose owner is gone, eviction) wait at most ``store.REQUEST_WAIT`` for another writer's
    SQLite lock, then fail (503 with Retry-After); the ones made in the background (progress,
    heartbeats, a job's end) keep the engine's long wait (``store.writing``)."""

    def __init__(self, url: str, create: bool = False) -> None:
        self.url = url
        self.engine = engine_for(url)
        if create:
            create_tables(self.engine)
            for column, change in _CHANGES:
                self._upgrade(column, change)

    def _upgrade(self, column: str, change: str) -> None:
        """A jobs table an earlier deckcheck made gets ``column`` by ``change`` (another
        process starting at the same time may make it first)."""
        for _attempt in range(2):
            if column in {c["name"] for c in inspect(self.engine).get_columns("jobs")}:
                return
            try:
                with self.engine.begin() as conn:
                    conn.execute(text(change))
                return
            except SQLAlchemyError:
                continue  # made by the other process: the next look finds it

    def create(self, job_id: str, task: str, games: int, language: str = DEFAULT) -> None:
        row = {
            "language": language,
            "id": job_id,
            "task": task,
            "owner": owner(),
            "status": "queued",
            "games": games,
            "games_done": 0,
            "cancel_requested": False,
            "created": time.time(),
            "beat": time.time(),
        }
        with writing(self.engine, REQUEST_WAIT) as conn:
            conn.execute(jobs.insert().values(**row))

    def get(self, job_id: str) -> dict[str, Any] | None:
        """The job's row without its result (``has_result`` says whether it has one). An open
        job whose owner was a process of this host that is gone (the service was stopped or
        killed) is ended as failed first: nothing will finish it."""
        with self.engine.connect() as conn:  # not the result: polling reads it never
            row = conn.execute(select(*STATUS).where(jobs.c.id == job_id)).mappings().first()
        if row is None:
            return None
        if row["status"] in OPEN:
            with override(row["language"] or DEFAULT):  # the job's words stay in its language
                why = lost(row["owner"], row["beat"], time.time())
            if why is not None:
                self.finish(job_id, "failed", None, why, REQUEST_WAIT)
                return self.get(job_id)
        return dict(row)

    def result(self, job_id: str) -> str | None:
        """The job's result as stored: JSON text, served as it is (never parsed again)."""
        with self.engine.connect() as conn:
            found = conn.execute(select(jobs.c.result).where(jobs.c.id == job_id)).scalar()
        return None if found is None else str(found)

    def beat(self, job_ids: list[str]) -> None:
        """The owner's sign of life on its open jobs."""
        with self.engine.begin() as conn:
            conn.execute(
                update(jobs)
                .where(jobs.c.id.in_(job_ids) & jobs.c.status.in_(OPEN))
                .values(beat=time.time())
            )

    def request_cancel(self, job_id: str) -> dict[str, Any] | None:
        """Flag an open job for cancelling; its row (None: no such job). A job that is not
        open is not written to: a DELETE of an unknown or ended job needs no lock."""
        row = self.get(job_id)
        if row is None or row["status"] not in OPEN:
            return row
        with writing(self.engine, REQUEST_WAIT) as conn:
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
        values: dict[str, Any] = {"games_done": done, "beat": time.time()}
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
        self,
        job_id: str,
        status: str,
        result: dict[str, Any] | None,
        error: str | None,
        wait: float | None = None,
    ) -> bool:
        """End an open job; False when it had already ended. The end is a compare-and-set on
        the status: a job reported failed (its owner seemed gone) or cancelled stays so when
        a late result comes in. ``wait``: a request's bound on the lock (``store.writing``)."""
        stored = None if result is None else json.dumps(result, ensure_ascii=False)
        bad = lone_surrogate(stored) if stored is not None else None
        if bad is not None:  # no database stores it, and the job would stay open for ever
            status, stored = "failed", None
            error = _("the result is not valid Unicode text (a lone surrogate, {what})", what=bad)
        values: dict[str, Any] = {"status": status, "ended": time.time(), "result": stored}
        values["error"] = None if error is None else printable(error)
        still_open = (jobs.c.id == job_id) & jobs.c.status.in_(OPEN)
        ended = 0
        with writing(self.engine, wait) as conn:
            if status == "done":  # it ended on its own after a late cancel
                cancelled = {**values, "status": "cancelled"}
                query = update(jobs).where(still_open & jobs.c.cancel_requested).values(cancelled)
                ended = conn.execute(query).rowcount
            ended += conn.execute(update(jobs).where(still_open).values(values)).rowcount
        return ended > 0

    def delete(self, job_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(jobs).where(jobs.c.id == job_id))

    def evict(self, ttl: float, now: float | None = None) -> None:
        now = time.time() if now is None else now
        with writing(self.engine, REQUEST_WAIT) as conn:  # called by requests
            conn.execute(delete(jobs).where(jobs.c.ended.is_not(None) & (jobs.c.ended < now - ttl)))


def view(row: dict[str, Any]) -> dict[str, Any]:
    """A row as the API shows it: progress and status, never the result, which has its own
    URL (``result_url``) once the job is done. ``language``: what its result's and error's text
    is written in, the language of the request that started the job, whoever asks later."""
    done = row["status"] == "done" and bool(row.get("has_result"))
    return {
        "id": row["id"],
        "status": row["status"],
        "games_done": row["games_done"],
        "games": row["games"],
        "result_url": f"/jobs/{row['id']}/result" if done else None,
        "error": row["error"],
        "language": row.get("language") or DEFAULT,
    }


class Progress:
    """The running code's progress callback: counts games, writes them back at most every
    ``FLUSH_EVERY`` seconds, and raises ``Cancelled`` once a cancel was asked for (from any
    process). Also the place that marks the job running and sets its total once known."""

    def __init__(self, ref: JobRef) -> None:
        self.ref, self.store = ref, JobStore(ref.url)
        self.done, self.last = 0, 0.0
        self.games: int | None = None  # a total not yet written

    def _write(self) -> bool:
        """Write the count (and a new total); True when a cancel was asked for. A write the
        database refuses (locked, busy) is skipped: progress is a report, not the job's work,
        and the next write catches up. Before, a locked SQLite file failed the job itself
        ("database is locked" on marking it running: two service processes on one file under
        load, issue 38)."""
        try:
            asked = self.store.progress(self.ref.id, self.done, self.games)
        except SQLAlchemyError:
            return False
        self.games = None
        return asked

    def start(self) -> None:
        self.last = time.monotonic()
        if self._write():
            raise Cancelled

    def total(self, games: int) -> None:
        """The games the job will play, once it knows (a sweep skips illegal variants)."""
        self.games = games
        if self._write():
            raise Cancelled

    def __call__(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.last >= FLUSH_EVERY:
            self.last = now
            if self._write():
                raise Cancelled

    def flush(self) -> None:
        self._write()
