"""The service's settings, read from the environment once, when the app is created
(pydantic-settings: each field ``x`` is the variable ``DECKCHECK_X``; an empty variable counts
as unset).

``DECKCHECK_DB`` (the card pool), ``DECKCHECK_DATABASE_URL`` (saved decks; SQLite beside the pool
by default, or PostgreSQL), ``DECKCHECK_API_KEYS`` (comma-separated keys for writes; a saved
deck belongs to the key that created it), ``DECKCHECK_ADMIN_KEYS`` (keys that may also change
or delete any saved deck),
``DECKCHECK_SYNC_GAMES`` (goldfish games answered at once, default 20,000),
``DECKCHECK_JOB_GAMES`` (the most a job may play, default 1,000,000), ``DECKCHECK_MAX_JOBS``
(running jobs, default 2), ``DECKCHECK_MAX_BODY`` (bytes, default 1 MiB),
``DECKCHECK_REQUIRE_IF_MATCH`` (1: deck writes without ``If-Match`` get 428),
``DECKCHECK_WORKERS`` (processes for goldfish and odds, default 2), ``DECKCHECK_QUEUE`` (tasks
that may wait for one, default 8; then 429), ``DECKCHECK_SYNC_SIMULATE`` (the most ``/odds`` may
simulate, default 200,000), ``DECKCHECK_JOB_TTL`` (seconds an ended job is kept, default 3600),
``DECKCHECK_DOCS`` (0: no ``/docs``), ``DECKCHECK_KEY_QUEUE`` (further places in that queue for
requests with a valid API key, default 8), ``DECKCHECK_DASK_SCHEDULER`` (tcp://HOST:PORT:
background jobs play on that Dask cluster instead of the worker processes), ``DECKCHECK_WARM``
(1: compile the goldfish engines in the background at start-up, goldfish of a game whose engine
is not ready yet played by the reference engine; ``deckcheck serve`` sets it unless given),
``DECKCHECK_SYNC_SECONDS`` (the longest a synchronous ``/goldfish`` or ``/odds`` may work,
default 30; then 422), ``DECKCHECK_SYNC_WORK`` (the most games × deck cards a synchronous
``/goldfish`` may play, default 4,000,000; past it 422 before any game),
``DECKCHECK_DASK_CONNECT_TIMEOUT`` and ``DECKCHECK_DASK_WORKER_TIMEOUT`` (seconds to reach the
scheduler, and to wait for its first worker; defaults 10 and 30: then the job fails saying so),
``DECKCHECK_CHECK_PROCESSES`` (1: long decks are checked in a process of their own; 0: in a
thread). Background jobs have a pool of their own, of ``DECKCHECK_MAX_JOBS`` processes.

A value that cannot be used is a ``SettingsError`` naming the variable (exit 2 from
``deckcheck serve``), never a traceback.

Jobs live in the saved decks' database, so every process and host that shares it answers
for every job.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from deckcheck.errors import UsageError
from deckcheck.pool.store import default_db_path

PREFIX = "DECKCHECK_"


class SettingsError(UsageError):
    """A ``DECKCHECK_*`` variable that cannot be used; the message names it and its value."""


class Settings(BaseSettings):
    """The values given, defaults for the rest: built this way it reads no environment (as a
    test or an embedding program wants); ``from_env`` reads ``DECKCHECK_*``."""

    model_config = SettingsConfigDict(env_prefix=PREFIX, env_ignore_empty=True, extra="forbid")
    reads_env: ClassVar[bool] = False

    db: Path = Field(default_factory=default_db_path)
    database_url: str | None = None
    api_keys: Annotated[tuple[str, ...], NoDecode] = ()
    admin_keys: Annotated[tuple[str, ...], NoDecode] = ()  # may change or delete any saved deck
    sync_games: int = Field(20_000, ge=0)
    job_games: int = Field(1_000_000, ge=1)
    max_jobs: int = Field(2, ge=1)
    max_body: int = Field(1 << 20, ge=1)
    require_if_match: bool = False
    workers: int = Field(2, ge=1)
    queue: int = Field(8, ge=0)
    sync_simulate: int = Field(200_000, ge=0)
    job_ttl: float = Field(3600.0, ge=0)
    docs: bool = True
    dask_scheduler: str | None = None
    key_queue: int = Field(8, ge=0)
    warm: bool = False  # compile the goldfish engines at start-up (`deckcheck serve` sets it)
    sync_seconds: float = Field(30.0, gt=0)
    sync_work: int = Field(4_000_000, ge=1)
    job_work: int = Field(100_000_000, ge=1)  # games × deck cards one job may play
    odds_work: int = Field(2_000_000_000, ge=1)  # an exact /odds count's work (odds.cost)
    dask_connect_timeout: float = Field(10.0, gt=0)
    dask_worker_timeout: float = Field(30.0, gt=0)
    check_processes: int = Field(1, ge=0, le=1)  # long decks' checks: 1 process, or 0: a thread

    @field_validator("api_keys", "admin_keys", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(k.strip() for k in value.split(",") if k.strip())
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings) if cls.reads_env else (init_settings,)

    @classmethod
    def from_env(cls, db: Path | None = None) -> Settings:
        """The settings of ``DECKCHECK_*``; ``db`` (``deckcheck serve --db``) before
        ``DECKCHECK_DB``. A bad value is a ``SettingsError``."""
        given: dict[str, Any] = {"db": db} if db is not None else {}
        try:
            return _FromEnv(**given)
        except ValidationError as exc:
            raise SettingsError(_explain(exc)) from None

    @property
    def decks_url(self) -> str:
        """Where saved decks live: ``database_url``, else SQLite beside the card pool."""
        return self.database_url or f"sqlite:///{self.db.with_suffix('.decks.sqlite3')}"


class _FromEnv(Settings):
    """``Settings`` that reads the environment too (given values first)."""

    reads_env: ClassVar[bool] = True


def _explain(exc: ValidationError) -> str:
    """One line per bad variable: its name, the value given and what it should be."""
    lines = []
    for error in exc.errors(include_url=False):
        field = str(error["loc"][0]) if error["loc"] else ""
        name = PREFIX + field.upper() if field in Settings.model_fields else field
        lines.append(f"{name}={error.get('input')!r}: {error['msg'].lower()}")
    return "bad service settings: " + "; ".join(lines)
