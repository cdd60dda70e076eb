"""An SQLite pool of schema 3 (one SQL column for every game's every column) brought to schema 4
(a game's own columns in the JSON column ``extra``), in place, imported cards kept.

Each stored row is read by the column names of schema 3 and becomes a card of today's model:
the shared columns as they were, and the columns its game's spec declares. Values a row holds in
another game's column are dropped, as an import drops them today. A row that is no card any more
(its game is gone) stops the upgrade: nothing changes and the message says to rebuild.
"""

from __future__ import annotations

import keyword
import sqlite3
from collections.abc import Callable, Sequence

from pydantic import ValidationError

from deckcheck import plugins
from deckcheck.errors import PoolError
from deckcheck.i18n import _
from deckcheck.models import Card, ColumnValue
from deckcheck.pool.columns import COLUMNS, SEP, game_columns


def _split(value: object) -> tuple[str, ...]:
    return tuple(v for v in str(value or "").split(SEP) if v)


def _v3_name(column: str) -> str:
    """Schema 3 stored a column whose name is a Python keyword under the model's field name,
    a ``k`` for its first letter."""
    return "k" + column[1:] if keyword.iskeyword(column) else column


def v3_card(row: sqlite3.Row) -> Card:
    """The card a schema-3 row holds. Raises ``ValueError`` when it is none."""
    # schema 3 kept normalised keys beside the columns (``*_key``, ``alias_keys``): not read
    names: list[str] = row.keys()  # a Row iterates over its values
    have = {k for k in names if not k.endswith(("_key", "_keys"))}
    values: dict[str, object] = {}
    for column in COLUMNS:
        value = row[column.field] if column.field in have else None
        values[column.field] = _split(value) if column.type == "list" else value
    spec = plugins.find(str(values["game"]))
    if spec is None:
        raise ValueError(_("unknown game {game}", game=repr(values["game"])))
    extra: dict[str, ColumnValue] = {}
    for name, own in game_columns(spec.id).items():
        old = _v3_name(name)
        value = row[old] if old in have else None
        if own.type == "list":
            value = _split(value) or None
        if value is not None and value != "":
            extra[name] = value
    values["extra"] = extra
    try:
        return Card.model_validate(values)
    except ValidationError as exc:
        raise ValueError(str(exc.errors()[0]["msg"])) from exc


def from_v3(
    conn: sqlite3.Connection,
    schema: Sequence[str],
    write: Callable[[list[Card]], None],
    version: str,
) -> None:
    """Rebuild the ``cards`` table in the new ``schema`` (its statements but the meta table's)
    with every card of the old one, in the caller's transaction (which another process may
    have waited for while it upgraded the file)."""
    found = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if found is None or found[0] != "3":
        return
    cards: list[Card] = []
    for row in conn.execute("SELECT * FROM cards"):
        try:
            cards.append(v3_card(row))
        except ValueError as exc:
            raise PoolError(
                _(
                    "cannot upgrade the card database: the card {game} {number} is none any "
                    "more ({error}); rebuild the pool with `deckcheck pool init --force` and "
                    "import again",
                    game=row["game"],
                    number=row["number"],
                    error=exc,
                )
            ) from exc
    conn.execute("ALTER TABLE cards RENAME TO cards_v3")
    conn.execute("DROP INDEX IF EXISTS cards_name")
    conn.execute("DROP INDEX IF EXISTS cards_number")
    for statement in schema:
        if not statement.startswith("CREATE TABLE meta"):
            conn.execute(statement)
    write(cards)
    conn.execute("DROP TABLE cards_v3")
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (version,))
