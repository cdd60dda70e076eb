"""A worker process forked by the service holds none of the service's sockets (issue 24).

A forked worker used to inherit every connection the service had open at the fork. When the
service then closed an idle keep-alive connection, the worker's copy kept it open: no FIN went
out, the browser reused the connection for its next request, and nobody ever answered it. The
builder's "Compare copies" stayed at "Starting…" whenever a worker pool had forked while the
page was connected and the page then idled past uvicorn's keep-alive timeout."""

from __future__ import annotations

import multiprocessing
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES, HANG, serve_in_thread

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
KEEP_ALIVE = 1  # seconds: uvicorn closes a connection idle this long


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[object, int]]:
    app = create_app(Settings(db=tmp_path / "pool.sqlite3"))
    with serve_in_thread(app, timeout_keep_alive=KEEP_ALIVE) as port:
        yield app, port


def _health(port: int) -> bytes:
    return f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()


def _sockets(pid: int) -> set[str]:
    """The sockets process ``pid`` holds, past its standard streams (``socket:[inode]``)."""
    found = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:  # closed meanwhile
            continue
        if int(fd) > 2 and target.startswith("socket:"):
            found.add(target)
    return found


def test_a_connection_open_while_workers_fork_closes_when_idle(served: tuple[object, int]) -> None:
    _app, port = served
    # the processes this test's sweep forks (others of this test process are not its business)
    before = {p.pid for p in multiprocessing.active_children()}
    browser = socket.create_connection(("127.0.0.1", port))  # a page's keep-alive connection
    browser.settimeout(HANG)
    browser.sendall(_health(port))
    assert browser.recv(65536).startswith(b"HTTP/1.1 200")
    deck = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=HANG) as http:
        started = http.post(
            "/sweeps", json={"deck": deck, "vary": ["name:N1374=0..3"], "games": 100, "turns": 2}
        )
        assert started.status_code == 202, started.text  # the job pool forked its workers
        job = started.headers["Location"]
        deadline = time.monotonic() + HANG
        while http.get(job).json()["status"] in {"queued", "running"}:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    workers = [p.pid for p in multiprocessing.active_children() if p.pid not in before]
    assert workers, "the sweep ran in no worker process"
    ours = _sockets(os.getpid())
    for pid in workers:
        assert not _sockets(pid) & ours, f"worker {pid} holds the service's sockets"
    # the service closes the idle connection, and the page sees it closed: its next request
    # opens a new connection instead of waiting on this one forever
    # waited for, not slept on: a loaded machine may close it late, never not at all (before
    # the fix no worker let the FIN out, and this read hung until the guard)
    assert browser.recv(65536) == b""
