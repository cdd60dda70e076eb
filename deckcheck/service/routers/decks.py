"""``/decks``: saved decks (writes need an API key). Verdicts are computed on read."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from deckcheck import decklist
from deckcheck.formats import FormatError, FormatRegistry
from deckcheck.resolve import CardIndex
from deckcheck.service.deps import CardIndexDep, RegistryDep, RequireKey, StoreDep
from deckcheck.service.problems import Problem
from deckcheck.service.schemas import SavedDeckBody, format_of, parse_deck
from deckcheck.service.store import DeckStore
from deckcheck.validate import validate

router = APIRouter(prefix="/decks", tags=["saved decks"])


def _view(row: dict[str, Any], registry: FormatRegistry, index: CardIndex) -> dict[str, Any]:
    deck = decklist.parse(row["deck"], None)
    try:
        verdict: Any = validate(deck, registry.get(row["format"]), index).model_dump(mode="json")
    except FormatError as exc:  # a format removed since the deck was saved: still readable
        verdict = {"error": str(exc)}
    return {
        "id": row["id"],
        "name": row["name"],
        "format": row["format"],
        "deck": row["deck"],
        "created": row["created"].isoformat(),
        "updated": row["updated"].isoformat(),
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
        raise Problem(404, "not-found", f"no saved deck {deck_id!r}")
    return row


@router.post("", status_code=201, dependencies=[RequireKey])
def deck_create(
    body: SavedDeckBody, store: StoreDep, registry: RegistryDep, index: CardIndexDep
) -> dict[str, Any]:
    row = store.create(body.name, body.format, _stored_text(body, registry))
    return _view(row, registry, index)


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
    deck_id: str, store: StoreDep, registry: RegistryDep, index: CardIndexDep
) -> dict[str, Any]:
    return _view(_saved(store, deck_id), registry, index)


@router.put("/{deck_id}", dependencies=[RequireKey])
def deck_put(
    deck_id: str,
    body: SavedDeckBody,
    store: StoreDep,
    registry: RegistryDep,
    index: CardIndexDep,
) -> dict[str, Any]:
    _saved(store, deck_id)
    row = store.update(deck_id, body.name, body.format, _stored_text(body, registry))
    if row is None:  # deleted between the two statements
        raise Problem(404, "not-found", f"no saved deck {deck_id!r}")
    return _view(row, registry, index)


@router.delete("/{deck_id}", status_code=204, dependencies=[RequireKey])
def deck_delete(deck_id: str, store: StoreDep) -> Response:
    if not store.delete(deck_id):
        raise Problem(404, "not-found", f"no saved deck {deck_id!r}")
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
