"""``/odds`` (chances by turn) and ``/hand`` (sample opening hands)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter

from deckcheck.i18n import _
from deckcheck.resolve import CardIndex
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

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.models import DeckList

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
    from deckcheck.odds.cost import OddsTooLarge

    if body.simulate is not None and body.simulate > settings.sync_simulate:
        raise over_limit(
            _("simulate is over the limit of {n}", n=settings.sync_simulate),
            settings.sync_simulate,
            "simulate",  # i18n: machine
        )
    deck = parse_deck(body.deck)
    fmt = format_of(registry, body.format, deck, body.as_of)
    fields = body.model_dump(exclude={"deck", "format", "as_of"})
    req = OddsRequest(**fields, max_work=settings.odds_work)
    refs = [e.ref for e in deck.entries] + ([body.aside] if body.aside else [])
    small = index.subset(fmt.game, refs)
    try:
        args = (tasks.odds, deck, fmt, small, req)
        return await workers.run(*args, extra=extra, deadline=settings.sync_seconds)
    except OddsTooLarge as exc:  # known before any counting
        raise over_limit(str(exc), exc.limit, "want") from exc  # i18n: machine
    except ConditionError as exc:  # the generic answer, plus the field at fault
        raise Problem(
            422,
            "bad-condition",  # i18n: machine
            str(exc),
            errors=[{"path": "body.want", "message": str(exc)}],
        ) from exc


HAND_WORK = 1_000_000  # cards in the deck × hands asked for (a 60-card deck × 100 is 6,000)


def deal(
    deck: DeckList, fmt: Format, index: CardIndex, body: HandBody
) -> dict[str, Any]:
    """``/hand``'s work, in a worker process."""
    from deckcheck.odds.api import deal_hands

    result = deal_hands(deck, fmt, index, body.count, body.seed, body.aside, body.want)
    return result.model_dump(mode="json")


@router.post("/hand", responses={429: {"description": "Busy: retry later"}})
async def hand(
    body: HandBody,
    registry: RegistryDep,
    index: CardIndexDep,
    workers: WorkersDep,
    extra: ExtraQueueDep,
) -> Any:
    """Dealt in a worker process, as ``/odds`` is: eight deals from huge decks in the server's
    own threads cut ``/validate`` to 7 requests/s (issue 24, item 5)."""
    deck = parse_deck(body.deck)
    fmt = format_of(registry, body.format, deck, body.as_of)
    cards = sum(e.count for e in deck.entries)
    if cards * body.count > HAND_WORK:
        raise over_limit(
            _(
                "{count} hands from a deck of {cards} cards is over the limit of {limit} "
                "cards dealt from",
                count=body.count,
                cards=cards,
                limit=f"{HAND_WORK:,}",
            ),
            HAND_WORK,
            "count",  # i18n: machine
        )
    refs = [e.ref for e in deck.entries] + ([body.aside] if body.aside else [])
    small = index.subset(fmt.game, refs)
    return await workers.run(deal, deck, fmt, small, body, extra=extra)
