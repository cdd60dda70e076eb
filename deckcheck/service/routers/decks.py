"""``/decks``: saved decks (writes need an API key). Verdicts are computed on read (and kept
for the deck's version and the pool's). Each deck's ``ETag`` is its version; PUT and DELETE
honour ``If-Match`` (412 when stale, 428 when missing and ``require_if_match`` is set).

A deck belongs to the key that created it: only that key or an admin key changes or deletes it
(OWASP API1, object-level authorisation). A deck another key may not read is 404, exactly as one
that does not exist, so ids cannot be probed; one it may read but not change is 403."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.concurrency import run_in_threadpool

from deckcheck import decklist
from deckcheck.api import validate_capped
from deckcheck.formats import FormatError
from deckcheck.formats.registry import FormatRegistry
from deckcheck.i18n import N_, _, current
from deckcheck.memo import ENTRY, ByteMemo
from deckcheck.resolve import CardIndex
from deckcheck.service.deps import (
    Caller,
    CallerDep,
    CardIndexDep,
    KeyDep,
    RegistryDep,
    SettingsDep,
    StoreDep,
)
from deckcheck.service.problems import Problem
from deckcheck.service.schemas import SavedDeckBody, format_of, parse_deck
from deckcheck.service.settings import Settings
from deckcheck.service.store import DeckStore, NotOwner, Stale
from deckcheck.service.validating import checks_of

router = APIRouter(prefix="/decks", tags=["saved decks"])
IfMatch = Annotated[
    str | None,
    Header(description=N_('The ETag of the version this write replaces, e.g. "3", or *.')),
]
# (id, version, index id, index version, language) -> the verdict's JSON (its messages are in
# a language), bounded in bytes as the other memos of a request path are
VERDICT_BYTES = 16 << 20
_verdicts: ByteMemo[tuple[str, int, int, int, str], bytes] = ByteMemo(
    VERDICT_BYTES, lambda _key, verdict: len(verdict) + ENTRY
)


def _etag(row: dict[str, Any]) -> str:
    return f'"{row["version"]}"'


def _expected(if_match: str | None, settings: Settings) -> set[int] | None:
    """The versions ``If-Match`` allows; None for any (``*``, or no header when allowed)."""
    if if_match is None:
        if settings.require_if_match:
            detail = _("send If-Match with the deck's ETag")
            raise Problem(428, "precondition-required", detail)  # i18n: machine
        return None
    tags = [t.strip() for t in if_match.split(",")]
    if "*" in tags:
        return None
    # strong comparison (RFC 9110 §13.1.1): weak tags and anything but a version match nothing
    # (ASCII digits only: isdigit() also takes "²", which int() refuses), and only the tag
    # as the service writes it: "01" is not "1" (an entity tag is compared as a string)
    return {
        int(t[1:-1])
        for t in tags
        if 2 < len(t) < 20
        and t[0] == t[-1] == '"'
        and t[1:-1].isascii()
        and t[1:-1].isdigit()
        and str(int(t[1:-1])) == t[1:-1]
    }


def _stale(deck_id: str, exc: Stale) -> Problem:
    return Problem(
        412,
        "precondition-failed",  # i18n: machine
        _(
            "deck {deck!r} was changed by someone else (it is at version {version}); "
            "read it again and reapply your change",
            deck=deck_id,
            version=exc.version,
        ),
        etag=f'"{exc.version}"',
    )


def _missing(deck_id: str) -> Problem:
    return Problem(404, "not-found", _("no saved deck {deck!r}", deck=deck_id))  # i18n: machine


def _not_owner(deck_id: str, exc: NotOwner) -> Problem:
    if exc.visibility == "private":  # another key's private deck: as if it did not exist
        return _missing(deck_id)
    detail = _("deck {deck!r} belongs to another API key; save a copy of your own", deck=deck_id)
    return Problem(403, "not-owner", detail)  # i18n: machine


def _readable(row: dict[str, Any], caller: Caller) -> bool:
    return (
        caller.admin
        or row["visibility"] != "private"
        or (caller.owner is not None and row["owner"] == caller.owner)
    )


def _writer(caller: Caller) -> str | None:
    """The owner a write must match; None (any) for an admin key."""
    return None if caller.admin else caller.owner


def _check(saved: tuple[str, str], registry: FormatRegistry, index: CardIndex) -> bytes:
    """A saved deck's verdict as JSON, worked out in a deck-check lane as ``/validate``'s is:
    suggestions for the deck's first unknown names only."""
    text, format_id = saved
    deck = decklist.parse(text, None)
    try:
        fmt = registry.resolve(format_id, deck.date)
    except FormatError as exc:  # a format removed since the deck was saved: still readable
        return json.dumps({"error": str(exc)}, ensure_ascii=False).encode()
    return validate_capped(deck, fmt, index).model_dump_json().encode()


async def _verdict(
    request: Request, row: dict[str, Any], registry: FormatRegistry, index: CardIndex
) -> bytes:
    """The verdict, kept for the deck's version, the pool's and the language; else checked in
    the lane its work calls for (a long deck: the check process), never in a request thread
    (issue 37: saved near-miss decks read past the cache cost /health 227-295 ms)."""
    key = (row["id"], row["version"], id(index), index.version, current())
    verdict = _verdicts.get(key)
    if verdict is None:
        lane = checks_of(request.app.state, row["deck"])
        checked = await lane.run(_check, (row["deck"], row["format"]), registry, index)
        verdict = _verdicts.put(key, checked)
    return verdict


async def _view(
    request: Request,
    row: dict[str, Any],
    registry: FormatRegistry,
    index: CardIndex,
    caller: Caller,
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> Response:
    """The deck and its verdict, whose JSON goes in as it was kept (never parsed again)."""
    verdict = await _verdict(request, row, registry, index)
    head = {
        "id": row["id"],
        "name": row["name"],
        "format": row["format"],
        "visibility": row["visibility"],
        "yours": _mine(row, caller),
        "deck": row["deck"],
        "created": row["created"].isoformat(),
        "updated": row["updated"].isoformat(),
        "version": row["version"],
    }
    body = json.dumps(head, ensure_ascii=False)[:-1].encode() + b', "verdict": ' + verdict + b"}"
    headers = {"ETag": _etag(row), **(headers or {})}
    return Response(body, status_code=status, media_type="application/json", headers=headers)


def _stored_text(body: SavedDeckBody, registry: FormatRegistry) -> str:
    """The text to store, once the deck and its format are known to be usable."""
    deck = parse_deck(body.deck)
    format_of(registry, body.format, deck)
    if isinstance(body.deck, str):
        return body.deck
    return decklist.print_text(deck)


def _mine(row: dict[str, Any], caller: Caller) -> bool:
    return caller.owner is not None and row["owner"] == caller.owner


def _saved(store: DeckStore, deck_id: str, caller: Caller) -> dict[str, Any]:
    row = store.get(deck_id)
    if row is None or not _readable(row, caller):
        raise _missing(deck_id)
    return row


@router.post("", status_code=201, response_model=None)
async def deck_create(
    request: Request,
    body: SavedDeckBody,
    caller: KeyDep,
    store: StoreDep,
    registry: RegistryDep,
    index: CardIndexDep,
) -> Response:
    text = await run_in_threadpool(_stored_text, body, registry)
    visibility = body.visibility or "private"
    row = await run_in_threadpool(
        store.create, body.name, body.format, text, caller.owner, visibility
    )
    location = {"Location": f"/decks/{row['id']}"}  # a path: never built from the Host header
    return await _view(request, row, registry, index, caller, 201, location)


@router.get("")
def deck_list(
    store: StoreDep,
    caller: CallerDep,
    format: Annotated[str | None, Query(max_length=100)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> list[dict[str, Any]]:
    """Public decks and the caller's own (with an admin key, every deck)."""
    rows = store.list(format, limit, offset, owner=caller.owner, everyone=caller.admin)
    return [
        {
            "id": r["id"],
            "name": r["name"],
            "format": r["format"],
            "visibility": r["visibility"],
            "yours": _mine(r, caller),
            "updated": r["updated"].isoformat(),
        }
        for r in rows
    ]


@router.get("/{deck_id}", response_model=None)
async def deck_get(
    request: Request,
    deck_id: str,
    caller: CallerDep,
    store: StoreDep,
    registry: RegistryDep,
    index: CardIndexDep,
) -> Response:
    row = await run_in_threadpool(_saved, store, deck_id, caller)
    return await _view(request, row, registry, index, caller)


@router.put(
    "/{deck_id}",
    response_model=None,
    responses={
        403: {"description": "The deck belongs to another key"},
        412: {"description": "If-Match is stale"},
        428: {"description": "If-Match is required"},
    },
)
async def deck_put(
    request: Request,
    deck_id: str,
    body: SavedDeckBody,
    caller: KeyDep,
    settings: SettingsDep,
    store: StoreDep,
    registry: RegistryDep,
    index: CardIndexDep,
    if_match: IfMatch = None,
) -> Response:
    expected = _expected(if_match, settings)
    text = await run_in_threadpool(_stored_text, body, registry)
    try:
        row = await run_in_threadpool(
            store.update,
            deck_id,
            body.name,
            body.format,
            text,
            expected,
            _writer(caller),
            body.visibility,
        )
    except NotOwner as exc:
        raise _not_owner(deck_id, exc) from exc
    except Stale as exc:
        raise _stale(deck_id, exc) from exc
    if row is None:  # never saved, or deleted meanwhile
        raise _missing(deck_id)
    return await _view(request, row, registry, index, caller)


@router.delete(
    "/{deck_id}",
    status_code=204,
    responses={
        403: {"description": "The deck belongs to another key"},
        412: {"description": "If-Match is stale"},
        428: {"description": "If-Match is required"},
    },
)
def deck_delete(
    deck_id: str, caller: KeyDep, settings: SettingsDep, store: StoreDep, if_match: IfMatch = None
) -> Response:
    expected = _expected(if_match, settings)
    try:
        deleted = store.delete(deck_id, expected, _writer(caller))
    except NotOwner as exc:
        raise _not_owner(deck_id, exc) from exc
    except Stale as exc:
        raise _stale(deck_id, exc) from exc
    if not deleted:
        raise _missing(deck_id)
    return Response(status_code=204)


@router.get(
    "/{deck_id}/export",
    responses={200: {"content": {"text/plain": {}, "application/json": {}}}},
)
def deck_export(
    deck_id: str,
    store: StoreDep,
    caller: CallerDep,
    as_: Annotated[Literal["text", "json"], Query(alias="as")] = "text",
) -> Response:
    row = _saved(store, deck_id, caller)
    deck = decklist.parse(row["deck"], None)
    deck.format = deck.format or row["format"]
    if as_ == "json":
        return JSONResponse(decklist.to_json(deck))
    return PlainTextResponse(decklist.print_text(deck), media_type="text/plain; charset=utf-8")
