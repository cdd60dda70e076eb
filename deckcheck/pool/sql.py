"""The card pool through SQLAlchemy 2, for ``DECKCHECK_DATABASE_URL`` (PostgreSQL, or any
database SQLAlchemy drives). Same cards, same checks and the same all-or-nothing imports as the
SQLite pool; filled from ``card_pool/`` when empty."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    delete,
    func,
    insert,
    or_,
    select,
    tuple_,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql.elements import ColumnElement

from deckcheck import data, games
from deckcheck.models import Card, Game
from deckcheck.normalize import title_key
from deckcheck.pool.importer import card_files, check_file
from deckcheck.pool.store import ImportRejected, ImportResult, card_row, row_card
from deckcheck.resolve import CardIndex, number_key, ref_keys

metadata = MetaData()
cards = Table(
    "deckcheck_cards",
    metadata,
    Column("game", String(10), primary_key=True),
    Column("number_key", String(200), primary_key=True),
    Column("number", String(200), nullable=False),
    Column("name", Text, nullable=False),
    Column("name_key", Text, nullable=False, index=True),
    Column("type", String(20), nullable=False),
    Column("kind", String(20)),
    Column("title", Text),
    Column("title_key", Text),
    Column("os", Text),
    Column("os_key", Text),
    Column("append", Text, nullable=False),
    Column("keywords", Text, nullable=False),
    Column("gate_number", Integer),
    Column("level", Integer),
    Column("cost", Integer),
    Column("power", Integer),
    Column("color", Text),
    Column("world", Text),
    Column("hp", Integer),
    Column("territory", Integer),
    Column("rarity", Text),
    Column("extra_cost", Text),
    Column("source", Text),
)


class SqlPool:
    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        metadata.create_all(self.engine)
        if not self.stats()["total"]:
            self.import_files(list(card_files(data.card_pool_dir())))

    @property
    def path(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> SqlPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def index_for(self, refs: Iterable[str]) -> CardIndex:
        """An index of the whole pool (the SQL pool serves the CLI the simple way)."""
        return CardIndex(self.all_cards())

    def _title_maps(self) -> tuple[dict[str, str], dict[str, str]]:
        table = data.chaos_os_table()
        return table.title_index(), table.os_index()

    def import_files(self, paths: Sequence[Path]) -> ImportResult:
        """All or nothing, in one transaction (see ``Pool.import_files``)."""
        titles, os_names = self._title_maps()
        checked = [check_file(p, titles, os_names) for p in paths]
        errors = [e for f in checked for e in f.errors]
        if errors:
            raise ImportRejected(errors)
        new = [c for f in checked for c in f.cards]
        keys = [(c.game, number_key(c.number)) for c in new]
        with self.engine.begin() as conn:
            existing = self._count(conn, keys)
            for i in range(0, len(keys), 500):
                conn.execute(
                    delete(cards).where(
                        tuple_(cards.c.game, cards.c.number_key).in_(keys[i : i + 500])
                    )
                )
            if new:
                conn.execute(insert(cards), [card_row(c) for c in new])
        return ImportResult(
            added=len(new) - existing,
            updated=existing,
            files=[f.path for f in checked],
            unknown_columns={f.path: f.unknown_columns for f in checked if f.unknown_columns},
        )

    @staticmethod
    def _count(conn: Connection, keys: list[tuple[str, str]]) -> int:
        found = 0
        for i in range(0, len(keys), 500):
            found += conn.execute(
                select(func.count())
                .select_from(cards)
                .where(tuple_(cards.c.game, cards.c.number_key).in_(keys[i : i + 500]))
            ).scalar_one()
        return int(found)

    def stats(self) -> dict[str, object]:
        by_game = {g: 0 for g in games.ids()}
        with self.engine.connect() as conn:
            for game, n in conn.execute(select(cards.c.game, func.count()).group_by(cards.c.game)):
                by_game[game] = int(n)
        return {"total": sum(by_game.values()), "by_game": by_game}

    def get(self, game: Game, number: str) -> Card | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(cards).where(
                    and_(cards.c.game == game, cards.c.number_key == number_key(number))
                )
            ).first()
        return row_card(row._mapping) if row else None

    def all_cards(self) -> list[Card]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(cards).order_by(cards.c.game, cards.c.number)).all()
        return [row_card(r._mapping) for r in rows]

    def stamp(self) -> tuple[object, ...]:
        """Changes when the cards change (for the service's in-memory copy)."""
        with self.engine.connect() as conn:
            return tuple(
                conn.execute(
                    select(
                        func.count(),
                        func.max(cards.c.number_key),
                        func.sum(func.length(cards.c.name)),
                    )
                ).one()
            )

    def search(
        self,
        game: Game | None = None,
        name: str | None = None,
        type: str | None = None,
        title: str | None = None,
        limit: int = 50,
        offset: int = 0,
        max_level: int | None = None,
        max_cost: int | None = None,
    ) -> list[Card]:
        where: list[ColumnElement[bool]] = []
        if game is not None:
            where.append(cards.c.game == game)
        if name:
            keys: Iterable[str] = ref_keys(name)
            where.append(
                or_(
                    *(cards.c.name_key.contains(k, autoescape=True) for k in keys),
                    cards.c.number_key.startswith(number_key(name), autoescape=True),
                )
            )
        if type:
            where.append(cards.c.type == type)
        if title:
            key = title_key(title)
            os_of = data.chaos_os_table().title_index().get(key)
            keys2 = {key, title_key(os_of)} if os_of else {key}
            where.append(or_(cards.c.os_key.in_(keys2), cards.c.title_key == key))
        if max_level is not None:
            where.append(cards.c.level <= max_level)
        if max_cost is not None:
            where.append(cards.c.cost <= max_cost)
        query = select(cards).where(*where).order_by(cards.c.game, cards.c.number)
        with self.engine.connect() as conn:
            rows = conn.execute(query.limit(max(0, limit)).offset(max(0, offset))).all()
        return [row_card(r._mapping) for r in rows]
