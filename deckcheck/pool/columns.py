"""The card columns, as cards hold them and as both pools store them.

The columns come in two sets:

- the shared ones, ``Card``'s fields (see ``deckcheck.models.Card``): one SQL column each;
- a game's own, declared in its spec (``GameSpec.cards.columns``, deckcheck/plugins/columns.py)
  and kept in ``Card.extra``: stored together as one JSON object in the text column ``extra``
  (lists ``;``-joined as in CSV, empty cells left out), with the normalised forms of its keyed
  columns in ``extra_keys``. JSON keeps one table for every game, including a game installed
  after the database was made; searches read it with the database's JSON function (SQLite
  ``json_extract``, PostgreSQL ``->>``: see ``JsonText``).

The SQLite schema (``store.py``), the SQLAlchemy table (``sql.py``) and the importer's column
parsing all come from here; the search filters and queries from ``search.py``.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import ValidationError

from deckcheck import plugins
from deckcheck.errors import PoolError
from deckcheck.i18n import _
from deckcheck.models import Card, ColumnValue
from deckcheck.normalize import nfkc
from deckcheck.plugins import name_key
from deckcheck.plugins.columns import CardColumn, ColumnType, Search, check_columns
from deckcheck.resolve import number_key

SEP = ";"  # list columns are stored ``;``-joined (the CSV form too)
# SQLite stores integers in 64 bits; a larger one would be an OverflowError at write time.
INT_LIMIT = 1 << 63


@dataclass(frozen=True)
class Column:
    """A shared column: a ``Card`` field, its SQL column and its column in card files."""

    field: str
    name: str
    type: ColumnType  # the types a game's own columns have too (CardColumn.type)
    required: bool
    search: Search | None


def _column_type(annotation: Any) -> ColumnType:
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is tuple:
        return "list"
    if annotation is int or (
        typing.get_origin(annotation) in (typing.Union, types.UnionType) and int in args
    ):
        return "int"
    return "text"


def _columns() -> tuple[Column, ...]:
    out = []
    for field, info in Card.model_fields.items():
        if field == "extra":
            continue
        marks = [m for m in info.metadata if isinstance(m, Search)]
        out.append(
            Column(
                field=field,
                name=info.alias or field,
                type=_column_type(info.annotation),
                required=info.is_required(),
                search=marks[0] if marks else None,
            )
        )
    return tuple(out)


COLUMNS: tuple[Column, ...] = _columns()

# Stored beside the fields: the game's own columns, and the normalised keys lookups and
# searches compare. ``alias_keys`` is the ``;``-joined number keys of the aliases (empty when
# none).
EXTRA_COLUMNS: tuple[str, ...] = ("extra", "extra_keys")
KEY_COLUMNS: tuple[str, ...] = ("number_key", "name_key", "alias_keys")
ALL_COLUMNS: tuple[str, ...] = (*(c.field for c in COLUMNS), *EXTRA_COLUMNS, *KEY_COLUMNS)
SELECT_LIST = ", ".join((*(c.field for c in COLUMNS), "extra"))
# Names a game's column or filter may not take: the shared ones and the search's own options.
RESERVED: frozenset[str] = frozenset(
    {c.field for c in COLUMNS}
    | {c.search.option_for(c.field) for c in COLUMNS if c.search}
    | {*EXTRA_COLUMNS, *KEY_COLUMNS, "q", "game", "name", "limit", "offset", "json", "db", "help"}
)


# --- the game's own columns -------------------------------------------------------------------


_checked: dict[str, tuple[plugins.GameSpec, dict[str, CardColumn]]] = {}


def game_columns(game: str) -> dict[str, CardColumn]:
    """A game's own columns by name, its declarations checked once per spec."""
    hit = _checked.get(game)
    spec = plugins.get(game)
    if hit is None or hit[0] is not spec:
        check_columns(spec.id, spec.cards.columns, spec.cards.search_hooks, RESERVED)
        hit = _checked[game] = (spec, {c.name: c for c in spec.cards.columns})
    return hit[1]


def all_game_columns() -> set[str]:
    """Every registered game's column names (a card file's column no game knows is unknown)."""
    return {name for spec in plugins.specs() for name in game_columns(spec.id)}


def stored_extra(card: Card) -> tuple[str, str]:
    """``Card.extra`` as stored: the JSON of its values (lists joined) and of its keys."""
    columns = game_columns(card.game)
    values: dict[str, object] = {}
    keys: dict[str, str] = {}
    for name, value in card.extra.items():
        if value is None:
            continue
        values[name] = SEP.join(value) if isinstance(value, tuple) else value
        column = columns.get(name)
        if column is not None and column.key is not None and isinstance(value, str):
            keys[name] = column.key(value)
    return _json(values), _json(keys)


def _json(mapping: Mapping[str, object]) -> str:
    return json.dumps(mapping, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def loaded_extra(game: str, text: str | None) -> dict[str, ColumnValue]:
    """``Card.extra`` from its stored JSON (lists split again). Raises ``ValueError`` for text
    that is no JSON object."""
    found = json.loads(text or "{}")
    if not isinstance(found, dict):
        raise ValueError(_("extra is not a JSON object"))
    spec = plugins.find(game)
    columns = game_columns(spec.id) if spec is not None else {}
    out: dict[str, ColumnValue] = {}
    for name, value in found.items():
        column = columns.get(name)
        if column is not None and column.type == "list" and isinstance(value, str):
            value = tuple(v for v in value.split(SEP) if v)
        out[name] = value
    return out


def card_row(card: Card) -> dict[str, object]:
    """Everything stored for a card: its fields (lists joined) and the keys it is found by."""
    row: dict[str, object] = {}
    for column in COLUMNS:
        value = getattr(card, column.field)
        row[column.field] = SEP.join(value) if column.type == "list" else value
    row["extra"], row["extra_keys"] = stored_extra(card)
    row.update(
        number_key=number_key(card.number),
        name_key=name_key(card.game, card.name),
        alias_keys=SEP.join(number_key(a) for a in card.aliases),
    )
    return row


class StoredRow(Protocol):
    """A row as a database driver gives it: its columns by name (``sqlite3.Row``, a mapping)."""

    def __getitem__(self, column: str, /) -> Any: ...


def row_card(row: StoredRow) -> Card:
    """A card back from a stored row (key columns, if present, are ignored). A row the
    importer would have refused (edited in the database by hand: an unknown game or type)
    is a ``PoolError`` naming the row, not a crash: deck checks trust every card's type."""
    values: dict[str, object] = {}
    for column in COLUMNS:
        value = row[column.field]
        if column.type == "list":
            value = tuple(v for v in (value or "").split(SEP) if v)
        values[column.field] = value
    where = f"game {values.get('game')!r}, number {values.get('number')!r}"
    try:
        values["extra"] = loaded_extra(str(values["game"]), row["extra"])
        card = Card.model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        reason = f"{'.'.join(map(str, first['loc']))}: {first['msg']}"
        raise _bad_row(where, reason) from exc
    except ValueError as exc:  # the extra column's JSON
        raise _bad_row(where, str(exc)) from exc
    spec = plugins.find(card.game)
    if spec is None:
        raise _bad_row(where, f"unknown game {card.game!r} (known: {', '.join(plugins.ids())})")
    if card.type not in spec.cards.card_types:
        known = ", ".join(spec.cards.card_types)
        raise _bad_row(where, f"unknown type {card.type!r} (use {known})")
    return card


# Cards read back, by their stored row and the spec their game had then: the service reads
# the whole pool again at each start and after each change, and nearly every row is one it
# read before (the 2,349 shipped cards: a whole read again 62 -> 11 ms on the 2-core VM).
# Bounded, since a long-lived service may read endless cards.
_READ: dict[tuple[object, ...], tuple[object, Card]] = {}
_READ_LIMIT = 100_000


def read_card(values: tuple[object, ...], row: StoredRow) -> Card:
    """``row_card(row)``, where ``values`` is the row's whole content: the card read before
    from the same content under the same game spec, else a new one. Sharing is safe: a
    ``Card`` is frozen and its ``extra`` never changes after construction."""
    spec = plugins.find(str(row["game"]))
    hit = _READ.get(values)
    if hit is not None and hit[0] is spec:
        return hit[1]
    card = row_card(row)
    if len(_READ) >= _READ_LIMIT:
        _READ.clear()
    _READ[values] = (spec, card)
    return card


def _bad_row(where: str, reason: str) -> PoolError:
    return PoolError(
        _(
            "the card database has a bad row ({where}): {reason}; fix or delete that row, or "
            "rebuild the pool with `deckcheck pool init --force` and import again",
            where=where,
            reason=reason,
        )
    )


def list_item(text: str) -> str:
    """A list element as the importer stores it: NFKC, without 【】/[] brackets."""
    return nfkc(text).strip("[]【】 ")
