"""The card pool through SQLAlchemy 2, for ``DECKCHECK_DATABASE_URL`` (PostgreSQL, or any
database SQLAlchemy drives). Same cards, same checks and the same all-or-nothing imports as the
SQLite pool; filled from ``card_pool/`` when empty."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    create_engine,
    delete,
    func,
    insert,
    inspect,
    select,
    text,
    tuple_,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.types import TypeEngine

from deckcheck import data
from deckcheck.errors import PoolError
from deckcheck.i18n import _
from deckcheck.models import Card, Game
from deckcheck.plugins.columns import ColumnType
from deckcheck.pool.columns import (
    COLUMNS,
    EXTRA_COLUMNS,
    KEY_COLUMNS,
    card_row,
    read_card,
)
from deckcheck.pool.importer import card_files, check_import
from deckcheck.pool.protocol import CardPool
from deckcheck.pool.samples import pool_stats, real_games_query, split_visible, stats_query
from deckcheck.pool.search import (
    JsonText,
    count_query,
    get_query,
    postgres_json,
    sqlite_json,
)
from deckcheck.pool.store import ImportResult
from deckcheck.resolve import CardIndex, number_key

TABLE = "deckcheck_cards"


def _column(name: str, column_type: ColumnType, required: bool) -> Column[Any]:
    sql_type: TypeEngine[Any] = Integer() if column_type == "int" else Text()
    return Column(
        name,
        sql_type,
        primary_key=name in ("game", "number_key"),
        nullable=not (required or column_type == "list"),
    )


metadata = MetaData()
# The same columns as the SQLite table, from the Card model (pool/columns.py).
cards = Table(
    TABLE,
    metadata,
    *(_column(c.field, c.type, c.required) for c in COLUMNS),
    *(_column(k, "text", True) for k in (*EXTRA_COLUMNS, *KEY_COLUMNS)),
    Index("ix_deckcheck_cards_name_key", "name_key"),  # the name the old index=True gave,
)


class SqlPool(CardPool):
    table = TABLE
    path: str

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        self.path = self.engine.url.render_as_string(hide_password=True)
        self._check_columns()
        metadata.create_all(self.engine)
        if not self.stats()["total"]:
            self.import_files([p for folder in data.card_dirs() for p in card_files(folder)])

    def _check_columns(self) -> None:
        """A table made by another deckcheck version lacks columns: say so (create_all would
        leave it as it is, and every query would fail)."""
        inspector = inspect(self.engine)
        if not inspector.has_table(TABLE):
            return
        have = {c["name"] for c in inspector.get_columns(TABLE)}
        missing = sorted(set(cards.c.keys()) - have)
        if missing:
            self.engine.dispose()
            raise PoolError(
                _(
                    "the table {table} was made by another deckcheck version (no column "
                    "{columns}); drop it to have it rebuilt from card_pool/ (imported cards "
                    "are lost)",
                    table=TABLE,
                    columns=", ".join(missing),
                )
            )

    def _json_text(self) -> JsonText:
        dialect = self.engine.dialect.name
        if dialect == "sqlite":
            return sqlite_json
        if dialect == "postgresql":
            return postgres_json

        def unsupported(column: str, key: str) -> str:
            raise PoolError(
                _(
                    "searching a game's own card columns needs SQLite or PostgreSQL, not {dialect}",
                    dialect=dialect,
                )
            )

        return unsupported

    def close(self) -> None:
        self.engine.dispose()

    def index_for(self, refs: Iterable[str]) -> CardIndex:
        """An index of the whole pool (the SQL pool serves the CLI the simple way), less the
        samples of a game with real cards that ``refs`` do not name by number."""
        with self.engine.connect() as conn:
            real = {str(g) for (g,) in conn.execute(text(real_games_query(TABLE)))}
        found, hidden = split_visible(self.all_cards(), real, {number_key(r) for r in refs})
        index = CardIndex(found)
        index.hide(hidden)  # a deck naming a hidden sample is told so
        return index

    def import_files(self, paths: Sequence[Path]) -> ImportResult:
        """All or nothing, in one transaction, with the checks of ``Pool.import_files``."""
        checked = check_import(paths)
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
        with self.engine.connect() as conn:
            return pool_stats(conn.execute(text(stats_query(TABLE))).all())

    def get(self, game: Game, number: str) -> Card | None:
        """The card of that number, or of that alias (``P8`` for ``PR.008``)."""
        sql, params = get_query(TABLE, game, number)
        with self.engine.connect() as conn:
            row = conn.execute(text(sql), params).first()
        return read_card(tuple(row), row._mapping) if row else None

    def all_cards(self) -> list[Card]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(cards).order_by(cards.c.game, cards.c.number)).all()
        return [read_card(tuple(r), r._mapping) for r in rows]

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

    def _cards(self, sql: str, params: dict[str, Any]) -> list[Card]:
        with self.engine.connect() as conn:
            rows = conn.execute(text(sql), params).all()
        return [read_card(tuple(r), r._mapping) for r in rows]

    def count(
        self,
        game: Game | None = None,
        name: str | None = None,
        type: str | None = None,
        *,
        samples: bool = False,
        **filters: str | int | None,
    ) -> int:
        """How many cards ``search`` finds with no limit (``count_query``)."""
        sql, params = count_query(
            TABLE, game, name, {"type": type, **filters}, self._json_text(), samples
        )
        with self.engine.connect() as conn:
            return int(conn.execute(text(sql), params).scalar_one())
