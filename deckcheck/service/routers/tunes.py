"""``POST /tunes``: ``deckcheck tune`` as a background job (its result is the
``TuneResult``), polled and cancelled at ``/jobs/{id}`` like a sweep."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from starlette.concurrency import run_in_threadpool

from deckcheck.errors import UsageError
from deckcheck.i18n import _
from deckcheck.resolve import CardIndex
from deckcheck.service import tasks
from deckcheck.service.deps import CardIndexDep, JobsDep, RegistryDep, SettingsDep
from deckcheck.service.problems import over_limit
from deckcheck.service.routers.goldfish import JOB_RESPONSES, too_many_jobs
from deckcheck.service.schemas import TuneBody, format_of, parse_deck
from deckcheck.text import as_written
from deckcheck.tune.goal import make_goal
from deckcheck.tune.race import budget

router = APIRouter(tags=["tunes"])


@router.post(
    "/tunes",
    status_code=202,
    operation_id="post_tune",
    responses=JOB_RESPONSES,
)
async def post_tune(
    body: TuneBody,
    response: Response,
    settings: SettingsDep,
    registry: RegistryDep,
    index: CardIndexDep,
    jobs: JobsDep,
) -> Any:
    """The legal changes of the deck that raise the goal, best first. A bad goal, an unknown
    card or a tune whose games could go over ``job_games`` are a 422 now."""
    deck = parse_deck(body.deck)
    fmt = format_of(registry, body.format, deck)
    req = body.request()
    goal = make_goal(fmt.game, req.want, req.turn, req.milestone, req.by, req.weights)
    small = index.subset(fmt.game, [*(e.ref for e in deck.entries), *body.candidates, *body.keep])
    for ref in [*body.candidates, *body.keep]:
        _known(small, fmt.game, ref)
    most = (req.top + 1) * req.games if goal.exact else budget(req.max_variants, req.games)
    if most > settings.job_games:
        raise over_limit(
            _(
                "the tune may play {games} games, over the limit of {n}",
                games=most,
                n=settings.job_games,
            ),
            settings.job_games,
            "games",  # i18n: machine
        )
    job = await run_in_threadpool(
        jobs.start, most, tasks.tune, deck, fmt, small, body.candidates, body.keep, req, task="tune"
    )
    if job is None:
        raise too_many_jobs(settings.max_jobs)
    response.headers["Location"] = f"/jobs/{job['id']}"
    return job


def _known(index: CardIndex, game: str, ref: str) -> None:
    if index.resolve(game, ref).card is None:
        raise UsageError(
            _("{ref}: no such {game} card in the pool", ref=as_written(ref), game=game)
        )
