"""``POST /sweeps``: ``deckcheck sweep`` as a background job (its result is the
``SweepResult``), polled and cancelled at ``/jobs/{id}`` like a goldfish job."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from deckcheck.formats import Format
from deckcheck.i18n import _
from deckcheck.models import DeckList
from deckcheck.odds.conditions import optional_conditions
from deckcheck.odds.known import checked_part
from deckcheck.resolve import CardIndex
from deckcheck.service import tasks
from deckcheck.service.deps import JobContextDep
from deckcheck.service.problems import field_problem
from deckcheck.service.routers.goldfish import JOB_RESPONSES, limit_games, start_job
from deckcheck.service.schemas import SweepBody, format_of, parse_deck
from deckcheck.sweep.blank import wants_blank
from deckcheck.sweep.run import SweepRequest

router = APIRouter(tags=["sweeps"])


@router.post("/sweeps", status_code=202, operation_id="post_sweep", responses=JOB_RESPONSES)
async def post_sweep(body: SweepBody, response: Response, ctx: JobContextDep) -> Any:
    """Variants of the deck (or of each deck), each validated, then its odds and goldfish
    milestones. Bad variants, policy keys or a sweep over ``job_games`` are a 422 now."""
    decks = _decks(body)
    fmt = format_of(ctx.registry, body.format, decks[0][1])
    req = body.request()
    wants = optional_conditions(req.want, fmt.game)
    small = checked_part(wants, fmt.game, ctx.index, _refs(decks, req))
    variants = _check(decks, fmt, small, req)
    n = ctx.settings.job_games
    message = _(
        "{variants} variants × {games} games is over the limit of {n}",
        variants=variants,
        games=req.games,
        n=n,
    )
    limit_games(variants * req.games, ctx.settings, message)
    games = variants * req.games
    return await start_job(ctx, response, games, tasks.sweep, decks, fmt, small, req, task="sweep")


def _decks(body: SweepBody) -> list[tuple[str | None, DeckList]]:
    given: list[tuple[str | None, str | dict[str, Any]]] = []
    if body.deck is not None:
        given.append((None, body.deck))
    given += [(d.name or _("deck {n}", n=i + 1), d.deck) for i, d in enumerate(body.decks)]
    if not given:
        sent = _("send a deck, or decks")
        raise field_problem("invalid-request", sent, "body.deck", _("required"))  # i18n: machine
    return [(name, parse_deck(deck)) for name, deck in given]


def _refs(decks: list[tuple[str | None, DeckList]], req: SweepRequest) -> list[str]:
    named = [
        v.partition(":")[2].rpartition("=")[0].strip() for v in req.vary if v.startswith("name:")
    ]
    fill = [req.fill] if req.fill and not wants_blank(req.fill) else []
    return [*{e.ref for _, d in decks for e in d.entries}, *named, *fill]


def _check(
    decks: list[tuple[str | None, DeckList]], fmt: Format, index: CardIndex, req: SweepRequest
) -> int:
    """The number of variants; raises the ``UsageError`` (422) the sweep would meet later."""
    from deckcheck.goldfish.policy import policy_from_keys
    from deckcheck.sweep.run import check_request, sweep_index
    from deckcheck.sweep.variants import build, check_count, parse_vary

    check_request(req, fmt.game)  # want and best, which the sweep reads only at its end
    axes = [parse_vary(v) for v in req.vary]
    count = check_count(len(decks), axes, req.sides)  # before a single variant is built
    index = sweep_index(index, fmt.game, decks, axes, req.fill)  # with --fill blank, the blank
    for _name, deck in decks:
        for variant in build(deck, index, fmt.game, axes, req.fill, req.sides):
            policy_from_keys(fmt.game, variant.policy, "vary policy")
    return count
