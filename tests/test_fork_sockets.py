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
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from deckcheck.goldfish import run
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


def _response(sock: socket.socket) -> bytes:
    """One whole HTTP response (headers and a ``Content-Length`` body): a loaded machine
    may send the body in a segment of its own, which a later read would take for the
    answer to something else (a fresh-clone run beside another read it where the test
    waits for the end of the connection)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection ended inside the headers: {data!r}"
        data += chunk
    head, _sep, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "the connection ended inside the body"
        body += chunk
    return head + b"\r\n\r\n" + body


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
    assert _response(browser).startswith(b"HTTP/1.1 200")
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
    app = _app
    pools = (app.state.workers, app.state.jobs.workers)  # type: ignore[attr-defined]
    workers = [pid for pool in pools for pid in pool.processes()]
    workers += [p.pid for p in multiprocessing.active_children() if p.pid not in before]
    assert workers, "the sweep ran in no worker process"
    ours = _sockets(os.getpid())
    for pid in workers:
        assert not _sockets(pid) & ours, f"worker {pid} holds the service's sockets"
    # the service closes the idle connection, and the page sees it closed: its next request
    # opens a new connection instead of waiting on this one forever
    # waited for, not slept on: a loaded machine may close it late, never not at all (before
    # the fix no worker let the FIN out, and this read hung until the guard)
    assert browser.recv(65536) == b""


# goldfish's chunk as its worker processes run it, held while ``_HOLD`` exists: the workers
# forked and initialised as always (the socket drop is in their initializer), then wait without
# playing. They used to play 1,000,000 games meanwhile, two cores busy for as long as the test
# waited for the FIN (11.6 of the test's 12.8 CPU-s; issue 35).
_CHUNK = run._worker_chunk
_HOLD: Path | None = None  # set by the test before goldfish forks: the workers inherit it


def _held_chunk(*args: Any) -> Any:
    while _HOLD is not None and _HOLD.exists():
        time.sleep(0.02)
    return _CHUNK(*args)


def test_goldfish_workers_hold_none_of_a_serving_process_sockets(
    served: tuple[object, int],
    index: object,
    registry: object,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """goldfish's own worker pool (``--workers``, goldfish/run.py) forks from whatever process
    calls it: a server embedding deckcheck, or a pytest worker whose browser tests serve the
    page from a thread (a fresh-clone run hung in Compare copies). Its workers dropped no
    socket, so a keep-alive connection the server closed stayed open until they ended. The
    FIN must come while they still run (held before their first chunk: ``_held_chunk``)."""
    import threading

    from deckcheck import decklist
    from deckcheck.goldfish.policy import default_policy
    from deckcheck.goldfish.run import GoldfishRequest, goldfish

    _app, port = served
    before = {p.pid for p in multiprocessing.active_children()}
    browser = socket.create_connection(("127.0.0.1", port))
    browser.settimeout(HANG)
    browser.sendall(_health(port))
    assert _response(browser).startswith(b"HTTP/1.1 200")
    text = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    deck = decklist.parse(text, "vision-standard-legal.deck")
    fmt = registry.get(deck.format or "")  # type: ignore[attr-defined]
    # more chunks than workers (each holds one); each a moment of the reference engine
    req = GoldfishRequest(games=20_000, turns=1, seed=1, workers=2, engine="reference")
    policy = default_policy(fmt.game)
    stop = threading.Event()
    hold = tmp_path / "hold"
    hold.touch()
    monkeypatch.setattr(sys.modules[__name__], "_HOLD", hold)
    monkeypatch.setattr(run, "_worker_chunk", _held_chunk)

    def until_stopped(_games: int) -> None:
        """goldfish's progress: once the test has seen the FIN, its Ctrl-C (goldfish stops
        its workers and returns)."""
        if stop.is_set():
            raise KeyboardInterrupt

    args = (deck, fmt, index, policy, req, until_stopped)
    player = threading.Thread(target=goldfish, args=args, daemon=True)
    player.start()
    deadline = time.monotonic() + HANG
    while not (workers := [p.pid for p in multiprocessing.active_children() if p.pid not in before]):
        assert player.is_alive() and time.monotonic() < deadline, "goldfish forked no worker"
        time.sleep(0.01)
    assert browser.recv(65536) == b""  # the idle connection closed: the FIN came
    playing = [pid for pid in workers if os.path.exists(f"/proc/{pid}")]
    assert playing, "the FIN came only once goldfish's workers had ended: they held the socket"
    stop.set()
    hold.unlink()  # each worker plays the chunk it holds; the first one's progress stops the run
    player.join(HANG)
    assert not player.is_alive()
    while [pid for pid in workers if os.path.exists(f"/proc/{pid}")]:  # each ends its chunk
        assert time.monotonic() < deadline, "goldfish's workers did not end"
        multiprocessing.active_children()  # reaps the ended ones
        time.sleep(0.05)


def test_a_response_split_in_two_segments_is_read_whole() -> None:
    """What failed a fresh-clone run (issue 38): the health answer's body came in a segment of
    its own, the test's single read took only the headers, and its wait for the end of the
    connection read the body instead of the FIN."""
    import threading

    server, client = socket.socketpair()
    with server, client:
        client.settimeout(HANG)
        server.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n")

        def rest() -> None:
            time.sleep(0.05)  # the body in a segment of its own (not a deadline)
            server.sendall(b'{"ok":true}')
            server.shutdown(socket.SHUT_WR)

        sender = threading.Thread(target=rest)
        sender.start()
        assert _response(client).endswith(b'{"ok":true}')
        assert client.recv(65536) == b""  # the next read is the end, not the body
        sender.join()
