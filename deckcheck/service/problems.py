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
from deckcheck.i18n import N_, _, negotiate, override

BASE = "https://deckcheck.dev/problems/"
MEDIA_TYPE = "application/problem+json"

# Titles are translated when a problem is answered, into the request's language; ``type`` URIs
# (``BASE`` + the key) never change with it.
TITLES = {
    "malformed-json": N_("The request body is not valid JSON"),
    "invalid-request": N_("The request does not match the schema"),
    "unknown-format": N_("Unknown format"),
    "unknown-card": N_("Unknown card"),
    "not-found": N_("Not found"),
    "bad-deck": N_("The deck list cannot be used"),
    "bad-condition": N_("A condition cannot be read"),
    "unanswerable": N_("The question cannot be answered as asked"),
    "too-large": N_("The request body is too large"),
    "headers-too-large": N_("The request's headers are too large"),
    "head-timeout": N_("The request's headers came too slowly"),
    "limit-exceeded": N_("A limit is exceeded"),
    "too-many-jobs": N_("Too many jobs are running"),
    "busy": N_("The service is busy"),
    "worker-lost": N_("A worker process stopped"),
    "over-deadline": N_("The request took too long"),
    "not-ready": N_("The job has no result"),
    "precondition-failed": N_("The resource was changed by someone else"),
    "precondition-required": N_("If-Match is required"),
    "unauthorized": N_("An API key is required"),
    "forbidden": N_("The API key is not valid"),
    "not-owner": N_("The deck belongs to another key"),
    "method-not-allowed": N_("Method not allowed"),
    "unknown-game": N_("Unknown game"),
    "pool-unavailable": N_("The card database cannot be used"),
    "upstream": N_("Another service failed"),
    "internal": N_("Internal error"),
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

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole: a problem raised in a worker process comes back to be answered."""
        return (_problem, (self.status, self.problem, self.detail, self.headers, self.extra))


def _problem(
    status: int, problem: str, detail: str, headers: dict[str, str] | None, extra: dict[str, Any]
) -> Problem:
    return Problem(status, problem, detail, headers, **extra)


def field_problem(problem: str, detail: str, path: str, why: str | None = None) -> Problem:
    """A 422 ``problem`` that names the request field at fault (``path``: ``body.format``) and
    why (``why``; else the detail)."""
    return Problem(422, problem, detail, errors=[{"path": path, "message": why or detail}])


def over_limit(detail: str, limit: int, field: str, message: str | None = None) -> Problem:
    """The 422 of a request over one of the service's limits: it names the limit and the
    body field at fault (``message``: by default "over the limit")."""
    errors = [{"path": f"body.{field}", "message": message or _("over the limit")}]
    return Problem(422, "limit-exceeded", detail, limit=limit, errors=errors)  # i18n: machine


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
        "title": _(TITLES[problem]) if problem in TITLES else problem,
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
            names[form] = _("the card pool") if path == db else _("the deck store")
    for folder in (db.parent, db.parent.resolve(), db.parent.absolute()):
        names[str(folder)] = _("<data folder>")
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


# Pydantic's own words for the errors a request body meets most, in the catalogue so that a
# Japanese request reads them in Japanese; ``{field}``s are the error's ``ctx``. English keeps
# pydantic's message as it is (the same words, and any other error type).
_PYDANTIC = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_type": N_("Input should be a valid integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "string_type": N_("Input should be a valid string"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "bool_type": N_("Input should be a valid boolean"),
    "list_type": N_("Input should be a valid list"),
    "dict_type": N_("Input should be a valid dictionary"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "string_too_long": N_("String should have at most {max_length} characters"),
    "string_too_short": N_("String should have at least {min_length} characters"),
    "too_long": N_("The list should have at most {max_length} items"),
    "too_short": N_("The list should have at least {min_length} items"),
    "date_from_datetime_parsing": N_("Input should be a valid date"),
    "date_parsing": N_("Input should be a valid date"),
    "date_type": N_("Input should be a valid date"),
    "json_invalid": N_("The body is not valid JSON"),
    "literal_error": N_("Input should be {expected}"),
    "enum": N_("Input should be {expected}"),
}


# Starlette's details for a path or method it has no route for (the English stays as it is).
_STARLETTE = {"Not Found": N_("Not Found"), "Method Not Allowed": N_("Method Not Allowed")}


def pydantic_message(error: Any) -> str:
    """A validation error's message in the request's language (see ``_PYDANTIC``)."""
    text = str(error.get("msg", ""))
    template = _PYDANTIC.get(str(error.get("type", "")))
    if template is None or _(template) == template:  # English, or an untranslated entry
        return text
    ctx = {k: v if isinstance(v, str | int | float) else str(v)
           for k, v in (error.get("ctx") or {}).items()}
    try:
        return _(template, **ctx) if ctx else _(template)
    except (KeyError, IndexError):  # a context without the field the words name
        return text


def _invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    """A body or parameter the schema refuses: 400 for JSON that does not parse, else 422,
    each error with its path and pydantic's message in the request's language."""
    errors = [
        {
            "path": ".".join(str(p) for p in e.get("loc", ())),
            "message": pydantic_message(e),
            "type": e.get("type", ""),
        }
        for e in exc.errors()
    ]
    if any(e["type"] == "json_invalid" for e in errors):
        return problem_response(
            400,
            "malformed-json",  # i18n: machine
            _("the request body is not valid JSON"),
            request.url.path,
            errors=errors,
        )
    detail = "; ".join(f"{e['path']}: {e['message']}" for e in errors[:5])
    path = request.url.path
    problem = "invalid-request"  # i18n: machine
    return problem_response(422, problem, detail, path, errors=errors)


def install(app: FastAPI) -> None:
    @app.exception_handler(Problem)
    async def _problem(request: Request, exc: Problem) -> JSONResponse:
        detail = _public(request, exc.detail)
        return problem_response(
            exc.status, exc.problem, detail, request.url.path, exc.headers, **exc.extra
        )

    @app.exception_handler(DeckcheckError)
    async def _deckcheck(request: Request, exc: DeckcheckError) -> JSONResponse:
        # a card pool locked by another writer: free again in a moment, as for the decks'
        # database below (it answered 503 with no Retry-After; issue 37, item 5)
        locked = isinstance(exc, PoolError) and _transient(exc)
        return _library_error(request, exc, {"Retry-After": "1"} if locked else None)

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
        return _invalid_request(request, exc)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        problem = {
            404: "not-found",
            405: "method-not-allowed",
            413: "too-large",
            400: "malformed-json",
        }.get(exc.status_code, "invalid-request")
        detail = str(exc.detail)
        if detail in _STARLETTE:  # starlette's own words (the status phrase)
            detail = _(_STARLETTE[detail])
        return problem_response(exc.status_code, problem, detail, request.url.path)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover
        # Starlette answers this one outside every middleware: the language is the request's
        lang = negotiate(request.headers.get("accept-language"), request.query_params.get("lang"))
        with override(lang):
            response = problem_response(
                500, "internal", f"{type(exc).__name__}", request.url.path  # i18n: machine
            )
        response.headers["Content-Language"] = lang
        response.headers["Vary"] = "Accept-Language"
        return response
