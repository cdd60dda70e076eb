"""``/odds`` (chances by turn) and ``/hand`` (sample opening hands)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter

from deckcheck.i18n import _
from deckcheck.resolve import CardIndex
from deckcheck.service import tasks
from deckcheck.service.deps import SyncContext, SyncContextDep
from deckcheck.service.problems import field_problem, over_limit
from deckcheck.service.schemas import HandBody, OddsBody, format_of, parse_deck

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.models import DeckList

router = APIRouter(tags=["odds"])


@router.post("/odds", responses={429: {"description": "Busy: retry later"}})
async def odds(body: OddsBody, ctx: SyncContextDep) -> Any:
    """Computed in a worker process: a large simulation never holds the request loop."""
    from deckcheck.odds.api import ConditionError, OddsRequest, table_ref
    from deckcheck.odds.cost import OddsTooLarge

    settings = ctx.settings
    if body.simulate is not None and body.simulate > settings.sync_simulate:
        raise over_limit(
            _("simulate is over the limit of {n}", n=settings.sync_simulate),
            settings.sync_simulate,
            "simulate",  # i18n: machine
        )
    deck = parse_deck(body.deck)
    fmt = format_of(ctx.registry, body.format, deck, body.as_of)
    fields = body.model_dump(exclude={"deck", "format", "as_of"})
    req = OddsRequest(**fields, max_work=settings.odds_work)
    refs = [e.ref for e in deck.entries] + ([body.aside] if body.aside else [])
    if req.table:  # the card of the copies table may be one the deck does not hold yet
        refs.append(table_ref(req.table))
    try:
        small = _checked(req.want, fmt.game, ctx, refs)
        return await ctx.run(tasks.odds, deck, fmt, small, req)
    except OddsTooLarge as exc:  # known before any counting
        raise over_limit(str(exc), exc.limit, "want") from exc  # i18n: machine
    except ConditionError as exc:  # the generic answer, plus the field at fault
        raise field_problem("bad-condition", str(exc), "body.want") from exc  # i18n: machine


def _checked(want: list[str], game: str, ctx: SyncContext, refs: list[str]) -> CardIndex:
    """The part of the pool a worker needs, the conditions checked against the whole pool
    first (``checked_part``): a card the deck does not hold may still be asked about."""
    from deckcheck.odds.conditions import optional_conditions
    from deckcheck.odds.known import checked_part

    conditions = optional_conditions(want, game)
    return checked_part(conditions, game, ctx.index, refs)


# hands × (cards in the deck × conditions, + the Hall sets a hand's keep check tests): a
# 60-card deck × 100 hands with 3 conditions is 18,700
HAND_WORK = 1_000_000


def hand_work(count: int, cards: int, conditions: int) -> int:
    """``/hand``'s work: each hand's deal is the deck's cards, each card matched against every
    condition; a hand checked against them (``exact.holds``) tests each set of conditions."""
    return count * (cards * max(1, conditions) + (1 << conditions) - 1)


def deal(
    deck: DeckList, fmt: Format, index: CardIndex, body: HandBody
) -> dict[str, Any]:
    """``/hand``'s work, in a worker process."""
    from deckcheck.odds.hands import HandsRequest, deal_hands

    req = HandsRequest(**body.model_dump(exclude={"deck", "format", "as_of"}))
    result = deal_hands(deck, fmt, index, req)
    return result.model_dump(mode="json")


@router.post("/hand", responses={429: {"description": "Busy: retry later"}})
async def hand(body: HandBody, ctx: SyncContextDep) -> Any:
    """Dealt in a worker process, as ``/odds`` is: eight deals from huge decks in the server's
    own threads cut ``/validate`` to 7 requests/s (issue 24, item 5). Held to the work budget
    and the deadline of the other synchronous answers (issue 37: one ran 10 minutes)."""
    deck = parse_deck(body.deck)
    fmt = format_of(ctx.registry, body.format, deck, body.as_of)
    cards = sum(e.count for e in deck.entries)
    work = hand_work(body.count, cards, len(body.want))
    if work > HAND_WORK:
        raise over_limit(
            _(
                "{count} hands from a deck of {cards} cards with {conditions} conditions are "
                "{work} units of work, over the limit of {limit}",
                count=body.count,
                cards=cards,
                conditions=len(body.want),
                work=f"{work:,}",
                limit=f"{HAND_WORK:,}",
            ),
            HAND_WORK,
            "count",  # i18n: machine
        )
    refs = [e.ref for e in deck.entries] + ([body.aside] if body.aside else [])
    small = _checked(body.want, fmt.game, ctx, refs)
    return await ctx.run(deal, deck, fmt, small, body)
