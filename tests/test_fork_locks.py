"""A worker pool started while another thread of the service imports a module still works
(issue 38: in a fresh-clone run, every job of one ``deckcheck serve`` worker stayed ``queued``
for 600 s).

A process forked while another of its threads holds a lock keeps that lock held, by a thread
it does not have. The service's pools start on the first heavy request, while the server's
other threads answer requests and import modules on first use (the goldfish, odds and pandas
paths are imported lazily). A worker forked in the middle of such an import waited for the
module's import lock forever, so every task sent to it stayed queued. The pools now fork
their workers when the service starts, before any request's thread runs (CPython's own
executor forks every worker at its first task for this reason, cpython#90622). Before that
change this test waited out its hang guard."""

from __future__ import annotations

import importlib
import sys
import threading
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import HANG

# Imported by a thread of the test and, through the pool, by a worker: its import blocks until
# the test opens the gate, so the worker's process starts while the thread holds the lock.
GATED = """
import pathlib, time
here = pathlib.Path(__file__).parent
(here / "started").touch()
while not (here / "open").exists():
    time.sleep(0.01)
VALUE = 42
"""


def _value_of(folder: str, module: str) -> int:
    """In a worker: import ``module`` from ``folder`` and read its value."""
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return int(importlib.import_module(module).VALUE)


@pytest.mark.parametrize("pool", ["requests", "jobs"])
def test_a_task_sent_while_a_thread_imports_runs(tmp_path: Path, pool: str) -> None:
    (tmp_path / "gated_import.py").write_text(GATED, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    importing = threading.Thread(target=importlib.import_module, args=("gated_import",))
    app = create_app(Settings(db=tmp_path / "pool.sqlite3"))
    workers = app.state.workers if pool == "requests" else app.state.jobs.workers
    try:
        with TestClient(app):  # the service has started
            importing.start()  # a request's thread imports a module on first use
            deadline = time.monotonic() + HANG  # hang guard only
            while not (tmp_path / "started").exists():
                assert time.monotonic() < deadline, "the thread never began its import"
                time.sleep(0.01)
            future = workers.submit(_value_of, str(tmp_path), "gated_import")
            (tmp_path / "open").touch()
            importing.join(HANG)
            assert future.result(timeout=HANG) == 42
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("gated_import", None)
