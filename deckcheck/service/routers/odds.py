"""``/odds`` (chances by turn) and ``/hand`` (sample opening hands)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from deckcheck.service.deps import CardIndexDep, RegistryDep
from deckcheck.service.problems import Problem
from deckcheck.service.schemas import HandBody, OddsBody, format_of, parse_deck

router = APIRouter(tags=["odds"])


@router.post("/odds")
def odds(body: OddsBody, registry: RegistryDep, index: CardIndexDep) -> Any:
    from deckcheck.odds.api import ConditionError, OddsRequest, compute_odds

    deck = parse_deck(body.deck)
    fmt = format_of(registry, body.format, deck)
    req = OddsRequest(**body.model_dump(exclude={"deck", "format"}))
    try:
        return compute_odds(deck, fmt, index, req).model_dump(mode="json")
    except ConditionError as exc:  # the generic answer, plus the field at fault
        raise Problem(
            422, "bad-condition", str(exc), errors=[{"path": "body.want", "message": str(exc)}]
        ) from exc


@router.post("/hand")
def hand(body: HandBody, registry: RegistryDep, index: CardIndexDep) -> Any:
    from deckcheck.odds.api import deal_hands

    deck = parse_deck(body.deck)
    fmt = format_of(registry, body.format, deck)
    result = deal_hands(deck, fmt, index, body.count, body.seed, body.partner, body.want)
    return result.model_dump(mode="json")
