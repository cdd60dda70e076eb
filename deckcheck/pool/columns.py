"""The card columns as stored, derived from the ``Card`` model, and the queries both pools run.

``Card``'s fields are the one declaration of the columns (see ``deckcheck.models.Card``); the
SQLite schema (``store.py``), the SQLAlchemy table (``sql.py``) and the importer's column
parsing all come from ``COLUMNS`` here. Searches and lookups are written once, as portable SQL
with named parameters that ``sqlite3`` and SQLAlchemy's ``text()`` both run, so the two pools
cannot drift apart.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from pydantic import ValidationError

from deckcheck import games
from deckcheck.errors import PoolError
from deckcheck.games import name_key
from deckcheck.models import Card, Game, Search, SearchMode
from deckcheck.normalize import nfkc, title_key
from deckcheck.resolve import number_key, ref_keys

SEP = ";"  # list columns are stored ``;``-joined (the CSV form too)


class Kind(Enum):
    TEXT = "text"
    INT = "int"
    LIST = "list"


@dataclass(frozen=True)
class Column:
    field: str  # the Card attribute, also the SQL column (``klass``: ``class`` is reserved)
    name: str  # the column in card files and JSON (the field's alias: ``class``)
    kind: Kind
    required: bool
    search: Search | None


def _kind(annotation: Any) -> Kind:
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is tuple:
        return Kind.LIST
    if annotation is int or (
        typing.get_origin(annotation) in (typing.Union, types.UnionType) and int in args
    ):
        return Kind.INT
    return Kind.TEXT


def _columns() -> tuple[Column, ...]:
    out = []
    for field, info in Card.model_fields.items():
        marks = [m for m in info.metadata if isinstance(m, Search)]
        out.append(
            Column(
                field=field,
                name=info.alias or field,
                kind=_kind(info.annotation),
                required=info.is_required(),
                search=marks[0] if marks else None,
            )
        )
    return tuple(out)


COLUMNS: tuple[Column, ...] = _columns()
BY_NAME: dict[str, Column] = {c.name: c for c in COLUMNS}

# Stored beside the fields: the normalised keys lookups and searches compare.
# ``alias_keys`` is the ``;``-joined number keys of the aliases (empty when none).
KEY_COLUMNS: tuple[str, ...] = ("number_key", "name_key", "title_key", "os_key", "alias_keys")
ALL_COLUMNS: tuple[str, ...] = (*(c.field for c in COLUMNS), *KEY_COLUMNS)
SELECT_LIST = ", ".join(c.field for c in COLUMNS)


def _filters() -> dict[str, tuple[Column, SearchMode]]:
    out: dict[str, tuple[Column, SearchMode]] = {}
    for column in COLUMNS:
        if column.search is None:
            continue
        mode = column.search.mode
        option = column.search.option or (
            f"{mode}_{column.field}" if mode in ("max", "min") else column.field
        )
        out[option] = (column, mode)
    return out


# Search filter name → (column, how it compares): ``type``, ``keyword``, ``max_cost``, ``class``…
FILTERS: dict[str, tuple[Column, SearchMode]] = _filters()


def card_row(card: Card) -> dict[str, object]:
    """Everything stored for a card: its fields (lists joined) and the keys it is found by."""
    row: dict[str, object] = {}
    for column in COLUMNS:
        value = getattr(card, column.field)
        row[column.field] = SEP.join(value) if column.kind is Kind.LIST else value
    row.update(
        game=card.game,
        number_key=number_key(card.number),
        name_key=name_key(card.game, card.name),
        title_key=title_key(card.title) if card.title else None,
        os_key=title_key(card.os) if card.os else None,
        alias_keys=SEP.join(number_key(a) for a in card.aliases),
    )
    return row


def row_card(row: Mapping[Any, Any]) -> Card:
    """A card back from a stored row (key columns, if present, are ignored). A row the
    importer would have refused (edited in the database by hand: an unknown game or type)
    is a ``PoolError`` naming the row, not a crash: deck checks trust every card's type."""
    values: dict[str, object] = {}
    for column in COLUMNS:
        value = row[column.field]
        if column.kind is Kind.LIST:
            value = tuple(v for v in (value or "").split(SEP) if v)
        values[column.field] = value
    where = f"game {values.get('game')!r}, number {values.get('number')!r}"
    try:
        card = Card.model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        reason = f"{'.'.join(map(str, first['loc']))}: {first['msg']}"
        raise _bad_row(where, reason) from exc
    spec = games.find(card.game)
    if spec is None:
        raise _bad_row(where, f"unknown game {card.game!r} (known: {', '.join(games.ids())})")
    if card.type not in spec.card_types:
        raise _bad_row(where, f"unknown type {card.type!r} (use {', '.join(spec.card_types)})")
    return card


def _bad_row(where: str, reason: str) -> PoolError:
    return PoolError(
        f"the card database has a bad row ({where}): {reason}; fix or delete that row, or "
        "rebuild the pool with `deckcheck pool init --force` and import again"
    )


# --- queries (portable SQL: named parameters, LIKE with an escape, ``||``) ---------------------


def _title_os(key: str) -> str | None:
    """The OS a title key belongs to, from the ``titles`` table of a game's spec that has one
    (GameSpec.card_tables), or None."""
    for spec in games.specs():
        if spec.card_tables is not None:
            found = spec.card_tables().get("titles", {}).get(key)
            if found is not None:
                return found
    return None


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def list_item(text: str) -> str:
    """A list element as the importer stores it: NFKC, without 【】/[] brackets."""
    return nfkc(text).strip("[]【】 ")


class _Where:
    def __init__(self) -> None:
        self.clauses: list[str] = []
        self.params: dict[str, object] = {}

    def param(self, value: object) -> str:
        name = f"p{len(self.params)}"
        self.params[name] = value
        return f":{name}"

    def add(self, clause: str) -> None:
        self.clauses.append(clause)

    def sql(self) -> str:
        return " WHERE " + " AND ".join(self.clauses) if self.clauses else ""


def _has_item(column: str, pattern_param: str) -> str:
    return f"lower('{SEP}' || {column} || '{SEP}') LIKE {pattern_param} ESCAPE '\\'"


def search_query(
    table: str,
    game: Game | None = None,
    name: str | None = None,
    title: str | None = None,
    limit: int = 50,
    offset: int = 0,
    filters: Mapping[str, str | int | None] | None = None,
) -> tuple[str, dict[str, object]]:
    """The SQL and parameters of a search: by game, name substring (any width; chaos ignores
    spaces) or number/alias prefix, chaos title or OS, and the column filters of ``FILTERS``.
    Raises ``ValueError`` for an unknown filter."""
    where = _Where()
    if game is not None:
        where.add(f"game = {where.param(game)}")
    if name:
        prefix = _like_escape(number_key(name))
        ors = [
            f"name_key LIKE {where.param(f'%{_like_escape(k)}%')} ESCAPE '\\'"
            for k in sorted(ref_keys(name))
        ]
        ors.append(f"number_key LIKE {where.param(prefix + '%')} ESCAPE '\\'")
        ors.append(f"('{SEP}' || alias_keys) LIKE {where.param(f'%{SEP}{prefix}%')} ESCAPE '\\'")
        where.add("(" + " OR ".join(ors) + ")")
    if title:
        key = title_key(title)
        os_of_title = _title_os(key)
        keys = sorted({key, title_key(os_of_title)} if os_of_title else {key})
        marks = ", ".join(where.param(k) for k in keys)
        where.add(f"(os_key IN ({marks}) OR title_key = {where.param(key)})")
    for option, value in (filters or {}).items():
        if value is None or value == "":
            continue
        if option not in FILTERS:
            raise ValueError(f"unknown search filter {option!r}")
        column, mode = FILTERS[option]
        field = column.field
        if mode in ("max", "min"):
            where.add(f"{field} {'<=' if mode == 'max' else '>='} {where.param(int(value))}")
        elif mode == "exact":
            where.add(f"{field} = {where.param(str(value))}")
        elif mode == "text":
            needle = _like_escape(nfkc(str(value)).lower())
            where.add(f"lower({field}) LIKE {where.param(f'%{needle}%')} ESCAPE '\\'")
        else:  # item
            needle = _like_escape(list_item(str(value)).lower())
            where.add(_has_item(field, where.param(f"%{SEP}{needle}{SEP}%")))
    where.params.update(limit=max(0, limit), offset=max(0, offset))
    sql = (
        f"SELECT {SELECT_LIST} FROM {table}{where.sql()} "
        "ORDER BY game, number LIMIT :limit OFFSET :offset"
    )
    return sql, where.params


def get_query(table: str, game: Game, number: str) -> tuple[str, dict[str, object]]:
    """The card ``number`` names in ``game``: its own number first, else an alias."""
    key = number_key(number)
    sql = (
        f"SELECT {SELECT_LIST} FROM {table} WHERE game = :game AND (number_key = :key OR "
        f"('{SEP}' || alias_keys || '{SEP}') LIKE :alias ESCAPE '\\') "
        "ORDER BY CASE WHEN number_key = :key THEN 0 ELSE 1 END, number LIMIT 1"
    )
    return sql, {"game": game, "key": key, "alias": f"%{SEP}{_like_escape(key)}{SEP}%"}
