"""``/cards``: search the card pool, or fetch one card."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from deckcheck import games
from deckcheck.models import Card
from deckcheck.service.deps import CardsDep
from deckcheck.service.problems import Problem

router = APIRouter(prefix="/cards", tags=["cards"])


@router.get("")
def cards(
    store: CardsDep,
    game: games.KnownGame | None = None,  # an unknown game is a 422 naming the known ones
    q: Annotated[str | None, Query(max_length=200)] = None,
    type: Annotated[str | None, Query(max_length=40)] = None,
    title: Annotated[str | None, Query(max_length=200)] = None,
    os: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    max_level: Annotated[int | None, Query(ge=-1000, le=1000)] = None,
    max_cost: Annotated[int | None, Query(ge=-1000, le=1000)] = None,
    keyword: Annotated[str | None, Query(max_length=200)] = None,
    user: Annotated[str | None, Query(max_length=200)] = None,
    klass: Annotated[str | None, Query(alias="class", max_length=200)] = None,
    package: Annotated[str | None, Query(max_length=40)] = None,
    link: Annotated[str | None, Query(max_length=200)] = None,
    max_node: Annotated[int | None, Query(ge=-1000, le=1000)] = None,
    min_graze: Annotated[int | None, Query(ge=-1000, le=1000)] = None,
) -> list[Card]:
    if type is not None and not any(type in s.card_types for s in games.specs()):
        raise Problem(
            422,
            "invalid-request",
            f"unknown card type {type!r}",
            errors=[{"path": "query.type", "message": "unknown card type"}],
        )
    return store.search(
        game,
        q,
        type,
        title or os,
        limit=limit,
        offset=offset,
        max_level=max_level,
        max_cost=max_cost,
        keyword=keyword,
        user=user,
        package=package,
        link=link,
        max_node=max_node,
        min_graze=min_graze,
        **{"class": klass},
    )


@router.get("/{game}/{number}")
def card(game: str, number: str, store: CardsDep) -> Card:
    chosen = game if game in games.ids() else None
    if chosen is None:
        raise Problem(404, "unknown-card", f"unknown game {game!r}")
    found = store.get(chosen, number)
    if found is None:
        raise Problem(404, "unknown-card", f"no {game} card {number!r}")
    return found
