"""``/games``: each game's card types and the search filters its spec offers (``search_fields``),
as ``/cards`` query parameters, so the web builder shows one game's filters without naming it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from deckcheck import games
from deckcheck.pool.columns import FILTERS

router = APIRouter(prefix="/games", tags=["games"])

# how each comparison reads in a label
_SUFFIX = {"max": " at most", "min": " at least"}
_LABELS = {
    "title": "Title / OS",
    "type": "Type",
    "keywords": "Keyword",
    "package": "Set",
    "node": "Node (必要ノード)",
    "cost": "Cost",
    "user": "User (術者)",
    "klass": "Class (種族)",
    "graze": "Graze",
    "level": "Level",
    "link": "Union link (連結)",
}


def _filter(field: str) -> dict[str, Any] | None:
    """A spec's search field as the ``/cards`` parameter that filters it, or None if none does.
    ``title`` and ``os`` share the ``title`` parameter (either name finds the chaos OS)."""
    if field in ("title", "os"):
        return {"field": "title", "param": "title", "mode": "text", "label": _LABELS["title"]}
    for option, (column, mode) in FILTERS.items():
        if field in (column.field, column.name, option):
            label = _LABELS.get(column.field, column.field.capitalize()) + _SUFFIX.get(mode, "")
            return {"field": column.field, "param": option, "mode": mode, "label": label}
    return None


@router.get("")
def game_list() -> list[dict[str, Any]]:
    out = []
    for spec in games.specs():
        found = [_filter(f) for f in spec.search_fields]
        filters = list({f["param"]: f for f in found if f is not None}.values())
        out.append(
            {
                "id": spec.id,
                "name": spec.name,
                "card_types": {k: list(v) for k, v in spec.card_types.items()},
                "filters": filters,
            }
        )
    return out
