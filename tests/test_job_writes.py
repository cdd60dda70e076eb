"""Every job ends (issue 37, item 4): a job whose end meets a full disk or a locked database is
written again, then ended failed saying why; a cancel ends a job nothing runs any more. Before,
such a job stayed "running" for ever and DELETE had no effect, even after space was freed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from deckcheck.service import jobs as jobs_module
from deckcheck.service.app import create_app
from deckcheck.service.jobstore import JobStore
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES, HANG
from tests.test_jobs import _done

RAKUEN = (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8")
JOB = {"deck": RAKUEN, "games": 200, "turns": 2}


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FastAPI:
    monkeypatch.setattr(jobs_module, "FINISH_WAIT", 0.01)  # the retries' pauses, shortened
    return create_app(Settings(db=tmp_path / "pool.sqlite3", sync_games=10, workers=1))


@pytest.fixture
def http(service: FastAPI) -> Iterator[TestClient]:
    with TestClient(service, raise_server_exceptions=False) as client:
        yield client


def _failing_finish(
    service: FastAPI, monkeypatch: pytest.MonkeyPatch, failures: int
) -> list[str]:
    """The store's ``finish`` fails ``failures`` times as a full disk does; the statuses it
    was asked to write."""
    store: JobStore = service.state.jobs.store
    real = store.finish
    asked: list[str] = []

    def finish(job_id: str, status: str, *args: Any) -> bool:
        asked.append(status)
        if len(asked) <= failures:
            raise OperationalError("UPDATE jobs", {}, Exception("database or disk is full"))
        return real(job_id, status, *args)

    monkeypatch.setattr(store, "finish", finish)
    return asked


def _ended(http: TestClient, job_id: str) -> dict[str, Any]:
    return _done(http, f"/jobs/{job_id}")


def test_an_end_that_fails_to_be_written_is_written_again(
    http: TestClient, service: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = _failing_finish(service, monkeypatch, failures=2)
    started = http.post("/goldfish", json=JOB)
    assert started.status_code == 202, started.text
    state = _ended(http, started.json()["id"])
    assert state["status"] == "done" and state["result_url"]
    assert asked == ["done"] * 3


def test_an_end_that_cannot_be_written_is_a_failure_that_says_why(
    http: TestClient, service: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = _failing_finish(service, monkeypatch, failures=jobs_module.FINISH_TRIES + 1)
    started = http.post("/goldfish", json=JOB)
    state = _ended(http, started.json()["id"])
    assert state["status"] == "failed"
    assert "could not be stored" in state["error"] and "disk is full" in state["error"]
    assert asked[-1] == "failed"


def test_a_cancel_ends_a_job_whose_end_was_never_written(
    http: TestClient, service: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk stays full through every retry; once it has room again, DELETE ends the job
    (it had no effect: nothing ran the job any more)."""
    asked = _failing_finish(service, monkeypatch, failures=10**6)
    started = http.post("/goldfish", json=JOB)
    job_id = started.json()["id"]
    deadline = time.monotonic() + HANG
    while job_id not in service.state.jobs.unwritten:  # every write of its end failed
        assert time.monotonic() < deadline, "the job's end was never given up on"
        time.sleep(0.05)
    assert http.get(f"/jobs/{job_id}").json()["status"] in ("queued", "running")
    monkeypatch.undo()  # space freed
    cancelled = http.delete(f"/jobs/{job_id}")
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["status"] in ("failed", "cancelled")
    assert http.get(f"/jobs/{job_id}").json()["status"] in ("failed", "cancelled")
    assert job_id not in service.state.jobs.unwritten
    assert len(asked) >= jobs_module.FINISH_TRIES + 2  # the heartbeat may have tried too


def test_a_locked_database_skips_a_progress_write_and_the_job_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38: with two service processes on one SQLite file under load, marking a job
    running met "database is locked" and the job failed with that error. A progress write is
    a report: a refused one is skipped, and the next write marks the job running with its
    count and total."""
    from deckcheck.service.jobstore import JobRef, Progress

    url = f"sqlite:///{tmp_path / 'jobs.sqlite3'}"
    store = JobStore(url, create=True)
    store.create("job-1", "goldfish", 0)
    progress = Progress(JobRef("job-1", url))
    real = progress.store.progress
    calls: list[int] = []

    def locked_once(job_id: str, done: int, games: int | None = None) -> bool:
        calls.append(done)
        if len(calls) == 1:
            raise OperationalError("UPDATE jobs", {}, Exception("database is locked"))
        return real(job_id, done, games)

    monkeypatch.setattr(progress.store, "progress", locked_once)
    progress.start()  # refused: skipped, not raised
    progress.total(10)
    progress(10)
    progress.flush()
    row = store.get("job-1")
    assert row is not None and row["status"] == "running", row
    assert row["games"] == 10 and row["games_done"] == 10
