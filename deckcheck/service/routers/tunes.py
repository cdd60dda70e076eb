"""``POST /tunes``: ``deckcheck tune`` as a background job (its result is the
``TuneResult``), polled and cancelled at ``/jobs/{id}`` like a sweep."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from deckcheck.errors import UsageError
from deckcheck.i18n import _
from deckcheck.odds.conditions import optional_conditions
from deckcheck.odds.known import checked_part
from deckcheck.resolve import CardIndex
from deckcheck.service import tasks
from deckcheck.service.deps import JobContextDep
from deckcheck.service.routers.goldfish import JOB_RESPONSES, limit_games, start_job
from deckcheck.service.schemas import TuneBody, format_of, parse_deck
from deckcheck.text import as_written
from deckcheck.tune.goal import make_goal
from deckcheck.tune.race import budget

router = APIRouter(tags=["tunes"])


@router.post("/tunes", status_code=202, operation_id="post_tune", responses=JOB_RESPONSES)
async def post_tune(body: TuneBody, response: Response, ctx: JobContextDep) -> Any:
    """The legal changes of the deck that raise the goal, best first. A bad goal, an unknown
    card or a tune whose games could go over ``job_games`` are a 422 now."""
    deck = parse_deck(body.deck)
    fmt = format_of(ctx.registry, body.format, deck)
    req = body.request()
    goal = make_goal(fmt.game, req.want, req.turn, req.milestone, req.by, req.weights)
    refs = [*(e.ref for e in deck.entries), *body.candidates, *body.keep]
    wants = optional_conditions(req.want, fmt.game)
    small = checked_part(wants, fmt.game, ctx.index, refs)  # a goal may name any pool card
    for ref in [*body.candidates, *body.keep]:
        _known(small, fmt.game, ref)
    most = (req.top + 1) * req.games if goal.exact else budget(req.max_variants, req.games)
    n = ctx.settings.job_games
    message = _("the tune may play {games} games, over the limit of {n}", games=most, n=n)
    limit_games(most, ctx.settings, message)
    args = (deck, fmt, small, body.candidates, body.keep, req)
    return await start_job(ctx, response, most, tasks.tune, *args, task="tune")


def _known(index: CardIndex, game: str, ref: str) -> None:
    if index.resolve(game, ref).card is None:
        raise UsageError(
            _("{ref}: no such {game} card in the pool", ref=as_written(ref), game=game)
        )
