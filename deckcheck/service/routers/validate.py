"""``/validate`` (a deck's verdict) and ``/resolve`` (its lines as cards, for editors)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from deckcheck import suggest
from deckcheck.models import Report
from deckcheck.service.deps import CardIndexDep, RegistryDep
from deckcheck.service.schemas import DeckRequest, format_of, parse_deck
from deckcheck.validate import validate

router = APIRouter(tags=["decks"])
SUGGEST_SECONDS = 0.5  # per deck: past it, unknown cards are reported without suggestions


@router.post(
    "/validate",
    response_model=None,
    responses={200: {"model": Report, "description": "The verdict"}},
)
async def validate_deck(
    body: DeckRequest, registry: RegistryDep, index: CardIndexDep
) -> JSONResponse:
    # async: a verdict takes well under a millisecond, less than a thread hand-off; the
    # suggestion budget bounds a deck of many unknown names
    deck = parse_deck(body.deck)
    with suggest.budget(SUGGEST_SECONDS):
        report = validate(deck, format_of(registry, body.format, deck, body.as_of), index)
    return JSONResponse(report.model_dump(mode="json"))


@router.post("/resolve")
def resolve(body: DeckRequest, registry: RegistryDep, index: CardIndexDep) -> dict[str, Any]:
    """The deck list's lines as cards (number, name, type), for editors such as the web
    page; unresolved lines keep their reference and say why."""
    deck = parse_deck(body.deck)
    fmt = format_of(registry, body.format, deck, body.as_of)
    entries = []
    with suggest.budget(SUGGEST_SECONDS):
        cards = [index.resolve(fmt.game, e.ref).card for e in deck.entries]
    for e, card in zip(deck.entries, cards, strict=True):
        entries.append(
            {
                "section": e.section,
                "count": e.count,
                "ref": e.ref,
                "line": e.line,
                "number": card.number if card else None,
                "name": card.name if card else e.ref,
                "type": card.type if card else None,
            }
        )
    return {
        "format": fmt.id,
        "game": fmt.game,
        "entries": entries,
        "problems": [p.model_dump(mode="json") for p in deck.problems],
    }
