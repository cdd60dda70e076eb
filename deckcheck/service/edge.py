"""Limits at the edge, before a request reaches the app (issue 37, item 3): uvicorn's httptools
protocol with a cap on a request's head (the request line and headers, in bytes and in header
count: ``431``) and on the time its head may take to arrive (``408``).

httptools buffers a header until its end: 20 connections sending 50 MB of headers grew the
service by 1 GB and got 200. Here the bytes of a head still being read are counted as they
arrive, so a head is refused once it passes ``MAX_HEAD_BYTES`` and never buffered further; a
client that sends its head a byte at a time (slowloris) is cut off ``HEAD_SECONDS`` after its
request began, however often it sends. ``deckcheck serve`` runs uvicorn with this protocol
(``http=EdgeLimits``); the limits are outside the rulebooks (service hardening)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from deckcheck.i18n import _
from deckcheck.service.problems import BASE, MEDIA_TYPE, TITLES

MAX_HEAD_BYTES = 32 * 1024  # request line and headers; browsers send a few KB
MAX_HEADERS = 100
HEAD_SECONDS = 10.0  # from a request's first byte (or the connection's start) to its last header

REASONS = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}


def problem_bytes(status: int, problem: str, detail: str) -> bytes:
    """A whole HTTP/1.1 answer carrying a problem document; the connection closes after it."""
    body = json.dumps(
        {"type": BASE + problem, "title": _(TITLES[problem]), "status": status, "detail": detail},
        ensure_ascii=False,
    ).encode()
    head = (
        f"HTTP/1.1 {status} ".encode() + REASONS[status] + b"\r\n"
        b"content-type: " + MEDIA_TYPE.encode() + b"\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\n"
        b"connection: close\r\n\r\n"
    )
    return head + body


def too_large() -> bytes:
    detail = _(
        "the request's headers are over the limit of {size} bytes or {count} headers",
        size=f"{MAX_HEAD_BYTES:,}",
        count=MAX_HEADERS,
    )
    return problem_bytes(431, "headers-too-large", detail)  # i18n: machine


class EdgeLimits(HttpToolsProtocol):
    """``HttpToolsProtocol`` with the head limits above (class attributes, so a test may set
    shorter ones on a subclass)."""

    max_head_bytes = MAX_HEAD_BYTES
    max_headers = MAX_HEADERS
    head_seconds = HEAD_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True  # reading a request's head (or waiting for one)
        self._head_bytes = 0
        self._headers = 0
        self._head_timer: asyncio.TimerHandle | None = None
        self._refused = False
        self._boundary = False  # a head or a message began or ended in the chunk being read

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._boundary = False
        super().data_received(data)
        if self._in_head and not self._boundary and not self.transport.is_closing():
            # a chunk wholly inside a head not yet complete: httptools holds it, so it counts
            # (a chunk where a head or a message began or ended holds body bytes too: not
            # counted, a slack of one chunk)
            self._head_bytes += len(data)
            if self._head_bytes > self.max_head_bytes:
                self._answer(too_large())

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head, self._headers, self._refused = True, 0, False
        self._head_bytes, self._boundary = 0, True
        self._arm()

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers += 1
        self._head_bytes += len(name) + len(value)
        if self._headers > self.max_headers or self._head_bytes > self.max_head_bytes:
            self._refused = True  # answered once the head ends; kept no further
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head, self._boundary = False, True
        self._head_bytes = 0
        self._disarm()
        if not self._refused:
            super().on_headers_complete()
            return
        real, self.app = self.app, _refuse_headers  # uvicorn answers it as it answers an app
        try:
            super().on_headers_complete()
        finally:
            self.app = real

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head, self._boundary = True, True  # the next head, if the connection is kept
        self._head_bytes = 0

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_seconds, self._head_timeout)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timeout(self) -> None:
        self._head_timer = None
        if self._in_head and not self.transport.is_closing():
            detail = _(
                "the request's headers did not arrive within {n} s", n=f"{self.head_seconds:g}"
            )
            self._answer(problem_bytes(408, "head-timeout", detail))  # i18n: machine

    def _answer(self, answer: bytes) -> None:
        self._disarm()
        self.transport.write(answer)
        self.transport.close()


async def _refuse_headers(scope: Any, receive: Any, send: Any) -> None:
    """The app a request with too many headers gets instead of the service."""
    answer = too_large()
    _head, body = answer.split(b"\r\n\r\n", 1)
    await send(
        {
            "type": "http.response.start",
            "status": 431,
            "headers": [
                (b"content-type", MEDIA_TYPE.encode()),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
