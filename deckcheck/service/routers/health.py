"""``/health``: is the service up, how many cards does it know, and is each place its work runs
whole and able to take more.

Each worker pool (``requests``, ``jobs``) and deck-check lane (``checks``, ``long-checks``: a
thread pool, or the check process) is listed with its size, the tasks it holds and how many it
may hold, and how often it was replaced. A pool whose worker process died (killed, out of
memory) would fail every task sent to it: it is replaced as soon as it is seen, and the
``/health`` that saw it answers 503 ``degraded`` naming it (issue 24, item 3). A full pool or
lane (new requests answered 429) is ``degraded`` too, with 200: ``/health`` said "ok" while
``/odds`` timed out (issue 37, item 5), yet a full lane still answers the requests it holds. A
full job pool is not degraded: it only means new jobs wait their turn."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from deckcheck import __version__
from deckcheck.i18n import _
from deckcheck.service.deps import CardsDep, JobsDep, WorkersDep
from deckcheck.service.validating import Checks, ProcessChecks, lanes_of
from deckcheck.service.workers import Workers

router = APIRouter(tags=["service"])


def _state(place: Workers | Checks, may_fill: bool) -> dict[str, Any]:
    """One pool's or lane's figures; ``state``: ok, replacing (a process died) or full."""
    broken = isinstance(place, Workers) and place.check()
    busy, capacity = place.in_flight, place.capacity
    state = "replacing" if broken else "full" if busy >= capacity and not may_fill else "ok"
    figures: dict[str, Any] = {"state": state, "size": place.size, "busy": busy}
    figures["capacity"] = capacity
    if isinstance(place, Workers):
        figures["replaced"] = place.replaced
    return figures


def _places(request: Request, workers: Workers, job_workers: Workers) -> dict[str, Any]:
    light, heavy = (
        lane.workers if isinstance(lane, ProcessChecks) else lane
        for lane in lanes_of(request.app.state)
    )
    return {
        "requests": _state(workers, False),
        "jobs": _state(job_workers, True),
        "checks": _state(light, False),
        "long-checks": _state(heavy, False),  # i18n: machine
    }


@router.get("/health", responses={503: {"description": "A worker pool is being replaced"}})
async def health(
    request: Request, cards: CardsDep, workers: WorkersDep, jobs: JobsDep, response: Response
) -> dict[str, Any]:
    """On the event loop when the card count is in memory: a thread hand-off competes for
    the GIL with every request the loop serves (p50 114 ms with 16 /validate clients)."""
    places = _places(request, workers, jobs.workers)
    out: dict[str, Any] = {"status": "ok", "version": __version__}
    count = cards.count_in_memory()
    out["cards"] = (await run_in_threadpool(cards.stats))["total"] if count is None else count
    broken = [name for name, p in places.items() if p["state"] == "replacing"]
    full = [name for name, p in places.items() if p["state"] == "full"]
    details = []
    if broken:
        details.append(
            _(
                "a worker process of the {pools} pool stopped; the pool is being replaced",
                pools=", ".join(broken),
            )
        )
    if full:
        details.append(
            _(
                "the {pools} pool is full: new requests are answered 429 until it has room",
                pools=", ".join(full),
            )
        )
    if details:
        # a dead pool fails requests: 503, so a balancer sends them elsewhere meanwhile; a full
        # one still answers what it holds (its new requests get 429): degraded, but 200
        response.status_code = 503 if broken else 200
        out["status"] = "degraded"  # i18n: machine
        out["detail"] = "; ".join(details)
    out["pools"] = {name: p["state"] for name, p in places.items()}
    out["places"] = places
    return out
