"""The service's settings, read from the environment once, when the app is created.

``DECKCHECK_DB`` (the card pool), ``DECKCHECK_DATABASE_URL`` (saved decks; SQLite beside the pool
by default, or PostgreSQL), ``DECKCHECK_API_KEYS`` (comma-separated keys for writes),
``DECKCHECK_SYNC_GAMES`` (goldfish games answered at once, default 20,000),
``DECKCHECK_JOB_GAMES`` (the most a job may play, default 1,000,000), ``DECKCHECK_MAX_JOBS``
(running jobs, default 2), ``DECKCHECK_MAX_BODY`` (bytes, default 1 MiB),
``DECKCHECK_REQUIRE_IF_MATCH`` (1: deck writes without ``If-Match`` get 428),
``DECKCHECK_WORKERS`` (processes for goldfish and odds, default 2), ``DECKCHECK_QUEUE`` (tasks
that may wait for one, default 8; then 429), ``DECKCHECK_SYNC_SIMULATE`` (the most ``/odds`` may
simulate, default 200,000), ``DECKCHECK_JOB_TTL`` (seconds an ended job is kept, default 3600),
``DECKCHECK_DOCS`` (0: no ``/docs``), ``DECKCHECK_KEY_QUEUE`` (further places in that queue for
requests with a valid API key, default 8), ``DECKCHECK_DASK_SCHEDULER`` (tcp://HOST:PORT:
background jobs play on that Dask cluster instead of the worker processes).

Jobs live in the saved decks' database, so every process and host that shares it answers
for every job.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from deckcheck.pool.store import default_db_path


@dataclass
class Settings:
    db: Path = field(default_factory=default_db_path)
    database_url: str | None = None
    api_keys: tuple[str, ...] = ()
    sync_games: int = 20_000
    job_games: int = 1_000_000
    max_jobs: int = 2
    max_body: int = 1 << 20
    require_if_match: bool = False
    workers: int = 2
    queue: int = 8
    sync_simulate: int = 200_000
    job_ttl: float = 3600.0
    docs: bool = True
    dask_scheduler: str | None = None
    key_queue: int = 8

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
            require_if_match=env.get("DECKCHECK_REQUIRE_IF_MATCH", "") in ("1", "true", "yes"),
            workers=int(env.get("DECKCHECK_WORKERS", 2)),
            queue=int(env.get("DECKCHECK_QUEUE", 8)),
            sync_simulate=int(env.get("DECKCHECK_SYNC_SIMULATE", 200_000)),
            job_ttl=float(env.get("DECKCHECK_JOB_TTL", 3600)),
            docs=env.get("DECKCHECK_DOCS", "1") not in ("0", "false", "no"),
            dask_scheduler=env.get("DECKCHECK_DASK_SCHEDULER") or None,
            key_queue=int(env.get("DECKCHECK_KEY_QUEUE", 8)),
        )

    @property
    def decks_url(self) -> str:
        """Where saved decks live: ``database_url``, else SQLite beside the card pool."""
        return self.database_url or f"sqlite:///{self.db.with_suffix('.decks.sqlite3')}"
