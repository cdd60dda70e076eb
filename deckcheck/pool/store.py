"""The card pool in SQLite: creation and first fill, transactional imports, lookups, search.

Location: ``--db PATH``, else ``$DECKCHECK_DB``, else the user data folder (platformdirs).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from deckcheck import data, games
from deckcheck.errors import InputError
from deckcheck.errors import PoolError as _PoolError
from deckcheck.models import Card, Game
from deckcheck.normalize import name_key, title_key
from deckcheck.pool.importer import CardFileError, CheckedFile, card_files, check_file
from deckcheck.resolve import CardIndex, number_key, ref_keys

SCHEMA_VERSION = "2"
_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE cards (
    game TEXT NOT NULL, number TEXT NOT NULL, number_key TEXT NOT NULL,
    name TEXT NOT NULL, name_key TEXT NOT NULL, type TEXT NOT NULL, kind TEXT,
    title TEXT, title_key TEXT, os TEXT, os_key TEXT, append TEXT NOT NULL, keywords TEXT NOT NULL,
    gate_number INTEGER, level INTEGER, cost INTEGER, power INTEGER, color TEXT, world TEXT,
    hp INTEGER, rarity TEXT, extra_cost TEXT, source TEXT, territory INTEGER,
    PRIMARY KEY (game, number_key)
);
CREATE INDEX cards_name ON cards (name_key);
CREATE INDEX cards_number ON cards (number_key);
CREATE TABLE chaos_titles (title_key TEXT PRIMARY KEY, title TEXT NOT NULL, os TEXT NOT NULL);
"""
_SEP = ";"
# A card's fields as stored (lists joined by ``;``), then the keys lookups and search use.
CARD_FIELDS: tuple[str, ...] = tuple(Card.model_fields)
KEY_COLUMNS: tuple[str, ...] = ("number_key", "name_key", "title_key", "os_key")
_CARD_COLUMNS = ", ".join(CARD_FIELDS)


class CardPool(Protocol):
    """What commands need of a pool: the SQLite ``Pool`` and the SQLAlchemy ``SqlPool``."""

    @property
    def path(self) -> object: ...

    def index_for(self, refs: Iterable[str]) -> CardIndex: ...

    def stats(self) -> dict[str, object]: ...

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
    ) -> list[Card]: ...

    def import_files(self, paths: Sequence[Path]) -> ImportResult: ...

    def close(self) -> None: ...

    def __enter__(self) -> CardPool: ...

    def __exit__(self, *exc: object) -> None: ...


class PoolError(_PoolError):
    """The database cannot be opened or used; the message says what to do."""


class ImportRejected(InputError):
    """An import with bad rows: nothing was written. ``errors`` names file, row and reason."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__(f"{len(errors)} bad row(s); nothing imported")
        self.errors = errors


@dataclass
class ImportResult:
    added: int
    updated: int
    files: list[str]
    unknown_columns: dict[str, list[str]]


def default_db_path() -> Path:
    env = os.environ.get("DECKCHECK_DB")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("deckcheck", appauthor=False)) / "pool.sqlite3"


def card_row(card: Card) -> dict[str, object]:
    """Everything stored for a card: its fields and the keys it is found by (both pools)."""
    row: dict[str, object] = {f: getattr(card, f) for f in CARD_FIELDS}
    row.update(
        game=card.game,
        append=_SEP.join(card.append),
        keywords=_SEP.join(card.keywords),
        number_key=number_key(card.number),
        name_key=name_key(card.game, card.name),
        title_key=title_key(card.title) if card.title else None,
        os_key=title_key(card.os) if card.os else None,
    )
    return row


def row_card(row: Mapping[Any, Any]) -> Card:
    """A card back from a stored row (key columns, if present, are ignored)."""
    values = {f: row[f] for f in CARD_FIELDS}
    values["append"] = tuple(a for a in (row["append"] or "").split(_SEP) if a)
    values["keywords"] = tuple(k for k in (row["keywords"] or "").split(_SEP) if k)
    return Card.model_validate(values)


def _row_to_card(row: sqlite3.Row) -> Card:
    return row_card(dict(row))


_ALL = (*CARD_FIELDS, *KEY_COLUMNS)


def _params(row: dict[str, object]) -> tuple[object, ...]:
    return tuple(row[c] for c in _ALL)


_UPSERT = (
    f"INSERT INTO cards ({', '.join(_ALL)}) VALUES ({', '.join('?' for _ in _ALL)}) "
    "ON CONFLICT (game, number_key) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in _ALL if c not in ("game", "number_key"))
)


class Pool:
    """An open card pool. A new database is created and filled from ``card_pool/``."""

    def __init__(self, path: Path | str | None = None, *, fill: bool = True) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if fresh:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise PoolError(f"cannot create the folder of {self.path}: {exc}") from exc
        try:
            self.conn = sqlite3.connect(self.path, isolation_level=None)
            self.conn.row_factory = sqlite3.Row
            if fresh:
                self._create(fill)
            else:
                self._check_version()
        except sqlite3.DatabaseError as exc:
            raise PoolError(
                f"cannot use the card database {self.path}: {exc} "
                "(delete it, or run `deckcheck pool init --force` to rebuild it)"
            ) from exc

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- creation -------------------------------------------------------------------------

    def _create(self, fill: bool) -> None:
        self.conn.executescript(_SCHEMA)  # DDL first: executescript commits on its own
        with self._transaction():
            self.conn.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            self._load_titles()
            if fill:
                self._fill_from(data.card_pool_dir())

    def _check_version(self) -> None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None or row[0] != SCHEMA_VERSION:
            raise PoolError(
                f"{self.path} was made by another deckcheck version; "
                "rebuild it with `deckcheck pool init --force`"
            )

    def _load_titles(self) -> None:
        table = data.chaos_os_table()
        rows: dict[str, tuple[str, str]] = {}
        for entry in table.os:
            rows.setdefault(title_key(entry.name), (entry.name, entry.name))
            for title in entry.titles:
                rows.setdefault(title_key(title), (title, entry.name))
        self.conn.executemany(
            "INSERT OR REPLACE INTO chaos_titles VALUES (?, ?, ?)",
            [(key, title, os) for key, (title, os) in rows.items()],
        )

    def _fill_from(self, folder: Path) -> None:
        titles, os_names = self.title_maps()
        files = [check_file(p, titles, os_names) for p in card_files(folder)]
        errors = [e for f in files for e in f.errors]
        if errors:  # shipped data is checked by the tests; this guards edited installs
            raise PoolError("the shipped card data has bad rows:\n" + "\n".join(errors))
        self._write(c for f in files for c in f.cards)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self.conn.execute("BEGIN IMMEDIATE") if not self.conn.in_transaction else None
        try:
            yield
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        else:
            if self.conn.in_transaction:
                self.conn.execute("COMMIT")

    # --- import -----------------------------------------------------------------------------

    def title_maps(self) -> tuple[dict[str, str], dict[str, str]]:
        """(title key → OS, OS key → OS) from the rulebook appendix table."""
        titles = dict(self.conn.execute("SELECT title_key, os FROM chaos_titles").fetchall())
        os_names = {title_key(os): os for os in set(titles.values())}
        return titles, os_names

    def check_files(self, paths: Sequence[Path]) -> list[CheckedFile]:
        titles, os_names = self.title_maps()
        return [check_file(p, titles, os_names) for p in paths]

    def import_files(self, paths: Sequence[Path]) -> ImportResult:
        """All or nothing: any bad row in any file means no change and ``ImportRejected``.
        Raises ``CardFileError`` for a file that cannot be read at all."""
        checked = self.check_files(paths)
        errors = [e for f in checked for e in f.errors]
        seen: dict[tuple[Game, str], str] = {}
        for f in checked:  # one number in two files of one import is as ambiguous as in one
            for card in f.cards:
                key = (card.game, number_key(card.number))
                if key in seen and seen[key] != f.path:
                    errors.append(f"{f.path}: number {card.number!r} also in {seen[key]}")
                seen.setdefault(key, f.path)
        if errors:
            raise ImportRejected(errors)
        cards = [c for f in checked for c in f.cards]
        with self._transaction():
            existing = self._existing(cards)
            self._write(cards)
        return ImportResult(
            added=len(cards) - existing,
            updated=existing,
            files=[f.path for f in checked],
            unknown_columns={f.path: f.unknown_columns for f in checked if f.unknown_columns},
        )

    def _existing(self, cards: Sequence[Card]) -> int:
        keys = {(c.game, number_key(c.number)) for c in cards}
        found = 0
        by_game: dict[str, list[str]] = {}
        for game, key in keys:
            by_game.setdefault(game, []).append(key)
        for game, numbers in by_game.items():
            for chunk in _chunks(numbers, 500):
                marks = ",".join("?" * len(chunk))
                found += self.conn.execute(
                    f"SELECT COUNT(*) FROM cards WHERE game = ? AND number_key IN ({marks})",
                    (game, *chunk),
                ).fetchone()[0]
        return found

    def _write(self, cards: Iterable[Card]) -> None:
        self.conn.executemany(_UPSERT, (_params(card_row(c)) for c in cards))

    # --- reading ----------------------------------------------------------------------------

    def all_cards(self, game: Game | None = None) -> list[Card]:
        sql = f"SELECT {_CARD_COLUMNS} FROM cards"
        params: tuple[str, ...] = ()
        if game is not None:
            sql += " WHERE game = ?"
            params = (game,)
        return [_row_to_card(r) for r in self.conn.execute(sql + " ORDER BY game, number", params)]

    def get(self, game: Game, number: str) -> Card | None:
        row = self.conn.execute(
            f"SELECT {_CARD_COLUMNS} FROM cards WHERE game = ? AND number_key = ?",
            (game, number_key(number)),
        ).fetchone()
        return _row_to_card(row) if row else None

    def names(self, game: Game) -> dict[str, str]:
        rows = self.conn.execute(
            "SELECT name_key, name FROM cards WHERE game = ? ORDER BY number", (game,)
        )
        out: dict[str, str] = {}
        for key, name in rows:
            out.setdefault(key, name)
        return out

    def index_for(self, refs: Iterable[str]) -> CardIndex:
        """An index of the cards ``refs`` may mean (by number or name, any game)."""
        numbers = sorted({number_key(r) for r in refs})
        keys = sorted({k for r in refs for k in ref_keys(r)})
        cards: dict[tuple[str, str], Card] = {}
        for column, values in (("number_key", numbers), ("name_key", keys)):
            for chunk in _chunks(values, 500):
                marks = ",".join("?" * len(chunk))
                for row in self.conn.execute(
                    f"SELECT {_CARD_COLUMNS} FROM cards WHERE {column} IN ({marks})", chunk
                ):
                    cards.setdefault((row["game"], row["number"]), _row_to_card(row))
        return CardIndex(cards.values(), names=self._names_anytime)

    def _names_anytime(self, game: Game) -> dict[str, str]:
        """``names``, reopening the file if this pool was closed meanwhile (an index outlives
        the ``with`` block that made it; it asks for names only to suggest spellings)."""
        try:
            return self.names(game)
        except sqlite3.ProgrammingError:
            with Pool(self.path, fill=False) as again:
                return again.names(game)

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
        """Cards by game, name substring (any width; chaos ignores spaces) or number prefix,
        type, title or OS, and at most a level or cost."""
        where: list[str] = []
        params: list[object] = []
        if game is not None:
            where.append("game = ?")
            params.append(game)
        if name:
            keys = ref_keys(name)
            where.append(
                "(" + " OR ".join("instr(name_key, ?) > 0" for _ in keys) + " OR substr("
                "number_key, 1, ?) = ?)"
            )
            params.extend(keys)
            params.extend([len(number_key(name)), number_key(name)])
        if max_level is not None:
            where.append("level <= ?")
            params.append(max_level)
        if max_cost is not None:
            where.append("cost <= ?")
            params.append(max_cost)
        if type:
            where.append("type = ?")
            params.append(type)
        if title:
            key = title_key(title)
            os_of_title = self.conn.execute(
                "SELECT os FROM chaos_titles WHERE title_key = ?", (key,)
            ).fetchone()
            where.append("(os_key = ? OR os_key = ? OR title_key = ?)")
            params.extend([key, title_key(os_of_title[0]) if os_of_title else key, key])
        sql = f"SELECT {_CARD_COLUMNS} FROM cards"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY game, number LIMIT ? OFFSET ?"
        params.extend([max(0, limit), max(0, offset)])
        return [_row_to_card(r) for r in self.conn.execute(sql, params)]

    def stats(self) -> dict[str, object]:
        by_game = {g: 0 for g in games.ids()}
        for game, n in self.conn.execute("SELECT game, COUNT(*) FROM cards GROUP BY game"):
            by_game[game] = n
        return {"total": sum(by_game.values()), "by_game": by_game}


def _chunks(values: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for i in range(0, len(values), size):
        yield values[i : i + size]


__all__ = ["CardFileError", "ImportRejected", "ImportResult", "Pool", "PoolError"]
