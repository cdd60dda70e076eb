"""Saved decks, through SQLAlchemy 2: SQLite by default (the pool's file), or PostgreSQL when
``DECKCHECK_DATABASE_URL`` says so. Verdicts are computed on read, never stored.

Each deck has a ``version``, bumped by every write; the service sends it as the ``ETag``. A write
that names the versions it expects (``If-Match``) is one conditional statement, so of two
clients that read the same version only the first write wins.

Each deck has an ``owner`` (a digest of the API key that created it; None for a deck saved before
decks had owners) and a ``visibility``: ``private`` (its owner only), ``link`` (anyone who has
its id, a UUID4: 122 random bits) or ``public`` (listed for all)."""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import (
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

metadata = MetaData()
decks = Table(
    "saved_decks",  # i18n: machine
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("format", String(100), nullable=False),
    Column("deck", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
    Column("version", Integer, nullable=False, server_default="1"),
    Column("owner", String(64), index=True),  # SHA-256 of the creating key; None: saved before
    # owners existed. Such decks were listed and read by all: they stay readable by their link
    # but are no longer listed, and only an admin key changes them (deckcheck's choice).
    Column("visibility", String(10), nullable=False, server_default="link"),
)

Visibility = Literal["private", "link", "public"]
VISIBILITIES: tuple[Visibility, ...] = ("private", "link", "public")


_engines: dict[tuple[str, int], Engine] = {}
_engines_lock = threading.Lock()


def engine_for(url: str) -> Engine:
    """One engine per database and process. A worker process forked from the service must not
    use the parent's pooled connections, so it drops them (without closing them: they are the
    parent's) and opens its own."""
    pid = os.getpid()
    with _engines_lock:
        engine = _engines.get((url, pid))
        if engine is not None:
            return engine
        for key, inherited in list(_engines.items()):
            if key[1] != pid:
                inherited.dispose(close=False)
                del _engines[key]
        engine = create_engine(url, future=True, **_options(url))
        if url.startswith("sqlite"):
            event.listen(engine, "connect", _sqlite_pragmas)
        _engines[(url, pid)] = engine
        return engine


# Seconds a write waits for another writer's SQLite lock. Job progress, written by worker
# processes, waits long rather than fail at once; a request's thread waits briefly, then the
# request is a 503 with Retry-After: a locked file held a thread 30 s per anonymous
# ``DELETE /jobs/x``, and 60 of them starved ``/formats`` (issue 37). Our write transactions
# last milliseconds, so a lock held longer is held by something else.
WRITER_WAIT = 30.0
REQUEST_WAIT = 5.0


def _options(url: str) -> dict[str, Any]:
    # several processes write job progress: wait for SQLite's lock instead of failing at once
    return {"connect_args": {"timeout": WRITER_WAIT}} if url.startswith("sqlite") else {}


@contextmanager
def writing(engine: Engine, wait: float | None) -> Iterator[Connection]:
    """``engine.begin()``; with ``wait``, another writer's lock is waited for at most that
    many seconds (SQLite's busy timeout on this connection, put back after), then the write
    fails with "database is locked". PostgreSQL locks rows, not the file: unchanged."""
    if wait is None or engine.dialect.name != "sqlite":
        with engine.begin() as conn:
            yield conn
        return
    with engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        _busy(raw, wait)
        try:
            with conn.begin():
                yield conn
        finally:
            _busy(raw, WRITER_WAIT)


def _busy(raw: Any, seconds: float) -> None:
    cursor = raw.cursor()  # the DBAPI's own: a PRAGMA begins no transaction there
    cursor.execute(f"PRAGMA busy_timeout = {round(seconds * 1000)}")
    cursor.close()


def _sqlite_pragmas(conn: Any, _: Any) -> None:
    cursor = conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait for a progress write
    cursor.close()


def create_tables(engine: Engine) -> None:
    """``create_all``, which two processes starting at once may race on: the loser retries
    and then finds the tables there."""
    for attempt in range(5):
        try:
            metadata.create_all(engine)
            return
        except SQLAlchemyError:
            if attempt == 4:
                raise
            time.sleep(0.2 * (attempt + 1))


class Stale(Exception):
    """The deck exists, but not at any of the versions the write expected."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the deck is at version {version}")
        self.version = version


class NotOwner(Exception):
    """The deck exists, but belongs to another key."""

    def __init__(self, visibility: str) -> None:
        super().__init__("the deck belongs to another key")
        self.visibility = visibility


class DeckStore:
    def __init__(self, url: str) -> None:
        self.engine: Engine = engine_for(url)
        create_tables(self.engine)
        columns = {c["name"] for c in inspect(self.engine).get_columns("saved_decks")}
        added = {  # columns a database saved by an earlier deckcheck lacks
            "version": "version INTEGER NOT NULL DEFAULT 1",
            "owner": "owner VARCHAR(64)",
            "visibility": "visibility VARCHAR(10) NOT NULL DEFAULT 'link'",
        }
        for name, column in added.items():
            if name not in columns:
                with self.engine.begin() as conn:
                    add = "ALTER TABLE saved_decks ADD COLUMN "  # i18n: machine
                    conn.execute(text(add + column))

    def create(
        self, name: str, fmt: str, deck: str, owner: str, visibility: Visibility = "private"
    ) -> dict[str, Any]:
        now = datetime.now(UTC)
        row = {
            "id": uuid.uuid4().hex,
            "name": name,
            "format": fmt,
            "deck": deck,
            "created": now,
            "updated": now,
            "version": 1,
            "owner": owner,
            "visibility": visibility,
        }
        with writing(self.engine, REQUEST_WAIT) as conn:  # writes come from requests only
            conn.execute(decks.insert().values(**row))
        return row

    def get(self, deck_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(decks).where(decks.c.id == deck_id)).mappings().first()
        return dict(row) if row else None

    def update(
        self,
        deck_id: str,
        name: str,
        fmt: str,
        deck: str,
        expected: set[int] | None = None,
        owner: str | None = None,
        visibility: Visibility | None = None,
    ) -> dict[str, Any] | None:
        """The new row, None when there is no such deck; ``Stale`` when its version is not in
        ``expected`` (None: any version); ``NotOwner`` when ``owner`` is given and is not the
        deck's. Check and write are one statement. ``visibility`` None keeps the deck's."""
        values: dict[str, Any] = {
            "name": name, "format": fmt, "deck": deck, "updated": datetime.now(UTC)
        }
        if visibility is not None:
            values["visibility"] = visibility
        with writing(self.engine, REQUEST_WAIT) as conn:
            where = self._where(deck_id, expected, owner)
            done = conn.execute(
                decks.update().where(where).values(version=decks.c.version + 1, **values)
            )
            if not done.rowcount:
                self._missing_or_stale(conn, deck_id, owner)
                return None
            row = conn.execute(select(decks).where(decks.c.id == deck_id)).mappings().first()
        return dict(row) if row else None

    def delete(
        self, deck_id: str, expected: set[int] | None = None, owner: str | None = None
    ) -> bool:
        """False when there is no such deck; ``Stale`` and ``NotOwner`` as for ``update``."""
        with writing(self.engine, REQUEST_WAIT) as conn:
            if conn.execute(decks.delete().where(self._where(deck_id, expected, owner))).rowcount:
                return True
            self._missing_or_stale(conn, deck_id, owner)
            return False

    @staticmethod
    def _where(deck_id: str, expected: set[int] | None, owner: str | None) -> Any:
        # the owner is part of the statement: a deck cannot change hands between check and write
        where = decks.c.id == deck_id
        if owner is not None:
            where = where & (decks.c.owner == owner)
        return where if expected is None else where & decks.c.version.in_(sorted(expected))

    @staticmethod
    def _missing_or_stale(conn: Connection, deck_id: str, owner: str | None) -> None:
        query = select(decks.c.version, decks.c.owner, decks.c.visibility)
        row = conn.execute(query.where(decks.c.id == deck_id)).first()
        if row is None:
            return
        if owner is not None and row.owner != owner:
            raise NotOwner(row.visibility)
        raise Stale(row.version)

    def list(
        self,
        fmt: str | None = None,
        limit: int = 100,
        offset: int = 0,
        owner: str | None = None,
        everyone: bool = False,
    ) -> list[dict[str, Any]]:
        """Public decks and ``owner``'s own (every deck when ``everyone``)."""
        query = select(decks).order_by(decks.c.created, decks.c.id).limit(limit).offset(offset)
        if not everyone:
            shown = decks.c.visibility == "public"
            query = query.where(shown if owner is None else shown | (decks.c.owner == owner))
        if fmt:
            query = query.where(decks.c.format == fmt)
        with self.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query).mappings()]
