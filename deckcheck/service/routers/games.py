"""``/games``: each game's card types, its own card columns, and the search filters it offers
as ``/cards`` query parameters (the shared ones its spec lists in ``search_fields``, then those
of its own columns and search hooks), so the web builder shows one game's filters and card
facts without naming it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from deckcheck import games
from deckcheck.pool.columns import game_columns
from deckcheck.pool.search import offered
from deckcheck.service.words import translated

router = APIRouter(prefix="/games", tags=["games"])


@router.get("")
def game_list() -> list[dict[str, Any]]:
    out = []
    for spec in games.specs():
        out.append(
            {
                "id": spec.id,
                "name": spec.name,
                "card_types": {k: list(v) for k, v in spec.card_types.items()},
                "filters": [
                    translated(f.describe(), ("label", "description")) for f in offered(spec.id)
                ],
                "columns": [
                    translated(
                        {
                            "name": c.name,
                            "type": c.type,
                            "label": c.heading,
                            "short": c.short,
                            "description": c.description,
                            "summary": c.summary,
                            "filter": c.filter,
                        },
                        ("label", "short", "description"),
                    )
                    for c in game_columns(spec.id).values()
                ],
            }
        )
    return out
