"""``/goldfish`` (answered at once, or as a background job) and ``/jobs/{id}``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Response
from starlette.concurrency import run_in_threadpool

from deckcheck.i18n import _
from deckcheck.service import tasks
from deckcheck.service.deps import (
    CardIndexDep,
    ExtraQueueDep,
    JobsDep,
    RegistryDep,
    SettingsDep,
    WorkersDep,
)
from deckcheck.service.problems import Problem, over_limit
from deckcheck.service.schemas import GoldfishBody, format_of, parse_deck

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.goldfish.policy import Policy

router = APIRouter(tags=["goldfish"])


@router.post(
    "/goldfish",
    responses={202: {"description": "A job started"}, 429: {"description": "Busy: retry later"}},
)
async def goldfish(
    body: GoldfishBody,
    response: Response,
    settings: SettingsDep,
    registry: RegistryDep,
    index: CardIndexDep,
    jobs: JobsDep,
    workers: WorkersDep,
    extra: ExtraQueueDep,
) -> Any:
    """Games are played in the worker processes: at once up to ``sync_games``, else as a job."""
    from deckcheck.goldfish.run import GoldfishRequest, prepare

    if body.games > settings.job_games:
        raise over_limit(
            _("games is over the limit of {n}", n=settings.job_games),
            settings.job_games,
            "games",  # i18n: machine
        )
    deck = parse_deck(body.deck)
    fmt = format_of(registry, body.format, deck, body.as_of)
    policy = _policy(body.policy, fmt)
    req = GoldfishRequest(games=body.games, turns=body.turns, seed=body.seed, on_play=body.on_play)
    setup = prepare(deck, fmt, index, policy)  # a deck that cannot play is a 422 now, not later
    if body.games <= settings.sync_games:
        return await workers.run(tasks.goldfish, None, deck, fmt, policy, req, setup, extra=extra)
    job = await run_in_threadpool(
        jobs.start, body.games, tasks.goldfish, deck, fmt, policy, req, setup
    )
    if job is None:
        raise too_many_jobs(settings.max_jobs)
    response.status_code = 202
    response.headers["Location"] = f"/jobs/{job['id']}"
    return job


def too_many_jobs(limit: int) -> Problem:
    return Problem(
        429,
        "too-many-jobs",  # i18n: machine
        _("{n} jobs are running; try again later", n=limit),
        limit=limit,
        headers={"Retry-After": "10"},
    )


def _policy(keys: dict[str, Any] | None, fmt: Format) -> Policy:
    """The game's default policy with the body's keys over it, checked before any game."""
    from deckcheck.goldfish.policy import PolicyError, policy_from_keys

    try:
        policy = policy_from_keys(fmt.game, keys or {}, "policy")
    except PolicyError as exc:  # pydantic's errors too; the message says "policy"
        detail = _("policy: {error}", error=exc)
        raise Problem(422, "invalid-request", detail) from exc  # i18n: machine
    return policy


@router.get("/jobs/{job_id}")
def job_status(job_id: str, jobs: JobsDep, response: Response) -> dict[str, Any]:
    """The job's progress, then its result. Its text (result, error) is in the language of
    the request that started it, whatever this request asks: it was written once, when the
    job ran. ``language`` and ``Content-Language`` say which."""
    job = jobs.get(job_id)
    if job is None:
        raise Problem(404, "not-found", _("no job {job!r}", job=job_id))  # i18n: machine
    response.headers["Content-Language"] = job["language"]
    return job


@router.delete("/jobs/{job_id}")
def job_cancel(job_id: str, jobs: JobsDep, response: Response) -> dict[str, Any]:
    job = jobs.cancel(job_id)
    if job is None:
        raise Problem(404, "not-found", _("no job {job!r}", job=job_id))  # i18n: machine
    response.headers["Content-Language"] = job["language"]
    return job
