"""The service's worker processes (issue 13): they end with `deckcheck serve` (forked workers
used to outlive it, holding its port), and API-key holders get further places in their queue."""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from deckcheck.service.workers import _init
from tests.conftest import EXAMPLES, HANG

psutil = pytest.importorskip("psutil")


def test_workers_end_with_the_server(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = Path(sys.executable).with_name("deckcheck")
    # the request workers are the point: serve's warm-up (a child process per game that loads
    # its engine, about 2 CPU-s each even from a warm cache) is test_warm's, as in test_jobs
    env = {**os.environ, "DECKCHECK_DB": str(tmp_path / "pool.sqlite3"), "DECKCHECK_WARM": "0"}
    server = subprocess.Popen(
        [str(exe), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + HANG
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{url}/health", timeout=10)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        deck = (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8")
        answer = httpx.post(
            f"{url}/odds", json={"deck": deck, "want": ["type:paradox>=1"]}, timeout=HANG
        )
        assert answer.status_code == 200, answer.text
        workers = psutil.Process(server.pid).children(recursive=True)
        assert workers  # the odds ran in worker processes
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=HANG)
    _, alive = psutil.wait_procs(workers, timeout=HANG)
    for process in alive:  # do not leave them behind even when the test fails
        process.kill()
    assert not alive


def _a_worker(service: int) -> None:
    """A pool worker's life as far as its start: ``_init``, then waiting for tasks (imported
    by the test's process: the forked child imports nothing)."""
    _init(0, None, service)
    time.sleep(HANG)


def test_a_worker_whose_service_ended_before_it_started_exits() -> None:
    """The service can end between forking a worker and the worker's start. The worker must
    compare its parent with the service's pid the service gave it, not with the parent it
    finds (by then init), or it waits for good (a loaded run left one, 2026-12-03)."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    worker = multiprocessing.get_context("fork").Process(target=_a_worker, args=(ended.pid,))
    worker.start()
    worker.join(HANG)
    alive = worker.is_alive()
    if alive:
        worker.kill()
    assert not alive and worker.exitcode == 0


def test_key_holders_have_further_queue_places(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from deckcheck.service.app import create_app
    from deckcheck.service.settings import Settings

    settings = Settings(db=tmp_path / "p.sqlite3", api_keys=("k1",), workers=1, queue=0)
    app = create_app(settings)
    deck = (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8")
    body = {"deck": deck, "want": ["type:paradox>=1"]}
    with TestClient(app, raise_server_exceptions=False) as http:
        workers = app.state.workers
        workers.in_flight = workers.capacity  # as if every worker and queue place were taken
        try:
            busy = http.post("/odds", json=body)
            wrong = http.post("/odds", json=body, headers={"Authorization": "Bearer nope"})
            keyed = http.post("/odds", json=body, headers={"Authorization": "Bearer k1"})
        finally:
            workers.in_flight = 0
    assert busy.status_code == 429 and busy.headers["Retry-After"]
    assert wrong.status_code == 429
    assert keyed.status_code == 200, keyed.text
    assert "security" not in app.openapi()["paths"]["/odds"]["post"]  # reads stay open
