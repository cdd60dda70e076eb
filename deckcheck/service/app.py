"""The HTTP service: a thin shell over the library, so the service and the CLI never disagree.

``create_app`` builds the shared objects (settings, formats, cards, saved decks, jobs), puts
them on ``app.state`` for the dependencies in ``deps``, and includes one router per resource.
Settings: see ``deckcheck.service.settings``.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from deckcheck import __version__
from deckcheck.collector import frozen
from deckcheck.formats.registry import default_registry
from deckcheck.i18n import DEFAULT, N_, _, current
from deckcheck.service.cards import Cards
from deckcheck.service.jobs import Jobs
from deckcheck.service.jobstore import JobStore
from deckcheck.service.middleware import BodyLimit, Language, SecurityHeaders, UnicodeCheck
from deckcheck.service.problems import install
from deckcheck.service.routers import ROUTERS, docs
from deckcheck.service.settings import Settings
from deckcheck.service.store import DeckStore
from deckcheck.service.validating import close_lanes, start_lanes
from deckcheck.service.workers import JOB_NICE, Workers
from deckcheck.web import STATIC

__all__ = ["Settings", "create_app"]

DESCRIPTION = N_(
    "Deck legality, odds and goldfish for trading card games (GET /games lists the games "
    "installed). Errors are RFC 9457 problem documents. Answers are in the language of "
    "Accept-Language, or of ?lang= (en, ja)."
)


def _translated(node: Any) -> Any:
    """An OpenAPI document with its descriptions in the current language (those the
    catalogue has: the service's own; names, paths and schemas stay)."""
    if isinstance(node, dict):
        return {
            k: _(v) if k in ("description", "summary") and isinstance(v, str) and v
            else _translated(v)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_translated(v) for v in node]
    return node


def _openapi_by_language(app: FastAPI) -> None:
    """``/openapi.json`` (and so ``/docs``) in the request's language, built once per
    language from FastAPI's English document."""
    english = app.openapi
    done: dict[str, dict[str, Any]] = {}

    def openapi() -> dict[str, Any]:
        lang = current()
        if lang == DEFAULT:
            return english()
        if lang not in done:
            done[lang] = _translated(copy.deepcopy(english()))
        return done[lang]

    app.openapi = openapi  # type: ignore[method-assign]


def _warm_engines(settings: Settings) -> None:
    """Compile the goldfish engines in the background (goldfish/warm.py), in child processes
    that read the card pool this service reads; until a game's engine is ready, its goldfish
    is played by the reference engine rather than waiting."""
    from deckcheck.goldfish.warm import background, batch_games

    background(batch_games(), None if settings.database_url else settings.db)


def _start_processes(state: Any, pools: tuple[Workers, ...]) -> None:
    """Fork every worker process at start-up, before any request's thread runs: the long
    decks' check process (after the card index is built, so it inherits the index), then the
    pools' workers (``Workers.start``)."""
    start_lanes(state)
    for pool in pools:
        pool.start()


def _job_store(settings: Settings) -> JobStore:
    """The saved decks' and jobs' store; in SQLite it lies beside the card pool, whose folder
    a new home does not have yet (``uvicorn deckcheck.service.asgi:app`` was a traceback)."""
    if settings.database_url is None:
        settings.db.parent.mkdir(parents=True, exist_ok=True)
    return JobStore(settings.decks_url, create=True)


async def _start(app: FastAPI, settings: Settings, pools: tuple[Workers, ...]) -> None:
    """Start-up, before the first request: the card index and its name tables (on a 20,000-card
    pool a second or two the first /validate would otherwise pay), the worker processes, and
    with ``settings.warm`` the engines' compile."""
    await asyncio.to_thread(app.state.cards.warm)
    await asyncio.to_thread(_start_processes, app.state, pools)
    if settings.warm:
        _warm_engines(settings)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    workers = Workers(settings.workers, settings.queue)
    # jobs have a pool of their own: a running job never holds a place a request waits for. As
    # many processes as the requests' pool (the machine's cores, not one per admitted job:
    # 32 idle processes on 2 cores only slow each other); the other admitted jobs queue.
    processes = min(settings.max_jobs, settings.workers)
    job_workers = Workers(processes, settings.max_jobs - processes, nice=JOB_NICE, name="jobs")
    jobs = Jobs(
        _job_store(settings),
        job_workers,
        settings.max_jobs,
        settings.job_ttl,
        settings.dask_scheduler,
        (settings.dask_connect_timeout, settings.dask_worker_timeout),
    )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await _start(app, settings, (workers, job_workers))
        # what start-up made (the modules, the card index, its name tables: some 120,000
        # objects) lives as long as the service: scanned, each full collection under load took
        # 90 ms (gc.callbacks in the served process), the whole of /validate's p99 over its p50
        with frozen():
            yield
        for ended in (workers, job_workers, jobs):  # the worker processes end with the service
            ended.close()
        close_lanes(app.state)

    app = FastAPI(
        lifespan=lifespan,
        docs_url=None,  # served from the installed package by routers.docs, or not at all
        redoc_url=None,
        title="deckcheck",  # i18n: machine
        version=__version__,
        description=DESCRIPTION,
        redirect_slashes=False,  # "/decks/" is 404: a redirect's Location came from Host
    )
    _openapi_by_language(app)
    install(app)
    app.state.settings = settings
    app.state.registry = default_registry()
    app.state.cards = Cards(settings)
    app.state.store = DeckStore(settings.decks_url)
    app.state.workers = workers
    app.state.jobs = jobs
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    if settings.docs:
        from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

        app.include_router(docs.router)
        app.mount("/docs/assets", StaticFiles(directory=str(swagger_ui_path)), name="docs")
    app.add_middleware(UnicodeCheck)  # inside BodyLimit: it reads bounded bodies only
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Language)  # outermost: every answer, problems included, in its language
    return app
