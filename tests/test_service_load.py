"""Heavy work never takes the service hostage (issue 13, item 3): it runs in worker processes
with a bounded queue (429 + Retry-After when full), synchronous work is capped, and ended jobs
are evicted after their time to live. No wall-clock limits here (issue 20, item 6)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from deckcheck.service import tasks
from deckcheck.service.app import create_app
from deckcheck.service.jobs import Jobs
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES, HANG

play_goldfish = tasks.goldfish  # the real one, for the held stand-in below
DECK = (EXAMPLES / "iris-standard-legal.deck").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    db = tmp_path_factory.mktemp("load") / "pool.sqlite3"
    settings = Settings(
        db=db, sync_games=50_000, job_games=200_000, max_jobs=2, workers=1, queue=1,
        sync_simulate=10_000, job_ttl=60,
    )
    return create_app(settings)


@pytest.fixture(scope="module")
def http(service: FastAPI) -> Iterator[TestClient]:
    with TestClient(service, raise_server_exceptions=False) as client:
        yield client


def _playing_until(started: str, release: str, *args: Any) -> dict[str, Any]:
    """``tasks.goldfish`` in a worker process, played over and over until the test releases
    it: the worker is busy for as long as the test needs."""
    Path(started).touch()
    deadline = time.monotonic() + HANG  # only against a test that never releases it
    result = play_goldfish(*args)
    while not os.path.exists(release) and time.monotonic() < deadline:
        result = play_goldfish(*args)
    return result


def test_health_answers_while_goldfish_plays(
    http: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """/health is answered while a goldfish request is still playing in a worker process.
    An order, not a time: how fast it answers under load is ``benchmarks/load.py``'s figure
    (p99 with two goldfish jobs running)."""
    started, release = tmp_path / "started", tmp_path / "release"
    monkeypatch.setattr(tasks, "goldfish", partial(_playing_until, str(started), str(release)))
    body = {"deck": DECK, "games": 2_000, "turns": 10}
    answer: list[int] = []
    heavy = threading.Thread(target=lambda: answer.append(http.post("/goldfish", json=body).status_code))
    heavy.start()
    try:
        deadline = time.monotonic() + HANG
        while not started.exists():
            assert time.monotonic() < deadline and heavy.is_alive(), answer
            time.sleep(0.01)
        assert http.get("/health").status_code == 200
        assert heavy.is_alive() and answer == []  # the goldfish plays on
    finally:
        release.touch()
        heavy.join(timeout=HANG)
    assert answer == [200]


def test_a_full_queue_is_429_with_retry_after(http: TestClient) -> None:
    body = {"deck": DECK, "games": 20_000, "turns": 10}
    with_threads: list[int] = []
    retry: list[str | None] = []

    def post() -> None:
        response = http.post("/goldfish", json=body)
        with_threads.append(response.status_code)
        retry.append(response.headers.get("Retry-After"))

    threads = [threading.Thread(target=post) for _ in range(4)]  # 1 worker + 1 queued fit
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=HANG)
    assert sorted(with_threads).count(200) >= 1 and 429 in with_threads
    assert all(r is not None for s, r in zip(with_threads, retry, strict=True) if s == 429)


def test_odds_simulation_is_capped(http: TestClient) -> None:
    body = {"deck": DECK, "want": ["count>=1"], "simulate": 2_000_000}
    answer = http.post("/odds", json=body)
    assert answer.status_code == 422 and answer.json()["type"].endswith("limit-exceeded")


def test_ended_jobs_are_evicted(service: FastAPI, http: TestClient) -> None:
    body = {"deck": DECK, "games": 60_000, "turns": 3}
    started = http.post("/goldfish", json=body)
    assert started.status_code == 202
    job_id = started.json()["id"]
    assert http.delete(f"/jobs/{job_id}").json()["id"] == job_id
    jobs: Jobs = service.state.jobs
    assert jobs.wait(job_id, timeout=HANG) is not None
    assert http.get(f"/jobs/{job_id}").json()["status"] == "cancelled"
    jobs.evict(now=time.time() + 61)  # wall clock: rows are shared across hosts
    assert http.get(f"/jobs/{job_id}").status_code == 404


def test_workers_outlive_a_closed_client(tmp_path: Path) -> None:
    app = create_app(Settings(db=tmp_path / "p.sqlite3", workers=1, queue=0))
    for _ in range(2):  # the lifespan ends the workers; the next client starts new ones
        with TestClient(app) as client:
            body = {"deck": DECK, "games": 10, "turns": 2}
            assert client.post("/goldfish", json=body).status_code == 200
