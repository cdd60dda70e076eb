"""``/goldfish`` (answered at once, or as a background job) and ``/jobs/{id}``."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from deckcheck.i18n import _
from deckcheck.service import tasks
from deckcheck.service.deps import (
    ExtraQueueDep,
    JobContext,
    JobContextDep,
    JobsDep,
    SyncContextDep,
    WorkersDep,
)
from deckcheck.service.problems import Problem, over_limit
from deckcheck.service.schemas import GoldfishBody, ReplayBody, format_of, parse_deck

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.goldfish.policy import Policy
    from deckcheck.models import DeckList
    from deckcheck.resolve import CardIndex
    from deckcheck.service.jobs import Jobs
    from deckcheck.service.settings import Settings

router = APIRouter(tags=["goldfish"])

# OpenAPI links from a started job to its status, result and cancel (schemathesis follows
# them in its stateful run: tests/test_fuzz_jobs.py).
JOB_LINKS = {
    name: {"operationId": operation, "parameters": {"job_id": "$response.body#/id"}}
    for name, operation in (
        ("GetJob", "job_status"),  # i18n: machine
        ("GetJobResult", "job_result"),  # i18n: machine
        ("CancelJob", "job_cancel"),  # i18n: machine
    )
}
# The answers of a POST that starts a job (sweeps, tunes): 202 with the links, or 429.
JOB_RESPONSES: dict[int | str, dict[str, object]] = {
    202: {
        "description": "A job started; GET its Location for progress and the result",
        "links": JOB_LINKS,
    },
    429: {"description": "Busy: retry later"},
}


@router.post(
    "/goldfish",
    operation_id="post_goldfish",
    responses={
        202: {"description": "A job started", "links": JOB_LINKS},
        429: {"description": "Busy: retry later"},
    },
)
async def goldfish(
    body: GoldfishBody,
    response: Response,
    ctx: JobContextDep,
    workers: WorkersDep,
    extra: ExtraQueueDep,
) -> Any:
    """Games are played in the worker processes: at once up to ``sync_games``, else as a job."""
    settings = ctx.settings
    from deckcheck.goldfish.run import GoldfishRequest, prepare

    limit_games(body.games, settings, _("games is over the limit of {n}", n=settings.job_games))
    deck = parse_deck(body.deck)
    sync = body.games <= settings.sync_games
    if sync:
        check_work(body.games, deck, settings.sync_work)
    else:
        check_work(body.games, deck, settings.job_work, job=True)
    fmt = format_of(ctx.registry, body.format, deck, body.as_of)
    policy = _policy(body.policy, fmt, ctx.index)
    limit = settings.sync_work if sync else settings.job_work
    check_policy_work(body.games, deck, fmt, policy, limit, job=not sync)
    req = GoldfishRequest(
        games=body.games, turns=body.turns, seed=body.seed, on_play=body.on_play, engine=body.engine
    )
    # a deck that cannot play is a 422 now, not later; its one game off the event loop
    setup = await run_in_threadpool(prepare, deck, fmt, ctx.index, policy)
    if body.engine == "reference":  # every path (here, a job, a cluster) plays game by game
        setup = dataclasses.replace(setup, fast=False)
    if sync:
        args = (tasks.goldfish, None, deck, fmt, policy, req, setup)
        return await workers.run(*args, extra=extra, deadline=settings.sync_seconds)
    response.status_code = 202
    return await start_job(ctx, response, body.games, tasks.goldfish, deck, fmt, policy, req, setup)


def limit_games(games: int, settings: Settings, message: str) -> None:
    """A request for more than ``job_games`` games is a 422 (``message`` says which)."""
    if games > settings.job_games:
        raise over_limit(message, settings.job_games, "games")  # i18n: machine


async def start_job(
    ctx: JobContext, response: Response, games: int, *task: Any, **named: Any
) -> Any:
    """``task`` (a function of service/tasks.py and its arguments) started as a job of
    ``games`` games, off the event loop; the answer's Location is the job, a 429 when the
    service already runs ``max_jobs``."""
    job = await run_in_threadpool(ctx.jobs.start, games, *task, **named)
    if job is None:
        raise too_many_jobs(ctx.settings.max_jobs)
    response.headers["Location"] = f"/jobs/{job['id']}"
    return job


@router.post("/goldfish/replay", operation_id="post_goldfish_replay")
async def goldfish_replay(body: ReplayBody, ctx: SyncContextDep) -> Any:
    """Game ``game`` of a run, turn by turn, in the request's language: the reference engine's
    game ``game`` of ``/goldfish`` with ``engine: reference`` and the same seed, turns and side
    (``deckcheck goldfish DECK --replay N``)."""
    from deckcheck.goldfish.replay import ReplayRequest
    from deckcheck.goldfish.run import prepare

    settings = ctx.settings
    if body.game > settings.job_games:  # a run the service plays has no such game
        raise over_limit(
            _("game is over the limit of {n} games a run may have", n=settings.job_games),
            settings.job_games,
            "game",  # i18n: machine
        )
    deck = parse_deck(body.deck)
    check_work(1, deck, settings.sync_work)  # one game
    fmt = format_of(ctx.registry, body.format, deck, body.as_of)
    policy = _policy(body.policy, fmt, ctx.index)
    check_policy_work(1, deck, fmt, policy, settings.sync_work)
    req = ReplayRequest(game=body.game, turns=body.turns, seed=body.seed, on_play=body.on_play)
    setup = await run_in_threadpool(prepare, deck, fmt, ctx.index, policy)
    return await ctx.run(tasks.replay, None, setup, fmt, req)


def check_work(games: int, deck: DeckList, limit: int, job: bool = False) -> None:
    """422 before any game when games × the deck's cards is over ``limit`` (issue 24, item 2:
    100 games of 400 × 9,999 copies took 41 s and could not be stopped). ``job``: the limit is
    a job's (``DECKCHECK_JOB_WORK``): such a job would hold one of the few job places for days."""
    cards = sum(entry.count for entry in deck.entries)
    if games * cards <= limit:
        return
    if job:
        detail = _(
            "{games} games × {cards} cards in the deck is over the limit of {n} for a job "
            "(DECKCHECK_JOB_WORK); ask for fewer games",
            games=games,
            cards=cards,
            n=limit,
        )
    else:
        detail = _(
            "{games} games × {cards} cards in the deck is over the limit of {n} for an "
            "answer at once (DECKCHECK_SYNC_WORK); ask for fewer games",
            games=games,
            cards=cards,
            n=limit,
        )
    raise over_limit(detail, limit, "games")  # i18n: machine


def check_policy_work(
    games: int, deck: DeckList, fmt: Format, policy: Policy, limit: int, job: bool = False
) -> None:
    """422 before any game when the policy's keep conditions and selectors (counted with their
    sizes, ``goldfish.cost``) take the run over ``limit`` (issue 37: one game with 100 keep
    conditions held a worker, and the request loop, for minutes)."""
    from deckcheck.goldfish.cost import run_work
    from deckcheck.goldfish.policy import default_policy
    from deckcheck.odds.setup import rules_of

    cards = sum(entry.count for entry in deck.entries)
    work = run_work(games, cards, rules_of(fmt).hand, policy, default_policy(fmt.game))
    if work <= limit:
        return
    variable = "DECKCHECK_JOB_WORK" if job else "DECKCHECK_SYNC_WORK"  # i18n: machine
    detail = _(
        "{games} games of a {cards}-card deck with this policy's keep conditions and "
        "selectors are {work} units of work, over the limit of {n} ({variable}); ask for "
        "fewer games, or fewer or shorter conditions",
        games=games,
        cards=cards,
        work=f"{work:,}",
        n=f"{limit:,}",
        variable=variable,
    )
    raise over_limit(detail, limit, "policy")  # i18n: machine


def too_many_jobs(limit: int) -> Problem:
    return Problem(
        429,
        "too-many-jobs",  # i18n: machine
        _("{n} jobs are running; try again later", n=limit),
        limit=limit,
        headers={"Retry-After": "10"},
    )


def _policy(keys: dict[str, Any] | None, fmt: Format, index: CardIndex) -> Policy:
    """The game's default policy with the body's keys over it, checked before any game: the
    cards and values its selectors name against the whole pool (``check_named``)."""
    from deckcheck.goldfish.policy import PolicyError, check_named, policy_from_keys

    try:
        policy = policy_from_keys(fmt.game, keys or {}, "policy")
        if keys:
            check_named(policy, fmt.game, index)
    except PolicyError as exc:  # pydantic's errors too; the message says "policy"
        detail = _("policy: {error}", error=exc)
        raise Problem(422, "invalid-request", detail) from exc  # i18n: machine
    return policy


@router.get(
    "/jobs/{job_id}",
    operation_id="job_status",
    responses={
        200: {
            "links": {
                "GetJobResult": {
                    "operationId": "job_result",
                    "parameters": {"job_id": "$request.path.job_id"},
                    "description": "The result, once the job is done",
                }
            }
        }
    },
)
def job_status(job_id: str, jobs: JobsDep, response: Response) -> dict[str, Any]:
    """The job's progress and status; once done, ``result_url`` links its result (polling
    never carries it). Its text (result, error) is in the language of the request that
    started it, whatever this request asks: it was written once, when the job ran.
    ``language`` and ``Content-Language`` say which."""
    job = _job(jobs, job_id)
    response.headers["Content-Language"] = job["language"]
    response.headers["Cache-Control"] = "no-cache"
    return job


@router.get(
    "/jobs/{job_id}/result",
    operation_id="job_result",
    responses={
        304: {"description": "Not modified: the If-None-Match tag is the result's"},
        409: {"description": "The job has not ended done: it has no result"},
    },
)
def job_result(job_id: str, jobs: JobsDep, request: Request) -> Response:
    """A done job's result, stored once as JSON and served as stored. It never changes, so it
    has a strong ``ETag`` (an ``If-None-Match`` with it gets 304 and no body) and may be
    cached until the job is evicted (``Cache-Control``)."""
    job = _job(jobs, job_id)
    if job["result_url"] is None:
        raise Problem(
            409,
            "not-ready",  # i18n: machine
            _("job {job} is {status}: it has no result", job=job_id, status=job["status"]),
        )
    headers = {
        "ETag": f'"{job_id}"',
        "Cache-Control": f"private, max-age={int(jobs.ttl)}, immutable",
        "Content-Language": job["language"],
    }
    if _matches(request.headers.get("if-none-match", ""), job_id):
        return Response(status_code=304, headers=headers)
    text = jobs.result(job_id)
    if text is None:  # evicted between the two reads
        raise Problem(404, "not-found", _("no job {job!r}", job=job_id))  # i18n: machine
    return Response(text, media_type="application/json", headers=headers)


def _matches(if_none_match: str, tag: str) -> bool:
    """RFC 9110 §13.1.2: weak comparison of each listed entity tag, or ``*``."""
    for given in if_none_match.split(","):
        given = given.strip().removeprefix("W/")
        if given == "*" or given == f'"{tag}"':
            return True
    return False


def _job(jobs: Jobs, job_id: str) -> dict[str, Any]:
    job = jobs.get(job_id)
    if job is None:
        raise Problem(404, "not-found", _("no job {job!r}", job=job_id))  # i18n: machine
    return job


@router.delete("/jobs/{job_id}", operation_id="job_cancel")
def job_cancel(job_id: str, jobs: JobsDep, response: Response) -> dict[str, Any]:
    job = jobs.cancel(job_id)
    if job is None:
        raise Problem(404, "not-found", _("no job {job!r}", job=job_id))  # i18n: machine
    response.headers["Content-Language"] = job["language"]
    return job
