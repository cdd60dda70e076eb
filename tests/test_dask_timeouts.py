"""A Dask scheduler without workers (issue 24, item 8) used to hang ``sweep --scheduler``
silently, and the service's jobs with it: DELETE was ignored and new jobs got 429. Waiting for
the first worker now has a timeout (exit 2, or a failed job, naming it), and a service job
waiting on the cluster hears DELETE."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from deckcheck.cli import app as cli_app
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.cli_run import CliRunner
from tests.conftest import EXAMPLES, HANG, _wait_for, free_port

# skipped without the cluster extra; found, not imported: its import is the tests' own
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None, reason="distributed is not installed"
)

RAKUEN = EXAMPLES / "rakuen-standard-legal.deck"
SWEEP = {
    "deck": RAKUEN.read_text(encoding="utf-8"),
    "vary": ["name:SAMPLE-R-007=3..4"],
    "games": 400,
    "turns": 3,
}


@pytest.fixture(scope="module")
def empty_scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real scheduler that no worker ever joins, in a process of its own as a deployment
    runs it (one inside the test process left distributed's event loop to the next test's
    clients, and the next cluster job failed)."""
    port = free_port()
    log = (tmp_path_factory.mktemp("dask") / "scheduler.log").open("w")
    dask = str(Path(sys.executable).with_name("dask"))
    command = [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(
        [*command, "--dashboard-address", ":0"], stdout=log, stderr=log
    )
    try:
        _wait_for(port)
        yield f"tcp://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=HANG)
        log.close()


def _ended(http: TestClient, location: str) -> dict[str, Any]:
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        state: dict[str, Any] = http.get(location).json()
        if state["status"] not in ("queued", "running"):
            return state
        time.sleep(0.05)
    raise AssertionError(f"{location} did not end")


def test_sweep_on_a_scheduler_without_workers_exits_2_naming_the_timeout(
    empty_scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_DASK_WORKER_TIMEOUT", "0.5")
    args = ["sweep", str(RAKUEN), "--games", "200", "--scheduler", empty_scheduler]
    result = CliRunner().invoke(cli_app, [*args, "--db", str(tmp_path / "p.sqlite3")])
    assert result.exit_code == 2, result.output
    assert "no Dask worker joined" in result.stderr
    assert "0.5 s" in result.stderr and "DECKCHECK_DASK_WORKER_TIMEOUT" in result.stderr


@pytest.mark.parametrize("value", ["soon", "0", "-3", "inf"])
def test_a_bad_timeout_setting_is_exit_2(
    value: str, empty_scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_DASK_CONNECT_TIMEOUT", value)
    args = ["sweep", str(RAKUEN), "--games", "200", "--scheduler", empty_scheduler]
    result = CliRunner().invoke(cli_app, [*args, "--db", str(tmp_path / "p.sqlite3")])
    assert result.exit_code == 2, result.output
    assert "DECKCHECK_DASK_CONNECT_TIMEOUT" in result.stderr and "Traceback" not in result.output


def test_a_service_job_fails_when_no_worker_joins(empty_scheduler: str, tmp_path: Path) -> None:
    settings = Settings(
        db=tmp_path / "p.sqlite3", dask_scheduler=empty_scheduler, dask_worker_timeout=0.5
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as http:
        started = http.post("/sweeps", json=SWEEP)
        assert started.status_code == 202, started.text
        state = _ended(http, started.headers["location"])
        assert state["status"] == "failed", state
        assert "no Dask worker joined" in state["error"] and "0.5 s" in state["error"]


def test_a_service_job_waiting_for_a_worker_hears_delete(
    empty_scheduler: str, tmp_path: Path
) -> None:
    settings = Settings(
        db=tmp_path / "p.sqlite3",
        dask_scheduler=empty_scheduler,
        dask_worker_timeout=HANG * 10,  # only the cancel can end it
        max_jobs=1,
        sync_games=10,
    )
    body = {"deck": SWEEP["deck"], "games": 500, "turns": 3}
    with TestClient(create_app(settings), raise_server_exceptions=False) as http:
        started = http.post("/goldfish", json=body)
        assert started.status_code == 202, started.text
        location = started.headers["location"]
        assert http.delete(location).status_code == 200
        assert _ended(http, location)["status"] == "cancelled"
        # the place is free again: the next job is accepted, not 429
        again = http.post("/goldfish", json=body)
        assert again.status_code == 202, again.text
        http.delete(again.headers["location"])
        assert _ended(http, again.headers["location"])["status"] == "cancelled"


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never speaks (not a Dask scheduler, or a stuck
    one)."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:  # closed at the end of the test
                return
            held.append(conn)

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield int(server.getsockname()[1])
    finally:
        server.close()
        for conn in held:
            conn.close()


def test_a_scheduler_that_never_speaks_is_exit_2_naming_the_timeout(
    silent_port: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: distributed's Client waited for its handshake with no limit (past 60 s)."""
    monkeypatch.setenv("DECKCHECK_DASK_CONNECT_TIMEOUT", "0.5")
    scheduler = f"tcp://127.0.0.1:{silent_port}"
    args = ["sweep", str(RAKUEN), "--games", "200", "--scheduler", scheduler]
    result = CliRunner().invoke(cli_app, [*args, "--db", str(tmp_path / "p.sqlite3")])
    assert result.exit_code == 2, result.output
    assert "did not answer within 0.5 s" in result.stderr
    assert "DECKCHECK_DASK_CONNECT_TIMEOUT" in result.stderr


def test_a_service_job_on_a_silent_scheduler_fails_saying_so(
    silent_port: int, tmp_path: Path
) -> None:
    settings = Settings(
        db=tmp_path / "p.sqlite3",
        dask_scheduler=f"tcp://127.0.0.1:{silent_port}",
        dask_connect_timeout=0.5,
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as http:
        started = http.post("/sweeps", json=SWEEP)
        assert started.status_code == 202, started.text
        state = _ended(http, started.headers["location"])
    assert state["status"] == "failed" and "did not answer" in state["error"]
