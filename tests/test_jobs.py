"""Jobs in the database (issue 15, item 3): POST /sweeps, `deckcheck serve --workers 2`
answering for jobs either worker created (SQLite and PostgreSQL) and cancel across processes;
heavy jobs on a real Dask cluster: tests/test_dask_cluster.py."""

from __future__ import annotations

import os
import re
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from deckcheck.service import jobstore
from deckcheck.service.app import create_app
from deckcheck.service.jobs import Jobs
from deckcheck.service.jobstore import JobStore, jobs
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES, HANG, free_port

RAKUEN = (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8")
IRIS = (EXAMPLES / "iris-standard-legal.deck").read_text(encoding="utf-8")
SWEEP = {
    "deck": RAKUEN,
    "vary": ["name:SAMPLE-R-007=1..4"],
    "fill": "SAMPLE-R-T01",
    "want": ["kind:合理体>=1"],
    "games": 3000,
    "turns": 4,
    "seed": 3,
    "best": "milestone:first_level_3_deploy",
}


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    db = tmp_path_factory.mktemp("jobs") / "pool.sqlite3"
    return create_app(Settings(db=db, sync_games=100, job_games=50_000, max_jobs=2, workers=1))


@pytest.fixture(scope="module")
def http(service: FastAPI) -> Iterator[TestClient]:
    with TestClient(service, raise_server_exceptions=False) as client:
        yield client


def _done(http: TestClient | httpx.Client, location: str, timeout: float = HANG) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state: dict[str, Any] = http.get(location).json()
        if state["status"] not in ("queued", "running"):
            return state
        time.sleep(0.1)
    raise AssertionError(f"{location} did not end")


def _result(http: TestClient | httpx.Client, state: dict[str, Any]) -> Any:
    """A done job's result, from the URL its status links (polling never carries it)."""
    assert state["status"] == "done" and "result" not in state, (state["status"], state["error"])
    answer = http.get(state["result_url"])
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_sweep_job_gives_the_libraries_result(http: TestClient, index: Any) -> None:
    from deckcheck import decklist
    from deckcheck.formats.registry import default_registry
    from deckcheck.sweep import SweepRequest, sweep

    started = http.post("/sweeps", json=SWEEP)
    assert started.status_code == 202, started.text
    assert started.headers["location"] == f"/jobs/{started.json()['id']}"
    assert started.json()["games"] == 4 * 3000
    state = _done(http, started.headers["location"])
    assert state["status"] == "done", state
    result = _result(http, state)
    assert [v["legal"] for v in result["variants"]] == [False, False, True, True]
    assert state["games"] == state["games_done"] == 2 * 3000  # illegal variants never play
    fields = {k: v for k, v in SWEEP.items() if k != "deck"}
    deck = decklist.parse(RAKUEN, None)
    fmt = default_registry().get(deck.format or "")
    expected = sweep([(None, deck)], fmt, index, SweepRequest(**fields))
    assert result == expected.model_dump(mode="json")


def test_sweep_requests_are_checked_before_a_job(http: TestClient) -> None:
    def problem(body: dict[str, Any]) -> str:
        answer = http.post("/sweeps", json=body)
        assert answer.status_code == 422, answer.text
        slug: str = answer.json()["type"].rsplit("/", 1)[1]
        return slug

    assert problem({**SWEEP, "vary": ["colour:red=1"]}) == "invalid-request"
    assert problem({**SWEEP, "vary": ["policy:surprise=1,2"]}) == "invalid-request"
    assert problem({**SWEEP, "fill": "NO-SUCH-CARD"}) == "invalid-request"
    assert problem({**SWEEP, "games": 20_000}) == "limit-exceeded"  # 4 × 20,000 > 50,000
    assert problem({k: v for k, v in SWEEP.items() if k != "deck"}) == "invalid-request"
    assert problem({**SWEEP, "surprise": 1}) == "invalid-request"
    # best and want, which the sweep reads after its games: a 422 now, not a 202 and a job
    # that fails once every game is played (issue 24, item 15)
    assert problem({**SWEEP, "best": "milestone:nope"}) == "invalid-request"
    assert problem({**SWEEP, "best": "odds:type:paradox>=1"}) == "invalid-request"  # no want
    assert problem({**SWEEP, "best": "odds:kind:合理体>=1@x"}) == "invalid-request"
    assert problem({**SWEEP, "want": ["kind:合理体>=1", "nonsense"]}) == "bad-condition"
    assert problem({**SWEEP, "want": ["colour:red>=1"]}) == "bad-condition"
    two = {
        **{k: v for k, v in SWEEP.items() if k != "deck"},
        "vary": [],
        "fill": None,
        "games": 200,
        "decks": [{"name": "a", "deck": RAKUEN}, {"name": "b", "deck": RAKUEN}],
    }
    state = _done(http, http.post("/sweeps", json=two).headers["location"])
    labels = [v["label"] for v in _result(http, state)["variants"]]
    assert labels == ["a: side=play", "b: side=play"]


def test_a_sweep_job_can_be_cancelled(http: TestClient) -> None:
    body = {**SWEEP, "vary": ["name:SAMPLE-R-007=3..4"], "games": 25_000, "turns": 10}
    started = http.post("/sweeps", json=body)
    assert started.status_code == 202, started.text
    assert http.delete(started.headers["location"]).status_code == 200
    state = _done(http, started.headers["location"])
    assert state["status"] == "cancelled" and state["result_url"] is None
    assert http.get(f"{started.headers['location']}/result").status_code == 409


# --- jobs whose process is gone ------------------------------------------------------------


def _left(store: JobStore, job_id: str, owner: str, beat: float | None) -> None:
    """A job row as a service process that was killed mid-job left it."""
    with store.engine.begin() as conn:
        conn.execute(
            jobs.insert().values(
                id=job_id,
                task="goldfish",
                owner=owner,
                status="running",
                games=1000,
                games_done=200,
                cancel_requested=False,
                created=time.time() - 100,
                beat=beat,
            )
        )


def test_a_job_whose_process_stopped_is_reported_failed(http: TestClient, service: FastAPI) -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    store = JobStore(service.state.settings.decks_url)
    _left(store, "orphan", f"{socket.gethostname()}:{gone.stdout.strip()}", time.time())
    state = http.get("/jobs/orphan").json()
    assert state["status"] == "failed" and state["games_done"] == 200
    assert state["error"].startswith("interrupted: the service process")
    store.create("mine", "goldfish", 10)  # owned by this process, which runs: still open
    assert http.get("/jobs/mine").json()["status"] == "queued"
    store.delete("mine")


def test_a_job_without_heartbeat_is_reported_failed(http: TestClient, service: FastAPI) -> None:
    store = JobStore(service.state.settings.decks_url)
    _left(store, "silent", "another-host:123", time.time() - 60)  # its pid cannot be checked
    _left(store, "alive", "another-host:124", time.time() - 5)
    state = http.get("/jobs/silent").json()
    assert state["status"] == "failed"
    # 60 s, or more when the machine paused between the row and the request
    silent = re.search(r"\(another-host:123\) gave no sign of life for (\d+) s", state["error"])
    assert silent is not None and int(silent.group(1)) >= 60, state["error"]
    assert http.get("/jobs/alive").json()["status"] == "running"
    store.delete("alive")


def _held_job(
    tmp_path: Path, games: int
) -> tuple[JobStore, Jobs, Future[dict[str, Any]], dict[str, Any]]:
    """A job started by this process whose work waits in the queue until ``held`` is given
    its result."""
    store = JobStore(f"sqlite:///{tmp_path / 'jobs.sqlite3'}", create=True)
    held: Future[dict[str, Any]] = Future()

    class Queue:
        def submit(self, *args: Any) -> Future[dict[str, Any]]:
            return held

    runner = Jobs(store, Queue(), max_running=1)  # type: ignore[arg-type]
    job = runner.start(games, lambda progress: {})
    assert job is not None
    return store, runner, held, job


def test_the_owner_beats_while_its_jobs_are_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobstore, "BEAT_EVERY", 0.05)
    store, runner, held, job = _held_job(tmp_path, 10)
    before = time.time()
    with store.engine.begin() as conn:
        conn.execute(jobs.update().values(beat=0.0))
    deadline = time.monotonic() + HANG
    while (store.get(job["id"]) or {}).get("beat") == 0.0 and time.monotonic() < deadline:
        time.sleep(0.02)
    row = store.get(job["id"])
    assert row is not None and row["beat"] >= before and row["status"] == "queued"
    held.set_result({"games": 10})
    deadline = time.monotonic() + HANG
    while runner.beating and time.monotonic() < deadline:  # no open job: the heartbeat ends
        time.sleep(0.02)
    assert not runner.beating and store.get(job["id"])["status"] == "done"  # type: ignore[index]


def test_a_job_reported_failed_stays_failed_when_its_owner_resumes(tmp_path: Path) -> None:
    """Issue 24, item 12: a job reported failed ("interrupted") came back as done, with 100,000
    games of 300,000, once its stalled owner resumed. Ended is final (compare-and-set)."""
    store, _, held, job = _held_job(tmp_path, 300_000)  # the owner stalls until released
    with store.engine.begin() as conn:  # as another host sees it: silent for a minute
        conn.execute(
            jobs.update()
            .where(jobs.c.id == job["id"])
            .values(owner="another-host:1", status="running", games_done=100_000, beat=time.time() - 60)
        )
    failed = store.get(job["id"])
    assert failed is not None and failed["status"] == "failed"
    assert failed["error"].startswith("interrupted")
    held.set_result({"games": 300_000})  # the owner resumes and reports its result
    row = store.get(job["id"])
    assert row is not None
    assert (row["status"], store.result(job["id"]), row["error"]) == ("failed", None, failed["error"])
    assert row["ended"] == failed["ended"]


def test_a_cancelled_job_is_not_overwritten_by_a_late_result(tmp_path: Path) -> None:
    store = JobStore(f"sqlite:///{tmp_path / 'jobs.sqlite3'}", create=True)
    store.create("late", "sweep", 1000)
    store.finish("late", "cancelled", None, None)
    store.finish("late", "done", {"games": 1000}, None)
    store.finish("late", "failed", None, "RuntimeError: too late")
    row = store.get("late")
    assert row is not None and (row["status"], row["error"]) == ("cancelled", None)
    assert store.result("late") is None
    store.progress("late", 1000)  # progress after the end changes nothing either
    assert (store.get("late") or {})["games_done"] == 0


def test_a_result_that_is_not_valid_unicode_ends_the_job_failed(tmp_path: Path) -> None:
    """A result no database can store (a lone surrogate: issue 24, item 9) used to leave the
    job open for ever; it ends failed, saying why."""
    store, _, held, job = _held_job(tmp_path, 10)
    held.set_result({"variants": [{"label": "見本\ud800"}]})
    row = store.get(job["id"])
    assert row is not None and row["status"] == "failed" and store.result(job["id"]) is None
    assert "not valid Unicode" in row["error"] and "\\ud800" in row["error"]


def test_a_jobs_table_from_before_heartbeats_gets_the_columns(tmp_path: Path) -> None:
    """A jobs table an earlier deckcheck made (no heartbeat; the job's task in a column then
    called ``kind``) is brought up to date when the service starts, its rows kept."""
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old = JobStore(url)
    with old.engine.begin() as conn:  # the table as an earlier deckcheck created it
        conn.execute(
            text(
                "CREATE TABLE jobs (id VARCHAR(32) PRIMARY KEY, kind VARCHAR(20) NOT NULL, "
                "owner VARCHAR(200) NOT NULL, status VARCHAR(12) NOT NULL, games INTEGER NOT "
                "NULL, games_done INTEGER NOT NULL, cancel_requested BOOLEAN NOT NULL, result "
                "TEXT, error TEXT, created FLOAT NOT NULL, ended FLOAT)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO jobs VALUES ('old', 'goldfish', 'h:1', 'done', 5, 5, 0, NULL, "
                "NULL, 1.0, 2.0)"
            )
        )
    store = JobStore(url, create=True)
    store.create("new", "goldfish", 10)
    assert store.get("new")["beat"] is not None  # type: ignore[index]
    assert store.get("old")["status"] == "done"  # type: ignore[index]
    assert store.get("old")["task"] == "goldfish"  # type: ignore[index]
    assert store.get("new")["task"] == "goldfish"  # type: ignore[index]


# --- deckcheck serve --workers 2: two processes, one database -----------------------------


@contextmanager
def _serve(tmp_path: Path, database_url: str) -> Iterator[str]:
    port = free_port()
    env = {
        **os.environ,
        "DECKCHECK_DB": str(tmp_path / "pool.sqlite3"),
        "DECKCHECK_DATABASE_URL": database_url,
        "DECKCHECK_SYNC_GAMES": "10",
        "DECKCHECK_MAX_JOBS": "32",
        "DECKCHECK_WORKERS": "1",
        "DECKCHECK_QUEUE": "32",
        # the engines load when a job first plays: warming every game in each worker process
        # (serve's default; test_warm holds it) cost more than the jobs here (issue 35)
        "DECKCHECK_WARM": "0",
    }
    env.pop("DECKCHECK_DASK_SCHEDULER", None)
    log = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "deckcheck", "serve", "--workers", "2", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        # both worker processes up (uvicorn logs each one's start-up), not only the first to
        # answer: on a loaded machine the second may still be importing when the first answers
        deadline = time.monotonic() + HANG
        while (tmp_path / "serve.log").read_text().count("Application startup complete") < 2:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "the service did not start"
            time.sleep(0.3)
        assert _fresh("GET", f"{url}/health").status_code == 200
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=HANG)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


# httpx builds a TLS context (loading the CA bundle) for each client: 20 ms of CPU, which the
# few hundred clients of ``_fresh`` below spent (4.4 of a test's 15 s; issue 35). The URLs are
# plain HTTP; one context serves every client.
_TLS = ssl.create_default_context()


def _fresh(method: str, url: str, **kwargs: Any) -> httpx.Response:
    """One request on its own connection, so that either worker process may take it."""
    with httpx.Client(timeout=HANG, verify=_TLS) as client:
        return client.request(method, url, **kwargs)


def _all_done(url: str, ids: list[str]) -> None:
    pending = set(ids)
    seen: dict[str, Any] = {}
    deadline = time.monotonic() + HANG
    while pending and time.monotonic() < deadline:
        for job_id in sorted(pending):
            answer = _fresh("GET", f"{url}/jobs/{job_id}")
            assert answer.status_code == 200, answer.text  # whichever process answers
            state = seen[job_id] = answer.json()
            assert state["id"] == job_id, state
            assert state["status"] in ("queued", "running", "done"), state.get("error")
            if state["status"] == "done":
                assert _fresh("GET", f"{url}{state['result_url']}").json()["games"] == 60
                pending.discard(job_id)
        if pending:
            time.sleep(0.2)  # a round of polls at a time, not a busy loop the server must answer
    assert not pending, [seen.get(i) for i in sorted(pending)]


def _either_worker_answers(url: str, database_url: str) -> None:
    # the reference engine: these jobs test the job store shared by two processes, not the
    # batch engine, whose load (numba and the compiled engine, 0.7 CPU-s) each process with a
    # job paid (issue 35)
    body = {"deck": IRIS, "games": 60, "turns": 3, "engine": "reference"}

    def start(seed: int) -> str:
        answer = _fresh("POST", f"{url}/goldfish", json={**body, "seed": seed})
        assert answer.status_code == 202, answer.text
        return str(answer.json()["id"])

    store = JobStore(database_url)
    owners: set[str] = set()
    for burst in range(5):  # which process accepts a connection is the kernel's choice
        with ThreadPoolExecutor(8) as pool:  # at once, so both processes are busy taking them
            ids = list(pool.map(start, range(24 * burst, 24 * burst + 24)))
        owners |= {store.get(i)["owner"] for i in ids}  # type: ignore[index]
        _all_done(url, ids)  # before the next burst: at most MAX_JOBS open at once
        if len(owners) == 2:
            break
    assert len(owners) == 2, owners  # jobs were created through both workers
    # cancel through any process stops a job that another one runs
    big = _fresh("POST", f"{url}/goldfish", json={**body, "games": 1_000_000})
    job_id = big.json()["id"]
    for _ in range(4):
        assert _fresh("DELETE", f"{url}/jobs/{job_id}").status_code == 200
    with httpx.Client(timeout=HANG, verify=_TLS) as client:
        assert _done(client, f"{url}/jobs/{job_id}")["status"] == "cancelled"


def test_serve_with_two_workers_on_sqlite(tmp_path: Path) -> None:
    database_url = f"sqlite:///{tmp_path / 'service.sqlite3'}"
    with _serve(tmp_path, database_url) as url:
        _either_worker_answers(url, database_url)


def test_serve_with_two_workers_on_postgres(tmp_path: Path, postgres_url: str) -> None:
    with _serve(tmp_path, postgres_url) as url:
        _either_worker_answers(url, postgres_url)


# DECKCHECK_DASK_SCHEDULER, heavy jobs on a real cluster: tests/test_dask_cluster.py
