"""ASGI middleware that must act before FastAPI parses anything."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deckcheck.service.problems import Problem, problem_response


class BodyLimit:
    """413 for bodies over the limit, decided from Content-Length before anything is parsed
    (and by counting, for chunked bodies)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        too_big = problem_response(
            413, "too-large", f"the body is over {self.limit} bytes", scope.get("path")
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
                    raise Problem(413, "too-large", f"the body is over {self.limit} bytes")
            return message

        await self.app(scope, counted, send)
