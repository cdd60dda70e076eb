"""``/decks``: saved decks (writes need an API key). Verdicts are computed on read (and kept
for the deck's version and the pool's). Each deck's ``ETag`` is its version; PUT and DELETE
honour ``If-Match`` (412 when stale, 428 when missing and ``require_if_match`` is set)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from deckcheck import decklist
from deckcheck.api import validate_capped
from deckcheck.format_registry import FormatRegistry
from deckcheck.formats import FormatError
from deckcheck.i18n import N_, _, current
from deckcheck.resolve import CardIndex
from deckcheck.service.deps import (
    CardIndexDep,
    RegistryDep,
    RequireKey,
    SettingsDep,
    StoreDep,
)
from deckcheck.service.problems import Problem
from deckcheck.service.schemas import SavedDeckBody, format_of, parse_deck
from deckcheck.service.settings import Settings
from deckcheck.service.store import DeckStore, Stale

router = APIRouter(prefix="/decks", tags=["saved decks"])
IfMatch = Annotated[
    str | None,
    Header(description=N_('The ETag of the version this write replaces, e.g. "3", or *.')),
]
# (id, version, index id, index version, language): a verdict's messages are in a language
_verdicts: dict[tuple[str, int, int, int, str], Any] = {}
_VERDICTS_KEPT = 512


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
    # (ASCII digits only: isdigit() also takes "²", which int() refuses)
    return {
        int(t[1:-1])
        for t in tags
        if 2 < len(t) < 20 and t[0] == t[-1] == '"' and t[1:-1].isascii() and t[1:-1].isdigit()
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


def _verdict(row: dict[str, Any], registry: FormatRegistry, index: CardIndex) -> Any:
    key = (row["id"], row["version"], id(index), index.version, current())
    verdict = _verdicts.get(key)
    if verdict is None:
        deck = decklist.parse(row["deck"], None)
        try:
            fmt = registry.resolve(row["format"], deck.date)
            # suggestions for the deck's first unknown names only, as /validate gives them
            verdict = validate_capped(deck, fmt, index).model_dump(mode="json")
        except FormatError as exc:  # a format removed since the deck was saved: still readable
            verdict = {"error": str(exc)}
        if len(_verdicts) >= _VERDICTS_KEPT:
            _verdicts.clear()
        _verdicts[key] = verdict
    return verdict


def _view(
    row: dict[str, Any], registry: FormatRegistry, index: CardIndex, response: Response
) -> dict[str, Any]:
    response.headers["ETag"] = _etag(row)
    verdict = _verdict(row, registry, index)
    return {
        "id": row["id"],
        "name": row["name"],
        "format": row["format"],
        "deck": row["deck"],
        "created": row["created"].isoformat(),
        "updated": row["updated"].isoformat(),
        "version": row["version"],
        "verdict": verdict,
    }


def _stored_text(body: SavedDeckBody, registry: FormatRegistry) -> str:
    """The text to store, once the deck and its format are known to be usable."""
    deck = parse_deck(body.deck)
    format_of(registry, body.format, deck)
    if isinstance(body.deck, str):
        return body.deck
    return decklist.print_text(deck)


def _saved(store: DeckStore, deck_id: str) -> dict[str, Any]:
    row = store.get(deck_id)
    if row is None:
        raise Problem(404, "not-found", _("no saved deck {deck!r}", deck=deck_id))  # i18n: machine
    return row


@router.post("", status_code=201, dependencies=[RequireKey])
def deck_create(
    body: SavedDeckBody,
    response: Response,
    store: StoreDep,
    registry: RegistryDep,
    index: CardIndexDep,
) -> dict[str, Any]:
    row = store.create(body.name, body.format, _stored_text(body, registry))
    response.headers["Location"] = f"/decks/{row['id']}"
    return _view(row, registry, index, response)


@router.get("")
def deck_list(
    store: StoreDep,
    format: Annotated[str | None, Query(max_length=100)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> list[dict[str, Any]]:
    return [
        {
            "id": r["id"],
            "name": r["name"],
            "format": r["format"],
            "updated": r["updated"].isoformat(),
        }
        for r in store.list(format, limit, offset)
    ]


@router.get("/{deck_id}")
def deck_get(
    deck_id: str, response: Response, store: StoreDep, registry: RegistryDep, index: CardIndexDep
) -> dict[str, Any]:
    return _view(_saved(store, deck_id), registry, index, response)


@router.put(
    "/{deck_id}",
    dependencies=[RequireKey],
    responses={
        412: {"description": "If-Match is stale"},
        428: {"description": "If-Match is required"},
    },
)
def deck_put(
    deck_id: str,
    body: SavedDeckBody,
    response: Response,
    settings: SettingsDep,
    store: StoreDep,
    registry: RegistryDep,
    index: CardIndexDep,
    if_match: IfMatch = None,
) -> dict[str, Any]:
    expected = _expected(if_match, settings)
    text = _stored_text(body, registry)
    try:
        row = store.update(deck_id, body.name, body.format, text, expected)
    except Stale as exc:
        raise _stale(deck_id, exc) from exc
    if row is None:  # never saved, or deleted meanwhile
        raise Problem(404, "not-found", _("no saved deck {deck!r}", deck=deck_id))  # i18n: machine
    return _view(row, registry, index, response)


@router.delete(
    "/{deck_id}",
    status_code=204,
    dependencies=[RequireKey],
    responses={
        412: {"description": "If-Match is stale"},
        428: {"description": "If-Match is required"},
    },
)
def deck_delete(
    deck_id: str, settings: SettingsDep, store: StoreDep, if_match: IfMatch = None
) -> Response:
    expected = _expected(if_match, settings)
    try:
        deleted = store.delete(deck_id, expected)
    except Stale as exc:
        raise _stale(deck_id, exc) from exc
    if not deleted:
        raise Problem(404, "not-found", _("no saved deck {deck!r}", deck=deck_id))  # i18n: machine
    return Response(status_code=204)


@router.get(
    "/{deck_id}/export",
    responses={200: {"content": {"text/plain": {}, "application/json": {}}}},
)
def deck_export(
    deck_id: str,
    store: StoreDep,
    as_: Annotated[Literal["text", "json"], Query(alias="as")] = "text",
) -> Response:
    row = _saved(store, deck_id)
    deck = decklist.parse(row["deck"], None)
    deck.format = deck.format or row["format"]
    if as_ == "json":
        return JSONResponse(decklist.to_json(deck))
    return PlainTextResponse(decklist.print_text(deck), media_type="text/plain; charset=utf-8")
