"""The card columns as stored, the search filters, and the queries both pools run.

Two kinds of column:

- the shared ones, ``Card``'s fields (see ``deckcheck.models.Card``): one SQL column each;
- a game's own, declared in its spec (``GameSpec.columns``, deckcheck/games/columns_contract.py)
  and kept in ``Card.extra``: stored together as one JSON object in the text column ``extra``
  (lists ``;``-joined as in CSV, empty cells left out), with the normalised forms of its keyed
  columns in ``extra_keys``. JSON keeps one table for every game, including a game installed
  after the database was made; searches read it with the database's JSON function (SQLite
  ``json_extract``, PostgreSQL ``->>``: see ``JsonText``).

The SQLite schema (``store.py``), the SQLAlchemy table (``sql.py``) and the importer's column
parsing all come from here. Searches and lookups are written once, as portable SQL with named
parameters that ``sqlite3`` and SQLAlchemy's ``text()`` both run, so the two pools cannot drift
apart; only the JSON read differs, one small function per database.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from pydantic import ValidationError

from deckcheck import games
from deckcheck.errors import PoolError, UsageError
from deckcheck.games.columns_contract import CardColumn, Search, SearchHook, check_columns
from deckcheck.models import Card, ColumnValue, Game
from deckcheck.normalize import name_key, nfkc
from deckcheck.resolve import number_key, ref_keys

SEP = ";"  # list columns are stored ``;``-joined (the CSV form too)
# SQLite stores integers in 64 bits; a larger one would be an OverflowError at write time.
INT_LIMIT = 1 << 63


class Kind(Enum):
    TEXT = "text"
    INT = "int"
    LIST = "list"


@dataclass(frozen=True)
class Column:
    """A shared column: a ``Card`` field, its SQL column and its column in card files."""

    field: str
    name: str
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
        if field == "extra":
            continue
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
KIND_OF = {"int": Kind.INT, "text": Kind.TEXT, "list": Kind.LIST}

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
    | {*EXTRA_COLUMNS, *KEY_COLUMNS, "q", "game", "name", "limit", "offset", "json", "db"}
)


# --- the game's own columns -------------------------------------------------------------------


_checked: dict[str, tuple[games.GameSpec, dict[str, CardColumn]]] = {}


def game_columns(game: str) -> dict[str, CardColumn]:
    """A game's own columns by name, its declarations checked once per spec."""
    hit = _checked.get(game)
    spec = games.get(game)
    if hit is None or hit[0] is not spec:
        check_columns(spec.id, spec.columns, spec.search_hooks, RESERVED)
        hit = _checked[game] = (spec, {c.name: c for c in spec.columns})
    return hit[1]


def all_game_columns() -> set[str]:
    """Every registered game's column names (a card file's column no game knows is unknown)."""
    return {name for spec in games.specs() for name in game_columns(spec.id)}


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
        raise ValueError("extra is not a JSON object")
    spec = games.find(game)
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
        row[column.field] = SEP.join(value) if column.kind is Kind.LIST else value
    row["extra"], row["extra_keys"] = stored_extra(card)
    row.update(
        number_key=number_key(card.number),
        name_key=name_key(card.game, card.name),
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
        values["extra"] = loaded_extra(str(values["game"]), row["extra"])
        card = Card.model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        reason = f"{'.'.join(map(str, first['loc']))}: {first['msg']}"
        raise _bad_row(where, reason) from exc
    except ValueError as exc:  # the extra column's JSON
        raise _bad_row(where, str(exc)) from exc
    spec = games.find(card.game)
    if spec is not None and card.type not in spec.card_types:
        raise _bad_row(where, f"unknown type {card.type!r} (use {', '.join(spec.card_types)})")
    return card


def _bad_row(where: str, reason: str) -> PoolError:
    return PoolError(
        f"the card database has a bad row ({where}): {reason}; fix or delete that row, or "
        "rebuild the pool with `deckcheck pool init --force` and import again"
    )


# --- search filters ---------------------------------------------------------------------------


class FilterError(UsageError, ValueError):
    """A search filter no game has, or a value it cannot take."""


@dataclass(frozen=True)
class Filter:
    """One search filter: a shared column's (``game`` None), a game column's, or a game's own
    search hook (``hook``). ``column`` is the field or the game's column it reads."""

    option: str
    mode: str  # a SearchMode, or "hook"
    label: str
    description: str
    column: str | None
    kind: Kind
    game: str | None = None
    hook: SearchHook | None = None

    def describe(self) -> dict[str, object]:
        """As ``GET /games`` lists it: the ``/cards`` parameter, how it compares, a label."""
        return {
            "param": self.option,
            "mode": self.mode,
            "label": self.label,
            "description": self.description,
            "field": self.column,
        }


_LABEL_SUFFIX = {"max": " at most", "min": " at least"}
_SHARED_HELP = {
    "exact": "equal to",
    "text": "contains (any width or case)",
    "item": "has this item",
    "max": "at most (a whole number)",
    "min": "at least (a whole number)",
    "key": "is",
}


def _shared_filters() -> dict[str, Filter]:
    out: dict[str, Filter] = {}
    for column in COLUMNS:
        if column.search is None:
            continue
        mode = column.search.mode
        option = column.search.option_for(column.field)
        label = option.removeprefix(f"{mode}_").replace("_", " ").capitalize()
        out[option] = Filter(
            option,
            mode,
            label + _LABEL_SUFFIX.get(mode, ""),
            f"{column.name}: {_SHARED_HELP[mode]}",
            column.field,
            column.kind,
        )
    return out


# Filters every game's cards can take: ``type``, ``keyword``, ``max_level``, ``max_cost``, ``kind``.
SHARED_FILTERS: dict[str, Filter] = _shared_filters()


def game_filters(game: str) -> dict[str, Filter]:
    """The filters of a game's own columns and search hooks, by name (a hook's aliases too)."""
    spec = games.get(game)
    out: dict[str, Filter] = {}
    for column in game_columns(game).values():
        if column.search is None or column.filter is None:
            continue
        mode = column.search.mode
        out[column.filter] = Filter(
            column.filter,
            mode,
            column.title + _LABEL_SUFFIX.get(mode, ""),
            f"{column.description} ({_SHARED_HELP[mode]})",
            column.name,
            KIND_OF[column.type],
            spec.id,
        )
    for hook in spec.search_hooks:
        found = Filter(
            hook.option, "hook", hook.label, hook.description, None, Kind.TEXT, spec.id, hook
        )
        for name in (hook.option, *hook.aliases):
            out[name] = found
    return out


def offered(game: str) -> list[Filter]:
    """The filters the builder offers for a game: the shared ones its spec lists
    (``search_fields``, by column or filter name), then its own (a hook once, not per alias)."""
    spec = games.get(game)
    wanted = set(spec.search_fields)
    shared = [f for f in SHARED_FILTERS.values() if wanted & {f.option, f.column}]
    own = list({id(f): f for f in game_filters(game).values()}.values())
    return shared + own


def known_filters(game: str | None) -> dict[str, list[Filter]]:
    """Every filter a search in ``game`` (None: any game) can take, by name: the shared ones,
    and each game's own (one name may be several games' filter)."""
    out: dict[str, list[Filter]] = {name: [f] for name, f in SHARED_FILTERS.items()}
    for gid in [game] if game is not None else games.ids():
        for name, f in game_filters(gid).items():
            out.setdefault(name, []).append(f)
    return out


def filter_value(f: Filter, value: str | int) -> str | int:
    """The value a filter compares, checked: a whole number for a bound, else text."""
    if f.mode not in ("max", "min"):
        return str(value)
    try:
        number = int(nfkc(str(value)))
    except ValueError:
        raise FilterError(f"search filter {f.option}: {value!r} is not a whole number") from None
    if not -INT_LIMIT <= number < INT_LIMIT:
        raise FilterError(f"search filter {f.option}: {value!r} is out of range")
    return number


def unknown_filter(option: str, game: str | None) -> FilterError:
    names = sorted(known_filters(game))
    where = f" for {game}" if game is not None else ""
    return FilterError(f"unknown search filter {option!r}{where} (use {', '.join(names)})")


# --- queries (portable SQL: named parameters, LIKE with an escape, ``||``) ---------------------

# The SQL that reads key ``key`` of the JSON text in column ``column`` as text (or a number):
# the one piece of a query that differs between databases.
JsonText = Callable[[str, str], str]


def sqlite_json(column: str, key: str) -> str:
    """SQLite's JSON1 (built in since 3.38, and in the Python builds before)."""
    return f"json_extract({column}, '$.{key}')"


def postgres_json(column: str, key: str) -> str:
    """PostgreSQL: the column is text, so it is cast to ``json`` first."""
    return f"(CAST({column} AS json) ->> '{key}')"


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


def _compare(where: _Where, sql: str, f: Filter, value: str | int) -> str:
    """The clause of one column filter, on the SQL ``sql`` that reads the column."""
    mode = f.mode
    if mode in ("max", "min"):
        return f"CAST({sql} AS BIGINT) {'<=' if mode == 'max' else '>='} {where.param(value)}"
    if mode == "exact":
        return f"{sql} = {where.param(str(value))}"
    if mode == "text":
        needle = _like_escape(nfkc(str(value)).lower())
        return f"lower({sql}) LIKE {where.param(f'%{needle}%')} ESCAPE '\\'"
    needle = _like_escape(list_item(str(value)).lower())  # item
    return _has_item(sql, where.param(f"%{SEP}{needle}{SEP}%"))


def _game_clause(where: _Where, f: Filter, value: str | int, json_text: JsonText) -> str:
    """The clause of a game's own filter (a column of ``extra``, or the game's hook)."""
    assert f.game is not None
    if f.hook is not None:
        keyed = game_columns(f.game)
        ors = []
        for name, keys in sorted(f.hook.match(str(value)).items()):
            if name not in keyed or keyed[name].key is None:
                raise ValueError(f"{f.game}'s filter {f.option} names no keyed column {name!r}")
            if keys:
                marks = ", ".join(where.param(k) for k in sorted(keys))
                ors.append(f"{json_text('extra_keys', name)} IN ({marks})")
        return "(" + (" OR ".join(ors) or "1 = 0") + ")"
    assert f.column is not None
    if f.mode == "key":
        column = game_columns(f.game)[f.column]
        assert column.key is not None
        return f"{json_text('extra_keys', f.column)} = {where.param(column.key(str(value)))}"
    return _compare(where, json_text("extra", f.column), f, value)


def search_query(
    table: str,
    game: Game | None = None,
    name: str | None = None,
    limit: int = 50,
    offset: int = 0,
    filters: Mapping[str, str | int | None] | None = None,
    json_text: JsonText = sqlite_json,
) -> tuple[str, dict[str, object]]:
    """The SQL and parameters of a search: by game, name substring (any width; a game may
    ignore spaces) or number/alias prefix, and the filters of ``known_filters``: the shared
    columns', and each game's own. A game's filter searches only that game's cards. Raises
    ``FilterError`` for an unknown filter or a value it cannot take."""
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
    known = known_filters(game) if filters else {}
    for option, value in (filters or {}).items():
        if value is None or value == "":
            continue
        if option not in known:
            raise unknown_filter(option, game)
        ors = []
        for f in known[option]:
            checked = filter_value(f, value)
            if f.game is None:
                assert f.column is not None
                ors.append(_compare(where, f.column, f, checked))
            elif game is not None:
                ors.append(_game_clause(where, f, checked, json_text))
            else:
                clause = _game_clause(where, f, checked, json_text)
                ors.append(f"(game = {where.param(f.game)} AND {clause})")
        where.add(ors[0] if len(ors) == 1 else "(" + " OR ".join(ors) + ")")
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


def parse_filters(pairs: Iterable[tuple[str, str]], game: str | None) -> dict[str, str]:
    """Filter options as a user wrote them (``--max-node 2``, ``max_node=2``): names with
    ``-`` or ``_``, checked against the filters of ``game`` (None: any game)."""
    known = known_filters(game)
    out: dict[str, str] = {}
    for raw, value in pairs:
        option = raw.strip().lstrip("-").replace("-", "_").casefold()
        if option not in known:
            raise unknown_filter(raw, game)
        out[option] = value
    return out
