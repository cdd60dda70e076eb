"""``/cards``: search the card pool, or fetch one card."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from deckcheck import plugins
from deckcheck.i18n import _
from deckcheck.models import Card
from deckcheck.pool.search import FilterError
from deckcheck.service.deps import CardsDep
from deckcheck.service.problems import Problem

router = APIRouter(prefix="/cards", tags=["cards"])


# The query parameters of GET /cards itself; any other is a search filter (see ``cards``).
_OWN = frozenset({"game", "q", "type", "limit", "offset", "samples", "total"})
_FILTER_TEXT_MAX = 200  # characters: no card column is longer


@router.get("")
def cards(
    request: Request,
    response: Response,
    store: CardsDep,
    game: plugins.KnownGame | None = None,  # an unknown game is a 422 naming the known ones
    q: Annotated[str | None, Query(max_length=200)] = None,
    type: Annotated[str | None, Query(max_length=40)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    samples: bool = False,
    total: bool = False,
) -> list[Card]:
    """Search the cards. Every other query parameter is a search filter, as ``GET /games``
    lists them: the shared columns' (``keyword``, ``max_level``, ``max_cost``, ``kind``) and
    each game's own (a game's filter finds only that game's cards). An unknown filter, or a
    value it cannot take, is a 422. A game with real cards hides its sample cards
    (``SAMPLE-…``) unless ``samples=true``. ``total=true``: the ``X-Total-Count`` header
    says how many cards the search finds in all (a pager's total; the body stays a list)."""
    if type is not None and not any(type in s.cards.card_types for s in plugins.specs()):
        raise _bad("type", _("unknown card type {type!r}", type=type))
    filters: dict[str, str | int | None] = {}
    for key, value in request.query_params.multi_items():
        if key in _OWN:
            continue
        if len(value) > _FILTER_TEXT_MAX:
            raise _bad(key, _("at most {n} characters", n=_FILTER_TEXT_MAX))
        filters[key] = value
    try:
        found = store.search(game, q, type, limit=limit, offset=offset, samples=samples, **filters)
        if total:
            count = store.count(game, q, type, samples=samples, **filters)
            response.headers["X-Total-Count"] = str(count)
        return found
    except FilterError as exc:
        raise _bad("filters", str(exc)) from exc


def _bad(where: str, message: str) -> Problem:
    errors = [{"path": f"query.{where}", "message": message}]
    return Problem(422, "invalid-request", message, errors=errors)  # i18n: machine


@router.get("/{game}/{number}")
def card(game: str, number: str, store: CardsDep) -> Card:
    chosen = game if game in plugins.ids() else None
    if chosen is None:
        raise Problem(404, "unknown-card", _("unknown game {game!r}", game=game))  # i18n: machine
    found = store.get(chosen, number)
    if found is None:
        detail = _("no {game} card {number!r}", game=game, number=number)
        raise Problem(404, "unknown-card", detail)  # i18n: machine
    return found
