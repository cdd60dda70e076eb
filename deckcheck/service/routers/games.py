"""``/games``: each game's card types, its own card columns, the search filters it offers as
``/cards`` query parameters (the shared ones its spec lists in ``search_fields``, then those of
its own columns and search hooks), and the facts its curve charts (``curve``), so the web
builder shows one game's filters, card facts and curve without naming it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from deckcheck import plugins
from deckcheck.i18n import DEFAULT, N_, _, current
from deckcheck.plugins.columns import CardColumn
from deckcheck.plugins.playtest import Playtest
from deckcheck.pool.columns import game_columns
from deckcheck.pool.search import offered
from deckcheck.service.problems import Problem
from deckcheck.wording import label

router = APIRouter(prefix="/games", tags=["games"])


@router.get("")
def game_list() -> list[dict[str, Any]]:
    out = []
    for spec in plugins.specs():
        out.append(
            {
                "id": spec.id,
                "name": spec.words.name,
                "card_types": {k: list(v) for k, v in spec.cards.card_types.items()},
                "filters": [
                    {
                        **f.describe(),
                        "label": f.shown_label(),
                        "description": f.shown_description(),
                    }
                    for f in offered(spec.id)
                ],
                "columns": [_column(spec.id, c) for c in game_columns(spec.id).values()],
                "curve": [_curve(spec.id, name) for name in spec.cards.curve],
            }
        )
    return out


@router.get("/{game}/playtest")
def playtest(game: str) -> dict[str, Any]:
    """The game's table for the builder's playtester, in the request's language: its zones, the
    steps of its turn (each with its rule) and what the player follows alone. 404: no such
    game, or a game without a playtester."""
    spec = plugins.find(game)
    if spec is None or spec.play.playtest is None:
        detail = _("No playtester for game {game}", game=repr(game))
        raise Problem(404, "not-found", detail)  # i18n: machine
    return _table(spec.play.playtest())


def _table(table: Playtest) -> dict[str, Any]:
    return {
        "deck": table.deck,
        "hand": table.hand,
        "zones": [
            {
                "name": z.name,
                "label": z.label,
                "hidden": z.hidden,
                "sleeps": z.sleeps,
                "sections": list(z.sections),
                "types": list(z.types),
                "take": z.take,
                "rest": z.rest,
                "rule": z.rule,
            }
            for z in table.zones
        ],
        "steps": [
            {
                "name": s.name,
                "label": s.label,
                "action": s.action,
                "rule": s.rule,
                "zones": list(s.zones),
                "count": s.count,
                "when": list(s.when) if s.when else None,
                "first_turn": s.first_turn,
                "param": s.param,
            }
            for s in table.steps
        ],
        "notes": list(table.notes),
    }


# the shared card fields a curve may chart, as the builder names them
_SHARED = {"level": N_("level"), "cost": N_("cost")}


def _curve(game: str, name: str) -> dict[str, str]:
    """A fact the builder's statistics chart as the game's curve, with its short word (as a
    column's one-line summaries name it)."""
    if name in _SHARED:
        return {"name": name, "label": _(_SHARED[name])}
    column = game_columns(game).get(name)
    return {"name": name, "label": _column(game, column)["short"] if column else name}


def _column(game: str, column: CardColumn) -> dict[str, Any]:
    """A column as the builder shows it, in the request's language: its heading, a short word
    for one-line summaries (in English the heading without its parenthesis; in Japanese the
    game's word itself), what it holds, and its filter."""
    heading = label(game, column.heading)
    return {
        "name": column.name,
        "type": column.type,
        "label": heading,
        "short": column.short if current() == DEFAULT else heading,
        "description": label(game, column.description),
        "summary": column.summary,
        "filter": column.filter,
    }
