"""Worker pools that cannot be taken (issue 24, items 2 and 3): jobs and synchronous requests
have pools of their own, a pool whose process was killed is replaced (and ``/health`` says
so meanwhile), synchronous goldfish has a work budget and a deadline, and a sweep hears a
cancel between variants."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from deckcheck.service.app import create_app
from deckcheck.service.jobs import Jobs
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES, HANG

psutil = pytest.importorskip("psutil")

RAKUEN = (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8")
ODDS = {"deck": RAKUEN, "want": ["type:paradox>=1"], "turns": 3}


@pytest.fixture
def service(tmp_path: Path) -> FastAPI:
    # one request worker and no queue: a single task elsewhere would fill the request pool
    settings = Settings(db=tmp_path / "p.sqlite3", workers=1, queue=0, max_jobs=1)
    return create_app(settings)


@pytest.fixture
def http(service: FastAPI) -> Iterator[TestClient]:
    with TestClient(service, raise_server_exceptions=False) as client:
        yield client


def _wait_for_flag(progress: Any, flag: str) -> dict[str, Any]:
    """A job's work that runs until the test creates ``flag``."""
    deadline = time.monotonic() + HANG
    while not os.path.exists(flag):
        assert time.monotonic() < deadline, "the test never released the job"
        time.sleep(0.01)
    return {"released": True}


def _children() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


def test_a_running_job_leaves_odds_its_own_pool(
    http: TestClient, service: FastAPI, tmp_path: Path
) -> None:
    jobs: Jobs = service.state.jobs
    flag = tmp_path / "release"
    started = jobs.start(1, _wait_for_flag, str(flag))
    assert started is not None
    try:
        # the one job runs; the request pool (one worker, no queue) is still free for /odds
        answer = http.post("/odds", json=ODDS)
        assert answer.status_code == 200, answer.text
    finally:
        flag.touch()
    ended = jobs.wait(started["id"], timeout=HANG)
    assert ended is not None and ended["status"] == "done"
    assert service.state.workers.in_flight == 0


def _kill_a_request_worker(http: TestClient) -> int:
    assert http.post("/odds", json=ODDS).status_code == 200
    pool = set(http.app.state.workers.processes()) & _children()  # type: ignore[attr-defined]
    assert pool, "the service started no request worker"
    victim = min(pool)
    os.kill(victim, signal.SIGKILL)
    return victim


def test_after_a_worker_is_killed_the_next_odds_answers_200(
    http: TestClient, service: FastAPI
) -> None:
    _kill_a_request_worker(http)
    # before: 500 BrokenProcessPool on each, and after 10 the leaked count gave 429 for ever
    for _ in range(12):
        answer = http.post("/odds", json=ODDS)
        assert answer.status_code == 200, answer.text
    assert service.state.workers.in_flight == 0


def test_health_reports_a_broken_pool_while_it_is_replaced(
    http: TestClient, service: FastAPI
) -> None:
    every = ("requests", "jobs", "checks", "long-checks")
    assert http.get("/health").json()["pools"] == dict.fromkeys(every, "ok")
    _kill_a_request_worker(http)
    deadline = time.monotonic() + HANG
    while (health := http.get("/health")).status_code == 200:  # until the pool sees it die
        assert time.monotonic() < deadline, "the dead worker was never noticed"
        time.sleep(0.05)
    assert health.status_code == 503, health.text
    assert health.json()["status"] == "degraded"
    assert health.json()["pools"] == {**dict.fromkeys(every, "ok"), "requests": "replacing"}
    assert health.json()["places"]["requests"]["replaced"] == 1
    assert "requests" in health.json()["detail"]
    assert http.get("/health").status_code == 200  # replaced
    assert http.post("/odds", json=ODDS).status_code == 200


def test_a_job_whose_worker_is_killed_fails_and_the_next_job_runs(
    http: TestClient, service: FastAPI, tmp_path: Path
) -> None:
    jobs: Jobs = service.state.jobs
    flag = tmp_path / "release"
    started = jobs.start(1, _wait_for_flag, str(flag))
    assert started is not None
    pool = jobs.workers.processes()  # one process: the job runs in it
    assert len(pool) == 1
    deadline = time.monotonic() + HANG
    while jobs.get(started["id"])["status"] != "running":  # type: ignore[index]
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.kill(pool[0], signal.SIGKILL)
    failed = jobs.wait(started["id"], timeout=HANG)
    assert failed is not None and failed["status"] == "failed", failed
    assert "worker process stopped" in failed["error"]
    flag.touch()
    again = jobs.start(1, _wait_for_flag, str(flag))
    assert again is not None
    done = jobs.wait(again["id"], timeout=HANG)
    assert done is not None and done["status"] == "done", done


def test_synchronous_goldfish_over_its_work_budget_is_422_before_any_game(
    http: TestClient,
) -> None:
    # the deck: 400 lines of 9,999 copies; 100 games of it took 41 s, uncancellable
    lines = "".join(f"9999 SAMPLE-R-00{i % 9 + 1}\n" for i in range(400))
    body = {"deck": "format: rakuen-standard\n" + lines, "games": 100, "turns": 3}
    answer = http.post("/goldfish", json=body)
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["type"].endswith("/limit-exceeded")
    assert problem["limit"] == 4_000_000 and "DECKCHECK_SYNC_WORK" in problem["detail"]


def test_a_job_over_its_work_budget_is_422_before_it_starts(http: TestClient) -> None:
    """The same deck as a job (more games than are answered at once): 20,001 games of it would
    hold one of the two job places for days. (A sweep plays only its legal variants, whose size
    the format bounds.)"""
    lines = "".join(f"9999 SAMPLE-R-00{i % 9 + 1}\n" for i in range(400))
    deck = "format: rakuen-standard\n" + lines
    answer = http.post("/goldfish", json={"deck": deck, "games": 20_001, "turns": 3})
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["type"].endswith("/limit-exceeded") and problem["limit"] == 100_000_000
    assert "DECKCHECK_JOB_WORK" in problem["detail"]
    assert problem["errors"][0]["path"] == "body.games"
    # an ordinary deck may still play every game a job may have
    legal = (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8")
    started = http.post("/goldfish", json={"deck": legal, "games": 1_000_000, "turns": 1})
    assert started.status_code == 202, started.text
    assert http.delete(started.headers["Location"]).status_code == 200


def test_synchronous_work_past_its_deadline_is_422(tmp_path: Path) -> None:
    settings = Settings(db=tmp_path / "p.sqlite3", workers=1, sync_seconds=0.001)
    body = {"deck": RAKUEN, "games": 20_000, "turns": 8}
    with TestClient(create_app(settings), raise_server_exceptions=False) as http:
        answer = http.post("/goldfish", json=body)
        assert answer.status_code == 422, answer.text
        assert answer.json()["type"].endswith("/over-deadline")
        assert "DECKCHECK_SYNC_SECONDS" in answer.json()["detail"]
        assert http.app.state.workers.in_flight == 0  # type: ignore[attr-defined]


def test_a_sweep_hears_a_cancel_between_variants(
    tmp_path: Path, index: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sweep of many variants and no games used to read its cancel flag only between
    goldfish chunks: two of ``sides: [true] × 1000`` ignored DELETE for 60 s."""
    from deckcheck import decklist
    from deckcheck.formats.registry import default_registry
    from deckcheck.service import jobstore, tasks
    from deckcheck.service.jobstore import Cancelled, JobRef, JobStore, Progress
    from deckcheck.sweep import run
    from deckcheck.sweep.run import SweepRequest

    monkeypatch.setattr(jobstore, "FLUSH_EVERY", 0.0)  # every callback reads the flag
    validated: list[int] = []
    errors_of = run.errors_of  # each variant's validation
    monkeypatch.setattr(run, "errors_of", lambda *a: validated.append(1) or errors_of(*a))
    store = JobStore(f"sqlite:///{tmp_path / 'jobs.sqlite3'}", create=True)
    store.create("j", "sweep", 0)
    progress = Progress(JobRef("j", store.url))
    progress.start()
    store.request_cancel("j")
    deck = decklist.parse(RAKUEN, None)
    fmt = default_registry().get(deck.format or "")
    req = SweepRequest(sides=(True,) * 50, games=0, want=["type:paradox>=1"])
    with pytest.raises(Cancelled):
        tasks.sweep(progress, [(None, deck)], fmt, index, req)
    assert len(validated) == 0  # stopped before the first variant, not after the fiftieth


def test_health_lists_every_pool_and_lane_and_says_when_one_is_full(
    http: TestClient, service: FastAPI
) -> None:
    """The check lanes were not in /health, nor was a full pool: it said "ok" while /odds,
    /goldfish and /hand timed out (issue 37, item 5)."""
    from deckcheck.service.validating import lanes_of

    places = http.get("/health").json()["places"]
    assert set(places) == {"requests", "jobs", "checks", "long-checks"}
    assert places["requests"]["size"] == service.state.settings.workers
    assert places["long-checks"]["size"] == 1
    assert all(p["busy"] <= p["capacity"] for p in places.values())
    light = lanes_of(service.state)[0]
    light.in_flight = light.capacity  # as when every place of the lane is taken
    try:
        full = http.get("/health")  # still answering what it holds: 200, but degraded
        assert full.status_code == 200 and full.json()["status"] == "degraded"
        assert full.json()["pools"]["checks"] == "full"
        assert "checks" in full.json()["detail"] and "429" in full.json()["detail"]
    finally:
        light.in_flight = 0
    assert http.get("/health").status_code == 200


def test_health_sees_the_check_process_die(http: TestClient, service: FastAPI) -> None:
    from deckcheck.service.validating import ProcessChecks, lanes_of

    heavy = lanes_of(service.state)[1]
    assert isinstance(heavy, ProcessChecks)
    pid = heavy.workers.submit(os.getpid).result()
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + HANG
    while (health := http.get("/health")).status_code == 200:  # until the pool sees it die
        assert time.monotonic() < deadline, "the dead check process was never noticed"
        time.sleep(0.05)
    assert health.json()["pools"]["long-checks"] == "replacing"


def test_a_locked_card_pool_is_503_with_retry_after(
    http: TestClient, service: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckcheck.errors import PoolError

    def locked(*_args: object, **_kwargs: object) -> None:
        raise PoolError("cannot read the card database: database is locked")

    monkeypatch.setattr(service.state.cards.cache, "index", locked)
    answer = http.post("/validate", json={"deck": "format: chaos-standard\n"})
    assert answer.status_code == 503
    assert answer.headers["retry-after"] == "1"


def _ends_its_own_worker(runs: str) -> None:
    """A task that kills the process it runs in (as a runaway task the OOM killer ends)."""
    with open(runs, "a", encoding="utf-8") as log:
        log.write("ran\n")
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_task_that_killed_its_worker_is_not_run_again(tmp_path: Path) -> None:
    """It was resubmitted to the new pool once (issue 37, item 4); a task still queued when
    another killed the pool is retried (test_a_dead_worker_...: the 12 /odds after a kill)."""
    import asyncio

    from deckcheck.service.problems import Problem
    from deckcheck.service.workers import Workers

    runs = tmp_path / "runs"
    workers = Workers(1, 2)
    try:
        with pytest.raises(Problem) as lost:
            asyncio.run(workers.run(_ends_its_own_worker, str(runs)))
        assert lost.value.status == 503
        assert runs.read_text(encoding="utf-8").count("ran") == 1
    finally:
        workers.close()
