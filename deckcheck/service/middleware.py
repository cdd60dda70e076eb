"""ASGI middleware that must act before FastAPI parses anything."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deckcheck.i18n import _, negotiate, override
from deckcheck.service.problems import problem_response
from deckcheck.text import find_surrogate


def scope_language(scope: Scope) -> str:
    """The language a request asks for: ``?lang=`` when it names one deckcheck has, else the
    best of ``Accept-Language``, else English (``deckcheck.i18n.negotiate``)."""
    header = dict(scope.get("headers") or []).get(b"accept-language", b"").decode("latin-1")
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [None])[0]
    return negotiate(header, query)


# Paths whose answer never depends on the language: files served as they are.
_FIXED = ("/static/", "/docs/assets/")


class HttpMiddleware:
    """An ASGI middleware of HTTP requests (``http``): any other scope it ``handles`` not
    (lifespan, websockets) goes to the app untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def handles(self, scope: Scope) -> bool:
        return bool(scope["type"] == "http")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.handles(scope):
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


class Language(HttpMiddleware):
    """Answers each request in its language: the language context variable is set around the
    app (so handlers, the exception handlers and the worker threads starlette copies the
    context into all write in it), and the answer says which language it is in
    (``Content-Language``, unless the endpoint set one: a job's result keeps its own) and that
    it depends on ``Accept-Language`` (``Vary``). Outermost, so that the other middleware's
    problem documents are translated too."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        lang = scope_language(scope)
        if str(scope.get("path", "")).startswith(_FIXED):
            with override(lang):
                await self.app(scope, receive, send)
            return

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                names = {name.lower() for name, _value in headers}
                if b"content-language" not in names:
                    headers.append((b"content-language", lang.encode()))
                vary = [v for n, v in headers if n.lower() == b"vary"]
                if not any(b"accept-language" in v.lower() for v in vary):
                    headers.append((b"vary", b"Accept-Language"))
                message = {**message, "headers": headers}
            await send(message)

        with override(lang):
            await self.app(scope, receive, send_with_language)


class BodyLimit(HttpMiddleware):
    """413 for bodies over the limit, decided from Content-Length before anything is parsed
    (and by counting, for chunked bodies)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        super().__init__(app)
        self.limit = limit

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        length = dict(scope.get("headers") or []).get(b"content-length")
        too_big = problem_response(
            413,
            "too-large",  # i18n: machine
            _("the body is over {n} bytes", n=self.limit),
            scope.get("path"),
        )
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await too_big(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    # Starlette's HTTPException, because FastAPI re-raises that one from its
                    # body parsing; anything else raised here it answers 400.
                    raise HTTPException(413, _("the body is over {n} bytes", n=self.limit))
            return message

        await self.app(scope, counted, send)


# A JSON escape of a surrogate (\ud800 to \udfff): only then can a body hold a lone one.
_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _lone_surrogate(body: bytes) -> tuple[str, str] | None:
    """Where the JSON body holds a lone surrogate, and which; None for any body that does not
    (or is not JSON at all: FastAPI answers that one)."""
    if not _ESCAPE.search(body):
        return None
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return find_surrogate(data)


class UnicodeCheck(HttpMiddleware):
    """422 for a JSON body with a lone surrogate (``"\\ud800"``): it is not Unicode text, and
    would otherwise fail wherever it is encoded (a 500, or a job that never ends). Runs inside
    ``BodyLimit``, so the body it reads whole is bounded."""

    def handles(self, scope: Scope) -> bool:
        return super().handles(scope) and scope.get("method") in ("POST", "PUT", "PATCH")

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        chunks, more = [], True
        try:
            while more:
                message = await receive()
                if message["type"] != "http.request":  # the client went away
                    return
                chunks.append(message.get("body", b""))
                more = message.get("more_body", False)
        except HTTPException as exc:  # from BodyLimit: a chunked body over the limit
            await problem_response(exc.status_code, "too-large", str(exc.detail))(  # i18n: machine
                scope, receive, send
            )
            return
        body = b"".join(chunks)
        found = _lone_surrogate(body)
        if found is not None:
            where, what = found
            detail = _(
                "{where}: not valid Unicode text (a lone surrogate, {what})",
                where=where,
                what=what,
            )
            errors = [{"path": where, "message": _("not valid Unicode text")}]
            path = scope.get("path")
            problem = "invalid-request"  # i18n: machine
            answer = problem_response(422, problem, detail, path, errors=errors)
            await answer(
                scope, receive, send
            )
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


# No inline script and no outside origin: an injected <script> or a hostile frame gets nothing.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
# Swagger UI sets style attributes from its scripts; its scripts stay same-origin files.
DOCS_CSP = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders(HttpMiddleware):
    """Content-Security-Policy, nosniff, Referrer-Policy and framing rules on every answer."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        policy = DOCS_CSP if str(scope.get("path", "")).startswith("/docs") else CSP

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                headers += [(b"content-security-policy", policy.encode()), *HEADERS]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
