"""The HTTP service: a thin shell over the library, so the service and the CLI never disagree.

Settings come from the environment: ``DECKCHECK_DB`` (the card pool), ``DECKCHECK_DATABASE_URL``
(saved decks; SQLite beside the pool by default, or PostgreSQL), ``DECKCHECK_API_KEYS``
(comma-separated keys for writes), ``DECKCHECK_SYNC_GAMES`` (goldfish games answered at once,
default 20,000), ``DECKCHECK_JOB_GAMES`` (the most a job may play, default 1,000,000),
``DECKCHECK_MAX_JOBS`` (running jobs, default 2), ``DECKCHECK_MAX_BODY`` (bytes, default 1 MiB).
"""

from __future__ import annotations

import hmac
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, Query, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deckcheck import __version__, decklist
from deckcheck.formats import Format, FormatError, default_registry
from deckcheck.models import CARD_TYPES, Card, DeckList, Game, Report
from deckcheck.pool.store import Pool, PoolError, default_db_path
from deckcheck.resolve import CardIndex
from deckcheck.service.jobs import Jobs
from deckcheck.service.problems import Problem, install, problem_response
from deckcheck.service.store import DeckStore
from deckcheck.validate import validate

MAX_LINES = 500


@dataclass
class Settings:
    db: Path = field(default_factory=default_db_path)
    database_url: str | None = None
    api_keys: tuple[str, ...] = ()
    sync_games: int = 20_000
    job_games: int = 1_000_000
    max_jobs: int = 2
    max_body: int = 1 << 20

    @classmethod
    def from_env(cls, db: Path | None = None) -> Settings:
        env = os.environ
        keys = tuple(k.strip() for k in env.get("DECKCHECK_API_KEYS", "").split(",") if k.strip())
        return cls(
            db=db or default_db_path(),
            database_url=env.get("DECKCHECK_DATABASE_URL") or None,
            api_keys=keys,
            sync_games=int(env.get("DECKCHECK_SYNC_GAMES", 20_000)),
            job_games=int(env.get("DECKCHECK_JOB_GAMES", 1_000_000)),
            max_jobs=int(env.get("DECKCHECK_MAX_JOBS", 2)),
            max_body=int(env.get("DECKCHECK_MAX_BODY", 1 << 20)),
        )


class BodyLimit:
    """413 for bodies over the limit, decided from Content-Length before anything is parsed
    (and by counting, for chunked bodies)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        too_big = problem_response(
            413, "too-large", f"the body is over {self.limit} bytes", scope.get("path")
        )
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await too_big(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise Problem(413, "too-large", f"the body is over {self.limit} bytes")
            return message

        await self.app(scope, counted, send)


class CardCache:
    """The whole pool in memory, rebuilt when the pool changes (``stamp`` differs), so a
    request never waits on the database. Safe to share: a rebuild swaps the index whole."""

    def __init__(self, stamp: Callable[[], object], load: Callable[[], list[Card]]) -> None:
        self._stamp_of, self._load = stamp, load
        self._stamp: object = None
        self._index: CardIndex | None = None
        self._lock = threading.Lock()

    def index(self) -> CardIndex:
        stamp = self._stamp_of()
        if stamp != self._stamp or self._index is None:
            with self._lock:
                if stamp != self._stamp or self._index is None:
                    self._index = CardIndex(self._load())
                    self._stamp = stamp
        return self._index


class Cards:
    """Where the service reads cards: the SQLite pool, or ``DECKCHECK_DATABASE_URL``."""

    def __init__(self, settings: Settings) -> None:
        self.sql = None
        if settings.database_url:
            from deckcheck.pool.sql import SqlPool

            self.sql = SqlPool(settings.database_url)
        else:
            Pool(settings.db).close()  # create and fill the pool now, not in the first request
        self.db = settings.db

        def file_stamp() -> object:
            stat = self.db.stat()
            return (stat.st_mtime, stat.st_size)

        def load() -> list[Card]:
            with Pool(self.db) as pool:
                return pool.all_cards()

        self.cache = (
            CardCache(self.sql.stamp, self.sql.all_cards)
            if self.sql
            else CardCache(file_stamp, load)
        )

    def stats(self) -> dict[str, object]:
        if self.sql:
            return self.sql.stats()
        with Pool(self.db) as pool:
            return pool.stats()

    def get(self, game: Game, number: str) -> Card | None:
        if self.sql:
            return self.sql.get(game, number)
        with Pool(self.db) as pool:
            return pool.get(game, number)

    def search(self, *args: Any, **kwargs: Any) -> list[Card]:
        if self.sql:
            return self.sql.search(*args, **kwargs)
        with Pool(self.db) as pool:
            return pool.search(*args, **kwargs)


# --- request models -------------------------------------------------------------------------

DeckInput = Annotated[
    str | dict[str, Any],
    Field(description="A deck list: the text form (format line allowed) or the JSON form."),
]


class DeckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    deck: DeckInput
    format: str | None = Field(None, description="Format id; overrides the deck's format line.")


class OddsBody(DeckRequest):
    want: list[str] = Field(min_length=1, max_length=10)
    turns: int = Field(5, ge=0, le=30)
    on_play: bool = True
    mulligan: bool = True
    attack_draws: bool = False
    partner: str | None = None
    simulate: int | None = Field(None, ge=1, le=2_000_000)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    table: str | None = None


class HandBody(DeckRequest):
    count: int = Field(1, ge=1, le=100)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    want: list[str] = Field(default_factory=list, max_length=10)
    partner: str | None = None


class GoldfishBody(DeckRequest):
    games: int = Field(1000, ge=1)
    turns: int = Field(10, ge=1, le=30)
    seed: int = Field(0, ge=0, le=2**63 - 1)
    on_play: bool = True
    policy: dict[str, Any] | None = Field(None, description="Policy keys, as in a policy file.")


class SavedDeckBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200)
    format: str = Field(min_length=1, max_length=100)
    deck: DeckInput


# --- the app --------------------------------------------------------------------------------


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    registry = default_registry()
    card_store = Cards(settings)
    store = DeckStore(
        settings.database_url or f"sqlite:///{settings.db.with_suffix('.decks.sqlite3')}"
    )
    jobs = Jobs(settings.max_jobs)
    app = FastAPI(
        title="deckcheck",
        version=__version__,
        description="Deck legality, odds and goldfish for ChaosTCG, ラクエンロジック, "
        "東方 Phantom Magic VISION and あいりすミスティリア! TCG. Errors are RFC 9457 "
        "problem documents.",
    )
    install(app)
    app.state.settings, app.state.store, app.state.jobs = settings, store, jobs

    def fmt_of(ref: str | None, deck: DeckList) -> Format:
        chosen = ref or deck.format
        if not chosen:
            raise Problem(
                422,
                "unknown-format",
                "the deck has no format line and the request no format",
                errors=[{"path": "body.format", "message": "required"}],
            )
        try:
            return registry.get(chosen) if not chosen.endswith(".toml") else _no_files()
        except FormatError as exc:
            raise Problem(
                422,
                "unknown-format",
                str(exc),
                errors=[{"path": "body.format", "message": str(exc)}],
            ) from exc

    def parse(deck: str | dict[str, Any]) -> DeckList:
        import json

        text = deck if isinstance(deck, str) else json.dumps(deck, ensure_ascii=False)
        parsed = decklist.parse(text, None)
        if isinstance(deck, str):
            lines = sum(1 for line in deck.splitlines() if line.strip())
        else:
            lines = len(parsed.entries) + len(parsed.problems)
        if lines > MAX_LINES:
            raise Problem(
                422,
                "limit-exceeded",
                f"the deck has {lines} lines; the limit is {MAX_LINES}",
                limit=MAX_LINES,
                errors=[{"path": "body.deck", "message": "too many lines"}],
            )
        return parsed

    def index_for(deck: DeckList) -> CardIndex:
        try:
            return card_store.cache.index()
        except PoolError as exc:  # pragma: no cover - a broken pool file
            raise Problem(503, "internal", str(exc)) from exc

    def require_key(authorization: Annotated[str | None, Header()] = None) -> None:
        if not settings.api_keys:
            raise Problem(403, "forbidden", "writes are disabled: set DECKCHECK_API_KEYS")
        if not authorization or not authorization.lower().startswith("bearer "):
            raise Problem(401, "unauthorized", "send Authorization: Bearer <API key>")
        given = authorization[7:].strip().encode()
        ok = False
        for key in settings.api_keys:  # every key compared, in constant time
            ok |= hmac.compare_digest(given, key.encode())
        if not ok:
            raise Problem(403, "forbidden", "the API key is not valid")

    @app.get("/health", tags=["service"])
    def health() -> dict[str, Any]:
        return {"status": "ok", "version": __version__, "cards": card_store.stats()["total"]}

    @app.get("/formats", tags=["formats"])
    def formats() -> list[dict[str, Any]]:
        return [
            {"id": f.id, "game": f.game.value, "name": f.name, "assumptions": f.assumptions}
            for f in registry.all()
        ]

    @app.get("/formats/{format_id}", tags=["formats"])
    def format_detail(format_id: str) -> dict[str, Any]:
        if format_id not in registry.ids():
            raise Problem(404, "unknown-format", f"unknown format {format_id!r}")
        return registry.get(format_id).model_dump(mode="json")

    @app.get("/cards", tags=["cards"])
    def cards(
        game: Game | None = None,
        q: Annotated[str | None, Query(max_length=200)] = None,
        type: Annotated[str | None, Query(max_length=40)] = None,
        title: Annotated[str | None, Query(max_length=200)] = None,
        os: Annotated[str | None, Query(max_length=200)] = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
        max_level: Annotated[int | None, Query(ge=-1000, le=1000)] = None,
        max_cost: Annotated[int | None, Query(ge=-1000, le=1000)] = None,
        keyword: Annotated[str | None, Query(max_length=200)] = None,
        user: Annotated[str | None, Query(max_length=200)] = None,
        klass: Annotated[str | None, Query(alias="class", max_length=200)] = None,
        package: Annotated[str | None, Query(max_length=40)] = None,
        link: Annotated[str | None, Query(max_length=200)] = None,
        max_node: Annotated[int | None, Query(ge=-1000, le=1000)] = None,
        min_graze: Annotated[int | None, Query(ge=-1000, le=1000)] = None,
    ) -> list[Card]:
        if type is not None and not any(type in CARD_TYPES[g] for g in Game):
            raise Problem(
                422,
                "invalid-request",
                f"unknown card type {type!r}",
                errors=[{"path": "query.type", "message": "unknown card type"}],
            )
        return card_store.search(
            game,
            q,
            type,
            title or os,
            limit=limit,
            offset=offset,
            max_level=max_level,
            max_cost=max_cost,
            keyword=keyword,
            user=user,
            package=package,
            link=link,
            max_node=max_node,
            min_graze=min_graze,
            **{"class": klass},
        )

    @app.get("/cards/{game}/{number}", tags=["cards"])
    def card(game: str, number: str) -> Card:
        chosen = next((g for g in Game if g.value == game), None)
        if chosen is None:
            raise Problem(404, "unknown-card", f"unknown game {game!r}")
        found = card_store.get(chosen, number)
        if found is None:
            raise Problem(404, "unknown-card", f"no {game} card {number!r}")
        return found

    @app.post(
        "/validate",
        tags=["decks"],
        response_model=None,
        responses={200: {"model": Report, "description": "The verdict"}},
    )
    async def validate_deck(body: DeckRequest) -> JSONResponse:
        # async: a verdict takes well under a millisecond, less than a thread hand-off
        deck = parse(body.deck)
        report = validate(deck, fmt_of(body.format, deck), index_for(deck))
        return JSONResponse(report.model_dump(mode="json"))

    @app.post("/resolve", tags=["decks"])
    def resolve(body: DeckRequest) -> dict[str, Any]:
        """The deck list's lines as cards (number, name, type), for editors such as the web
        page; unresolved lines keep their reference and say why."""
        deck = parse(body.deck)
        fmt = fmt_of(body.format, deck)
        index = index_for(deck)
        entries = []
        for e in deck.entries:
            found = index.resolve(fmt.game, e.ref)
            card = found.card
            entries.append(
                {
                    "section": e.section,
                    "count": e.count,
                    "ref": e.ref,
                    "line": e.line,
                    "number": card.number if card else None,
                    "name": card.name if card else e.ref,
                    "type": card.type if card else None,
                }
            )
        return {
            "format": fmt.id,
            "game": fmt.game.value,
            "entries": entries,
            "problems": [p.model_dump(mode="json") for p in deck.problems],
        }

    @app.post("/odds", tags=["odds"])
    def odds(body: OddsBody) -> Any:
        from deckcheck.odds.api import ConditionError, OddsError, OddsRequest, compute_odds

        deck = parse(body.deck)
        fmt = fmt_of(body.format, deck)
        req = OddsRequest(**body.model_dump(exclude={"deck", "format"}))
        try:
            return compute_odds(deck, fmt, index_for(deck), req).model_dump(mode="json")
        except ConditionError as exc:
            raise Problem(
                422, "bad-condition", str(exc), errors=[{"path": "body.want", "message": str(exc)}]
            ) from exc
        except OddsError as exc:
            raise Problem(422, "unanswerable", str(exc)) from exc

    @app.post("/hand", tags=["odds"])
    def hand(body: HandBody) -> Any:
        from deckcheck.odds.api import ConditionError, OddsError, deal_hands

        deck = parse(body.deck)
        fmt = fmt_of(body.format, deck)
        try:
            result = deal_hands(
                deck, fmt, index_for(deck), body.count, body.seed, body.partner, body.want
            )
        except ConditionError as exc:
            raise Problem(422, "bad-condition", str(exc)) from exc
        except OddsError as exc:
            raise Problem(422, "unanswerable", str(exc)) from exc
        return result.model_dump(mode="json")

    @app.post("/goldfish", tags=["goldfish"], responses={202: {"description": "A job started"}})
    def goldfish(body: GoldfishBody, response: Response) -> Any:
        from deckcheck.goldfish.policy import DEFAULTS, Policy, PolicyError
        from deckcheck.goldfish.run import GoldfishError, GoldfishRequest
        from deckcheck.goldfish.run import goldfish as run

        if body.games > settings.job_games:
            raise Problem(
                422,
                "limit-exceeded",
                f"games is over the limit of {settings.job_games}",
                limit=settings.job_games,
                errors=[{"path": "body.games", "message": "over the limit"}],
            )
        deck = parse(body.deck)
        fmt = fmt_of(body.format, deck)
        try:
            base = DEFAULTS[fmt.game].model_dump()
            policy = Policy.model_validate({**base, **(body.policy or {})})
            from deckcheck.goldfish.policy import Compiled

            Compiled(policy, fmt.game)
        except (ValueError, PolicyError) as exc:
            raise Problem(422, "invalid-request", f"policy: {exc}") from exc
        index = index_for(deck)
        req = GoldfishRequest(
            games=body.games, turns=body.turns, seed=body.seed, on_play=body.on_play
        )
        try:
            from deckcheck.goldfish.run import prepare

            setup = prepare(deck, fmt, index, policy)
        except GoldfishError as exc:
            raise Problem(422, "unanswerable", str(exc)) from exc
        if body.games <= settings.sync_games:
            return run(deck, fmt, index, policy, req, setup=setup).model_dump(mode="json")
        job = jobs.start(
            body.games,
            lambda progress: run(deck, fmt, index, policy, req, progress, setup).model_dump(
                mode="json"
            ),
        )
        if job is None:
            raise Problem(
                429,
                "too-many-jobs",
                f"{settings.max_jobs} jobs are running; try again later",
                limit=settings.max_jobs,
            )
        response.status_code = 202
        response.headers["Location"] = f"/jobs/{job.id}"
        return job.view()

    @app.get("/jobs/{job_id}", tags=["goldfish"])
    def job_status(job_id: str) -> dict[str, Any]:
        job = jobs.get(job_id)
        if job is None:
            raise Problem(404, "not-found", f"no job {job_id!r}")
        return job.view()

    @app.delete("/jobs/{job_id}", tags=["goldfish"])
    def job_cancel(job_id: str) -> dict[str, Any]:
        job = jobs.cancel(job_id)
        if job is None:
            raise Problem(404, "not-found", f"no job {job_id!r}")
        return job.view()

    def saved_view(row: dict[str, Any]) -> dict[str, Any]:
        deck = decklist.parse(row["deck"], None)
        try:
            fmt = registry.get(row["format"])
            verdict: Any = validate(deck, fmt, index_for(deck)).model_dump(mode="json")
        except FormatError as exc:
            verdict = {"error": str(exc)}
        return {
            "id": row["id"],
            "name": row["name"],
            "format": row["format"],
            "deck": row["deck"],
            "created": row["created"].isoformat(),
            "updated": row["updated"].isoformat(),
            "verdict": verdict,
        }

    def stored_text(body: SavedDeckBody) -> str:
        deck = parse(body.deck)
        fmt_of(body.format, deck)
        if isinstance(body.deck, str):
            return body.deck
        return decklist.print_text(deck)

    @app.post("/decks", tags=["saved decks"], status_code=201, dependencies=[Depends(require_key)])
    def deck_create(body: SavedDeckBody) -> dict[str, Any]:
        return saved_view(store.create(body.name, body.format, stored_text(body)))

    @app.get("/decks", tags=["saved decks"])
    def deck_list(
        format: Annotated[str | None, Query(max_length=100)] = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> list[dict[str, Any]]:
        rows = store.list(format, limit, offset)
        return [
            {
                "id": r["id"],
                "name": r["name"],
                "format": r["format"],
                "updated": r["updated"].isoformat(),
            }
            for r in rows
        ]

    def saved(deck_id: str) -> dict[str, Any]:
        row = store.get(deck_id)
        if row is None:
            raise Problem(404, "not-found", f"no saved deck {deck_id!r}")
        return row

    @app.get("/decks/{deck_id}", tags=["saved decks"])
    def deck_get(deck_id: str) -> dict[str, Any]:
        return saved_view(saved(deck_id))

    @app.put("/decks/{deck_id}", tags=["saved decks"], dependencies=[Depends(require_key)])
    def deck_put(deck_id: str, body: SavedDeckBody) -> dict[str, Any]:
        saved(deck_id)
        row = store.update(deck_id, body.name, body.format, stored_text(body))
        assert row is not None
        return saved_view(row)

    @app.delete(
        "/decks/{deck_id}",
        tags=["saved decks"],
        status_code=204,
        dependencies=[Depends(require_key)],
    )
    def deck_delete(deck_id: str) -> Response:
        if not store.delete(deck_id):
            raise Problem(404, "not-found", f"no saved deck {deck_id!r}")
        return Response(status_code=204)

    @app.get(
        "/decks/{deck_id}/export",
        tags=["saved decks"],
        responses={200: {"content": {"text/plain": {}, "application/json": {}}}},
    )
    def deck_export(
        deck_id: str, as_: Annotated[Literal["text", "json"], Query(alias="as")] = "text"
    ) -> Response:
        row = saved(deck_id)
        deck = decklist.parse(row["deck"], None)
        deck.format = deck.format or row["format"]
        if as_ == "json":
            return JSONResponse(decklist.to_json(deck))
        return PlainTextResponse(decklist.print_text(deck), media_type="text/plain; charset=utf-8")

    from deckcheck.web import mount

    mount(app, registry)
    app.add_middleware(BodyLimit, limit=settings.max_body)
    return app


def _no_files() -> Format:
    raise FormatError("format files cannot be named over HTTP; use a format id")
