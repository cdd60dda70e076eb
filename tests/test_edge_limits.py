"""Limits at the edge (issue 37, item 3), on a real uvicorn server on 127.0.0.1 with
``deckcheck serve``'s protocol: a head over the size or count limit is 431 (50 MB of headers got
200 and grew the service by 1 GB), a head that trickles in is cut off (408), and ``/decks/``
redirects nowhere (its ``Location`` was built from the request's Host header)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from deckcheck.service.app import create_app
from deckcheck.service.edge import MAX_HEAD_BYTES, MAX_HEADERS, EdgeLimits
from deckcheck.service.settings import Settings
from tests.conftest import HANG, serve_in_thread


class QuickHead(EdgeLimits):
    head_seconds = 0.5  # the test waits for it; it measures nothing


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    app = create_app(Settings(db=tmp_path_factory.mktemp("edge") / "pool.sqlite3"))
    with serve_in_thread(app, http=QuickHead) as free:
        yield free


def _answer(conn: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    parts = []
    while chunk := conn.recv(65536):
        parts.append(chunk)
    return b"".join(parts)


def _connect(port: int) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", port))
    conn.settimeout(HANG)
    return conn


def _problem(answer: bytes) -> dict[str, object]:
    head, body = answer.split(b"\r\n\r\n", 1)
    assert b"application/problem+json" in head
    found: dict[str, object] = json.loads(body)
    return found


def test_an_ordinary_request_passes(port: int) -> None:
    with _connect(port) as conn:
        conn.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert _answer(conn).startswith(b"HTTP/1.1 200")


def test_a_huge_head_is_431_and_is_not_read_to_its_end(port: int) -> None:
    """50 MB of headers offered; the server answers 431 and closes after about the limit."""
    with _connect(port) as conn:
        conn.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        chunk = b"a" * 65536
        try:
            while sent < 50 * 1024 * 1024:
                conn.sendall(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused: the server closed the connection
        answer = _answer(conn)
    assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
    assert _problem(answer)["type"] == "https://deckcheck.dev/problems/headers-too-large"
    assert sent < 50 * 1024 * 1024  # it stopped reading long before the end


def test_too_many_headers_is_431(port: int) -> None:
    many = b"".join(b"X-H%d: 1\r\n" % i for i in range(MAX_HEADERS + 1))
    with _connect(port) as conn:
        conn.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
        answer = _answer(conn)
    assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
    assert str(MAX_HEADERS) in str(_problem(answer)["detail"])
    # one header under the limit in count and size is fine
    fine = b"".join(b"X-H%d: 1\r\n" % i for i in range(MAX_HEADERS - 2))
    with _connect(port) as conn:
        conn.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + fine + b"\r\n")
        assert _answer(conn).startswith(b"HTTP/1.1 200")
    assert len(fine) < MAX_HEAD_BYTES


def test_a_head_that_trickles_in_is_cut_off(port: int) -> None:
    """A byte now and then kept a connection (and its buffers) for ever (slowloris)."""
    with _connect(port) as conn:
        conn.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        answer = b""
        for _ in range(HANG * 10):  # one byte every 0.1 s until the server gives up
            try:
                conn.sendall(b"X")
            except (BrokenPipeError, ConnectionResetError):
                break
            time.sleep(0.1)
            conn.setblocking(False)
            try:
                answer += conn.recv(65536)
            except BlockingIOError:
                pass
            finally:
                conn.setblocking(True)
            if answer:
                break
        conn.settimeout(HANG)
        answer += _answer(conn)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert _problem(answer)["type"] == "https://deckcheck.dev/problems/head-timeout"


def test_no_redirect_is_built_from_the_host_header(tmp_path: Path) -> None:
    app = create_app(Settings(db=tmp_path / "pool.sqlite3", api_keys=("k",)))
    with TestClient(app, raise_server_exceptions=False) as http:
        answer = http.post(
            "/decks/",
            json={"name": "n", "format": "chaos-standard", "deck": "format: chaos-standard\n"},
            headers={"Authorization": "Bearer k", "Host": "evil.example"},
            follow_redirects=False,
        )
        assert answer.status_code == 404
        assert "location" not in answer.headers
        assert http.get("/formats/", follow_redirects=False).status_code == 404


def test_a_large_body_on_a_kept_connection_is_not_counted_as_a_head(port: int) -> None:
    """A 96 KB body read in several chunks: its last chunk was counted as the next request's
    head and answered 431 before the app answered the request."""
    body = json.dumps({"deck": "format: chaos-standard\n", "pad": "x" * 96_000}).encode()
    request = (
        b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    ) + body
    with _connect(port) as conn:
        for _ in range(3):  # kept alive: three in a row
            conn.sendall(request)
            head = b""
            while b"\r\n\r\n" not in head:
                head += conn.recv(65536)
            assert head.startswith(b"HTTP/1.1 422"), head[:200]  # "pad" is no field
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            rest = head.split(b"\r\n\r\n", 1)[1]
            while len(rest) < length:
                rest += conn.recv(65536)
