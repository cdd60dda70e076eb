"""RFC 9457 problem details: every error the service returns, with a stable ``type`` URI."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from deckcheck.errors import DeckcheckError, PoolError, as_user_error

BASE = "https://deckcheck.dev/problems/"
MEDIA_TYPE = "application/problem+json"

TITLES = {
    "malformed-json": "The request body is not valid JSON",
    "invalid-request": "The request does not match the schema",
    "unknown-format": "Unknown format",
    "unknown-card": "Unknown card",
    "not-found": "Not found",
    "bad-deck": "The deck list cannot be used",
    "bad-condition": "A condition cannot be read",
    "unanswerable": "The question cannot be answered as asked",
    "too-large": "The request body is too large",
    "limit-exceeded": "A limit is exceeded",
    "too-many-jobs": "Too many jobs are running",
    "busy": "The service is busy",
    "precondition-failed": "The resource was changed by someone else",
    "precondition-required": "If-Match is required",
    "unauthorized": "An API key is required",
    "forbidden": "The API key is not valid",
    "method-not-allowed": "Method not allowed",
    "unknown-game": "Unknown game",
    "pool-unavailable": "The card database cannot be used",
    "upstream": "Another service failed",
    "internal": "Internal error",
}


class Problem(Exception):
    """Raise to answer with a problem document."""

    def __init__(
        self,
        status: int,
        problem: str,
        detail: str,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status, self.problem, self.detail, self.extra = status, problem, detail, extra
        self.headers = headers


def over_limit(detail: str, limit: int, field: str, message: str = "over the limit") -> Problem:
    """The 422 of a request over one of the service's limits: it names the limit and the
    body field at fault."""
    errors = [{"path": f"body.{field}", "message": message}]
    return Problem(422, "limit-exceeded", detail, limit=limit, errors=errors)


def problem_response(
    status: int,
    problem: str,
    detail: str,
    instance: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    body: dict[str, Any] = {
        "type": BASE + problem,
        "title": TITLES.get(problem, problem),
        "status": status,
        "detail": detail,
    }
    if instance:
        body["instance"] = instance
    body.update(extra)
    headers = dict(headers or {})
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


def without_paths(text: str, db: Path) -> str:
    """``text`` without the server's file paths: the card pool, the saved decks beside it and
    their folder. Pool errors name the file, which helps on the command line but tells an
    HTTP client how the server is laid out."""
    names: dict[str, str] = {}
    for path in (db, db.with_suffix(".decks.sqlite3")):
        for form in (str(path), str(path.resolve()), str(path.absolute())):
            names[form] = "the card pool" if path == db else "the deck store"
    for folder in (db.parent, db.parent.resolve(), db.parent.absolute()):
        names[str(folder)] = "<data folder>"
    for form in sorted(names, key=len, reverse=True):  # a file before the folder holding it
        if len(form) > 1:
            text = text.replace(form, names[form])
    return text


def _public(request: Request, text: str) -> str:
    settings = getattr(request.app.state, "settings", None)
    return without_paths(text, Path(settings.db)) if settings is not None else text


def _library_error(
    request: Request, exc: DeckcheckError, headers: dict[str, str] | None = None
) -> JSONResponse:
    # the one mapping of library errors: each class carries its status and problem type
    detail = _public(request, str(exc))
    return problem_response(exc.http_status, exc.problem, detail, request.url.path, headers)


def _transient(exc: Exception) -> bool:
    """A locked or busy database (another process writes), which a retry gets past; not a
    damaged or missing one."""
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def install(app: FastAPI) -> None:
    @app.exception_handler(Problem)
    async def _problem(request: Request, exc: Problem) -> JSONResponse:
        detail = _public(request, exc.detail)
        return problem_response(
            exc.status, exc.problem, detail, request.url.path, exc.headers, **exc.extra
        )

    @app.exception_handler(DeckcheckError)
    async def _deckcheck(request: Request, exc: DeckcheckError) -> JSONResponse:
        return _library_error(request, exc)

    # Database trouble is a 503, not a bug. Registered by type so that Starlette answers it
    # like any handled error (a handler for Exception itself would also log a traceback).
    @app.exception_handler(sqlite3.Error)
    @app.exception_handler(SQLAlchemyError)
    async def _database(request: Request, exc: Exception) -> JSONResponse:
        # a database busy with another writer is free again in a moment (RFC 9110 §10.2.3)
        retry = {"Retry-After": "1"} if _transient(exc) else None
        return _library_error(request, as_user_error(exc) or PoolError(str(exc)), retry)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {
                "path": ".".join(str(p) for p in e.get("loc", ())),
                "message": e.get("msg", ""),
                "type": e.get("type", ""),
            }
            for e in exc.errors()
        ]
        if any(e["type"] == "json_invalid" for e in errors):
            return problem_response(
                400,
                "malformed-json",
                "the request body is not valid JSON",
                request.url.path,
                errors=errors,
            )
        detail = "; ".join(f"{e['path']}: {e['message']}" for e in errors[:5])
        return problem_response(422, "invalid-request", detail, request.url.path, errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        problem = {
            404: "not-found",
            405: "method-not-allowed",
            413: "too-large",
            400: "malformed-json",
        }.get(exc.status_code, "invalid-request")
        return problem_response(exc.status_code, problem, str(exc.detail), request.url.path)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover
        return problem_response(500, "internal", f"{type(exc).__name__}", request.url.path)
