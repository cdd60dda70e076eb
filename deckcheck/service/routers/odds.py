"""``/odds`` (chances by turn) and ``/hand`` (sample opening hands)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from deckcheck.i18n import _
from deckcheck.service import tasks
from deckcheck.service.deps import (
    CardIndexDep,
    ExtraQueueDep,
    RegistryDep,
    SettingsDep,
    WorkersDep,
)
from deckcheck.service.problems import Problem, over_limit
from deckcheck.service.schemas import HandBody, OddsBody, format_of, parse_deck

router = APIRouter(tags=["odds"])


@router.post("/odds", responses={429: {"description": "Busy: retry later"}})
async def odds(
    body: OddsBody,
    settings: SettingsDep,
    registry: RegistryDep,
    index: CardIndexDep,
    workers: WorkersDep,
    extra: ExtraQueueDep,
) -> Any:
    """Computed in a worker process: a large simulation never holds the request loop."""
    from deckcheck.odds.api import ConditionError, OddsRequest

    if body.simulate is not None and body.simulate > settings.sync_simulate:
        raise over_limit(
            _("simulate is over the limit of {n}", n=settings.sync_simulate),
            settings.sync_simulate,
            "simulate",  # i18n: machine
        )
    deck = parse_deck(body.deck)
    fmt = format_of(registry, body.format, deck, body.as_of)
    req = OddsRequest(**body.model_dump(exclude={"deck", "format", "as_of"}))
    refs = [e.ref for e in deck.entries] + ([body.aside] if body.aside else [])
    small = tasks.deck_index(index, fmt.game, refs)
    try:
        args = (tasks.odds, deck, fmt, small, req)
        return await workers.run(*args, extra=extra, deadline=settings.sync_seconds)
    except ConditionError as exc:  # the generic answer, plus the field at fault
        raise Problem(
            422,
            "bad-condition",  # i18n: machine
            str(exc),
            errors=[{"path": "body.want", "message": str(exc)}],
        ) from exc


@router.post("/hand")
def hand(body: HandBody, registry: RegistryDep, index: CardIndexDep) -> Any:
    from deckcheck.odds.api import deal_hands

    deck = parse_deck(body.deck)
    fmt = format_of(registry, body.format, deck, body.as_of)
    result = deal_hands(deck, fmt, index, body.count, body.seed, body.aside, body.want)
    return result.model_dump(mode="json")
