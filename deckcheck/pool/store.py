"""The card pool in SQLite: creation and first fill, transactional imports, lookups, search.

Location: ``--db PATH``, else ``$DECKCHECK_DB``, else the user data folder (platformdirs).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from deckcheck import data
from deckcheck.errors import PoolError, database_trouble
from deckcheck.i18n import _
from deckcheck.models import Card, Game
from deckcheck.normalize import loose_name_key
from deckcheck.plugins import name_key
from deckcheck.pool.columns import (
    ALL_COLUMNS,
    COLUMNS,
    SELECT_LIST,
    SEP,
    card_row,
    read_card,
    row_card,
)
from deckcheck.pool.importer import CardFileError, ImportRejected, card_files, check_import
from deckcheck.pool.protocol import CardPool as CardPool
from deckcheck.pool.protocol import ImportResult as ImportResult
from deckcheck.pool.samples import (
    SAMPLE_PREFIX,
    pool_stats,
    real_games_query,
    split_visible,
    stats_query,
)
from deckcheck.pool.search import JsonText, get_query, sqlite_json
from deckcheck.pool.vocabulary import PoolIndex
from deckcheck.resolve import CardIndex, number_key, numbered_forms, ref_keys

# 4: a game's own columns in one JSON column (``extra``), not a column each (pool/columns.py)
SCHEMA_VERSION = "4"
_SQL_TYPE = {"text": "TEXT", "int": "INTEGER", "list": "TEXT"}


def _schema() -> tuple[str, ...]:
    """The tables, from the Card columns (pool/columns.py). A list column holds '' for none."""
    columns = [
        f"{c.field} {_SQL_TYPE[c.type]}{' NOT NULL' if c.required or c.type == 'list' else ''}"
        for c in COLUMNS
    ]
    columns += ["extra TEXT NOT NULL", "extra_keys TEXT NOT NULL"]
    columns += ["number_key TEXT NOT NULL", "name_key TEXT NOT NULL", "alias_keys TEXT NOT NULL"]
    return (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        f"CREATE TABLE cards ({', '.join(columns)}, PRIMARY KEY (game, number_key))",
        "CREATE INDEX cards_name ON cards (name_key)",
        "CREATE INDEX cards_number ON cards (number_key)",
    )


_SCHEMA = _schema()
# The shipped cards, checked and inserted once per process into a database in memory, which a
# new pool copies (SQLite's backup): tests and the service create pools often, and the copy
# took 5 ms against 23 ms to insert the 2,349 shipped rows again (issue 35). Keyed by the card
# files' names, sizes and times, so an edited file is read again, and by the process: a forked
# child builds its own rather than use a connection its parent opened (SQLite's advice).
_Stamp = tuple[int, tuple[tuple[str, int, int], ...]]
_templates: dict[_Stamp, sqlite3.Connection] = {}
_locks: dict[int, threading.Lock] = {}  # by process: a child's own (its parent's may be held)


def _template(folders: list[Path]) -> sqlite3.Connection:
    files = [path for folder in folders for path in card_files(folder)]
    stats = [(str(p), p.stat()) for p in files]
    stamp = (os.getpid(), tuple((name, st.st_size, st.st_mtime_ns) for name, st in stats))
    found = _templates.get(stamp)
    if found is not None:
        return found
    with _locks.setdefault(stamp[0], threading.Lock()):  # one build, however many threads ask
        found = _templates.get(stamp)
        if found is None:
            found = _filled(files)
            for key in [k for k in _templates if k[0] == stamp[0]]:
                del _templates[key]  # an older stamp's: closed once no copy still reads it
            _templates[stamp] = found  # a parent's stays as it is: never used here, nor closed
    return found


def _filled(files: list[Path]) -> sqlite3.Connection:
    """A database in memory holding the cards of ``files``, checked as an import checks."""
    try:
        checked = check_import(files)
    except ImportRejected as exc:  # shipped data is checked by the tests; this guards edits
        raise PoolError(
            _("the shipped card data has bad rows:") + "\n" + "\n".join(exc.errors)
        ) from exc
    # copied from by any thread of the service; only ever read once filled
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.execute("BEGIN")
    _fill_schema(conn)
    conn.executemany(_UPSERT, [_params(card_row(c)) for f in checked for c in f.cards])
    conn.execute("COMMIT")
    return conn


def _fill_schema(conn: sqlite3.Connection) -> None:
    for statement in _SCHEMA:
        conn.execute(statement)
    conn.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))


# Pool files found intact, by path, inode, size and time (see ``Pool._check_intact``).
_intact: set[tuple[str, int, int, int]] = set()


def default_db_path() -> Path:
    env = os.environ.get("DECKCHECK_DB")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("deckcheck", appauthor=False)) / "pool.sqlite3"


def _row_to_card(row: sqlite3.Row) -> Card:
    return read_card(tuple(row), row)


def _params(row: dict[str, object]) -> tuple[object, ...]:
    return tuple(row[c] for c in ALL_COLUMNS)


_UPSERT = (
    f"INSERT INTO cards ({', '.join(ALL_COLUMNS)}) VALUES ({', '.join('?' for _ in ALL_COLUMNS)}) "
    "ON CONFLICT (game, number_key) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in ALL_COLUMNS if c not in ("game", "number_key"))
)


class Pool(CardPool):
    """An open card pool. A new database is created and filled from ``card_pool/``."""

    table = "cards"
    path: Path

    def __init__(self, path: Path | str | None = None, *, fill: bool = True) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if fresh:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise PoolError(
                    _("cannot create the folder of {path}: {error}", path=self.path, error=exc)
                ) from exc
        try:
            self.conn = sqlite3.connect(self.path, isolation_level=None)
            self.conn.row_factory = sqlite3.Row
            if fresh:
                self._create(fill)
            else:
                self._check_version()
                self._check_intact()
        except sqlite3.DatabaseError as exc:
            raise PoolError(f"{self.path}: {database_trouble(exc)}") from exc

    def close(self) -> None:
        self.conn.close()

    # --- creation -------------------------------------------------------------------------

    def _create(self, fill: bool) -> None:
        if fill:  # the filled database copied whole, in one write to disk
            _template(data.card_dirs()).backup(self.conn)
            return
        with self._transaction():  # one sync to disk rather than one a statement
            _fill_schema(self.conn)

    def _check_version(self) -> None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is not None and row[0] == "3":  # one column a game's column: upgraded in place
            from deckcheck.pool.migrate import from_v3

            with self._transaction():
                from_v3(self.conn, _SCHEMA, self._write, SCHEMA_VERSION)
            return
        if row is None or row[0] != SCHEMA_VERSION:
            raise PoolError(
                _(
                    "{path} was made by another deckcheck version; "
                    "rebuild it with `deckcheck pool init --force`",
                    path=self.path,
                )
            )

    def _check_intact(self) -> None:
        """A damaged page fails every command alike, not only those that happen to read it
        (``pool stats`` used to count 0 while ``validate`` failed). Checked once per process
        and file version: ``quick_check`` reads every page, about 1 ms per 100 KB."""
        try:
            stat = self.path.stat()
        except OSError:  # gone since it was opened: the next read says so through SQLite
            return
        stamp = (str(self.path.resolve()), stat.st_ino, stat.st_size, stat.st_mtime_ns)
        if stamp in _intact:
            return
        report = str(self.conn.execute("PRAGMA quick_check(1)").fetchone()[0])
        if report != "ok":
            lines = [x for x in report.splitlines() if x.strip() and not x.startswith("***")]
            raise PoolError(
                _(
                    "{path}: the database is damaged ({problem}); rebuild the "
                    "card pool with `deckcheck pool init --force`",
                    path=self.path,
                    problem=(lines or [report])[0],
                )
            )
        _intact.add(stamp)

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

    def import_files(self, paths: Sequence[Path]) -> ImportResult:
        """All or nothing: any bad row in any file means no change and ``ImportRejected``.
        Raises ``CardFileError`` for a file that cannot be read at all."""
        checked = check_import(paths)
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
        sql = f"SELECT {SELECT_LIST} FROM cards"
        params: tuple[str, ...] = ()
        if game is not None:
            sql += " WHERE game = ?"
            params = (game,)
        return [_row_to_card(r) for r in self.conn.execute(sql + " ORDER BY game, number", params)]

    def get(self, game: Game, number: str) -> Card | None:
        """The card of that number, or of that alias (``P8`` for ``PR.008``)."""
        row = self.conn.execute(*get_query("cards", game, number)).fetchone()
        return _row_to_card(row) if row else None

    def names(self, game: Game) -> dict[str, str]:
        """Every card name of ``game`` by key (to suggest spellings): a game with real cards
        suggests none of its samples."""
        rows = self.conn.execute(
            "SELECT name_key, name, number_key FROM cards WHERE game = ? ORDER BY number", (game,)
        )
        hide = game in self._real_games()
        out: dict[str, str] = {}
        for key, name, number in rows:
            if not (hide and number.startswith(SAMPLE_PREFIX)):
                out.setdefault(key, name)
        return out

    def index_for(self, refs: Iterable[str]) -> CardIndex:
        """An index of the cards ``refs`` may mean (by number or name, any game, or as a
        ``NUMBER NAME`` pair)."""
        refs = list(refs)
        pairs = [p for r in refs for p in numbered_forms(r)]
        numbers = sorted({number_key(r) for r in refs} | {number_key(n) for n, _ in pairs})
        keys = sorted({k for r in [*refs, *(name for _, name in pairs)] for k in ref_keys(r)})
        cards: dict[tuple[str, str], Card] = {}
        for column, values in (("number_key", numbers), ("name_key", keys)):
            for chunk in _chunks(values, 500):
                marks = ",".join("?" * len(chunk))
                for row in self.conn.execute(
                    f"SELECT {SELECT_LIST} FROM cards WHERE {column} IN ({marks})", chunk
                ):
                    cards.setdefault((row["game"], row["number"]), _row_to_card(row))
        for key in self._loose_keys(refs, cards.values()):
            query = f"SELECT {SELECT_LIST} FROM cards WHERE game = ? AND name_key = ?"
            for row in self.conn.execute(query, key):
                cards.setdefault((row["game"], row["number"]), _row_to_card(row))
        # Aliased cards are a few thousand at most: their keys are scanned (no table of them),
        # and only the cards a reference names are read whole.
        wanted = set(numbers)
        named = [
            (game, number)
            for game, number, keys in self.conn.execute(
                "SELECT game, number, alias_keys FROM cards WHERE alias_keys <> ''"
            )
            if wanted.intersection(keys.split(SEP))
        ]
        for key in named:
            query = f"SELECT {SELECT_LIST} FROM cards WHERE game = ? AND number = ?"
            for row in self.conn.execute(query, key):
                cards.setdefault((row["game"], row["number"]), _row_to_card(row))
        found, hidden = split_visible(cards.values(), self._real_games(), set(numbers))
        index = PoolIndex(found, self._names_anytime, self.path)
        index.hide(hidden)  # a deck naming a hidden sample is told so
        return index

    def _loose_keys(self, refs: list[str], found: Iterable[Card]) -> list[tuple[str, str]]:
        """(game, name key) of the names the references that found nothing may mean written
        without spaces, quotes or brackets (``resolve.CardIndex`` decides whether exactly one
        name does), the name part of ``NUMBER NAME`` too. The names are scanned only when some
        reference found nothing."""
        known = {name_key(c.game, c.name) for c in found} | {number_key(c.number) for c in found}
        missed = [r for r in refs if number_key(r) not in known and not ref_keys(r) & known]
        if not missed:
            return []
        wanted = {loose_name_key(r) for r in missed}
        wanted |= {loose_name_key(p[1]) for r in missed for p in numbered_forms(r)}
        rows = self.conn.execute("SELECT DISTINCT game, name_key, name FROM cards")
        return [(game, key) for game, key, name in rows if loose_name_key(name) in wanted]

    def _real_games(self) -> set[str]:
        return {game for (game,) in self.conn.execute(real_games_query("cards"))}

    def _names_anytime(self, game: Game) -> dict[str, str]:
        """``names``, reopening the file if this pool was closed meanwhile (an index outlives
        the ``with`` block that made it; it asks for names only to suggest spellings)."""
        try:
            return self.names(game)
        except sqlite3.ProgrammingError:
            with Pool(self.path, fill=False) as again:
                return again.names(game)

    def _json_text(self) -> JsonText:
        return sqlite_json

    def _cards(self, sql: str, params: dict[str, Any]) -> list[Card]:
        return [_row_to_card(r) for r in self.conn.execute(sql, params)]

    def stats(self) -> dict[str, object]:
        return pool_stats(self.conn.execute(stats_query("cards")))


def _chunks(values: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for i in range(0, len(values), size):
        yield values[i : i + size]


__all__ = [
    "CardFileError",
    "ImportRejected",
    "ImportResult",
    "Pool",
    "PoolError",
    "card_row",
    "row_card",
]
