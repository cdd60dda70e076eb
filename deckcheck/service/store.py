"""Saved decks, through SQLAlchemy 2: SQLite by default (the pool's file), or PostgreSQL when
``DECKCHECK_DATABASE_URL`` says so. Verdicts are computed on read, never stored."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Column, DateTime, MetaData, String, Table, Text, create_engine, select
from sqlalchemy.engine import Engine

metadata = MetaData()
decks = Table(
    "saved_decks",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("format", String(100), nullable=False),
    Column("deck", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)


class DeckStore:
    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(url, future=True)
        metadata.create_all(self.engine)

    def create(self, name: str, fmt: str, deck: str) -> dict[str, Any]:
        now = datetime.now(UTC)
        row = {
            "id": uuid.uuid4().hex,
            "name": name,
            "format": fmt,
            "deck": deck,
            "created": now,
            "updated": now,
        }
        with self.engine.begin() as conn:
            conn.execute(decks.insert().values(**row))
        return row

    def get(self, deck_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(decks).where(decks.c.id == deck_id)).mappings().first()
        return dict(row) if row else None

    def update(self, deck_id: str, name: str, fmt: str, deck: str) -> dict[str, Any] | None:
        with self.engine.begin() as conn:
            done = conn.execute(
                decks.update()
                .where(decks.c.id == deck_id)
                .values(name=name, format=fmt, deck=deck, updated=datetime.now(UTC))
            )
        return self.get(deck_id) if done.rowcount else None

    def delete(self, deck_id: str) -> bool:
        with self.engine.begin() as conn:
            return bool(conn.execute(decks.delete().where(decks.c.id == deck_id)).rowcount)

    def list(
        self, fmt: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[dict[str, Any]]:
        query = select(decks).order_by(decks.c.created, decks.c.id).limit(limit).offset(offset)
        if fmt:
            query = query.where(decks.c.format == fmt)
        with self.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query).mappings()]
