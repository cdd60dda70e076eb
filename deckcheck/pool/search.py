"""The search filters and the queries both pools run.

The filters are derived from the columns (``columns.py``): the shared ones from ``Card``'s
``Search`` marks, a game's from its spec's ``columns`` and ``search_hooks``, asked of the
registry on each search, so a game registered later brings its own. Searches and lookups are
written once, as portable SQL with named parameters that ``sqlite3`` and SQLAlchemy's ``text()``
both run, so the two pools cannot drift apart; only reading the JSON of a game's columns
differs, one small function per database (``JsonText``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from deckcheck import plugins
from deckcheck.errors import UsageError
from deckcheck.i18n import DEFAULT, N_, _, current
from deckcheck.models import Game
from deckcheck.normalize import bare_name, nfkc
from deckcheck.plugins.columns import SearchHook
from deckcheck.pool.columns import COLUMNS, INT_LIMIT, SELECT_LIST, SEP, game_columns, list_item
from deckcheck.pool.samples import SAMPLE_PREFIX, real_games_query
from deckcheck.resolve import number_key, ref_keys


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
    game: str | None = None
    hook: SearchHook | None = None
    # the words the label and description are made of, to show them in the language
    name: str = ""  # the label before "at most"/"at least"
    about: str = ""  # what the column holds, before how the filter compares

    def shown_label(self) -> str:
        """``label`` in the current language."""
        if current() == DEFAULT or not self.name:
            return _(self.label)
        suffix = _SUFFIX_TEXT.get(self.mode)
        name = _(self._word(self.name))
        return _(suffix, label=name) if suffix else name

    def shown_description(self) -> str:
        """``description`` in the current language."""
        if current() == DEFAULT or not self.about:
            return _(self.description)
        return _("{about}; {how}", about=_(self._word(self.about)), how=_(_HOW[self.mode]))

    def _word(self, text: str) -> str:
        """A shared column's words (the pool template's), else the game's own (its spec's)."""
        if self.game is None and self.column is not None:
            from deckcheck.pool.template import COLUMN_WORDS

            return COLUMN_WORDS.get(self.column, text)
        return text

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
_SUFFIX_TEXT = {"max": N_("{label} at most"), "min": N_("{label} at least")}
_HOW = {  # how a filter compares, for its description
    "exact": N_("equal"),
    "text": N_("contains, any width or case"),
    "item": N_("has this item"),
    "max": N_("at most"),
    "min": N_("at least"),
    "key": N_("equal, any spelling"),
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
            f"{column.name}; {_HOW[mode]}",
            column.field,
            name=label,
            about=column.name,
        )
    return out


# Filters every game's cards can take: ``type``, ``keyword``, ``max_level``, ``max_cost``, ``kind``.
SHARED_FILTERS: dict[str, Filter] = _shared_filters()


def game_filters(game: str) -> dict[str, Filter]:
    """The filters of a game's own columns and search hooks, by name (a hook's aliases too)."""
    spec = plugins.get(game)
    out: dict[str, Filter] = {}
    for column in game_columns(game).values():
        if column.search is None or column.filter is None:
            continue
        mode = column.search.mode
        out[column.filter] = Filter(
            column.filter,
            mode,
            column.heading + _LABEL_SUFFIX.get(mode, ""),
            f"{column.description}; {_HOW[mode]}",
            column.name,
            spec.id,
            name=column.heading,
            about=column.description,
        )
    for hook in spec.cards.search_hooks:
        found = Filter(hook.option, "hook", hook.label, hook.description, None, spec.id, hook)
        for name in (hook.option, *hook.aliases):
            out[name] = found
    return out


def offered(game: str) -> list[Filter]:
    """The filters the builder offers for a game: the shared ones its spec lists
    (``search_fields``, by column or filter name), then its own (a hook once, not per alias)."""
    spec = plugins.get(game)
    wanted = set(spec.cards.search_fields)
    shared = [f for f in SHARED_FILTERS.values() if wanted & {f.option, f.column}]
    own = list({id(f): f for f in game_filters(game).values()}.values())
    return shared + own


def known_filters(game: str | None) -> dict[str, list[Filter]]:
    """Every filter a search in ``game`` (None: any game) can take, by name: the shared ones,
    and each game's own (one name may be several games' filter)."""
    out: dict[str, list[Filter]] = {name: [f] for name, f in SHARED_FILTERS.items()}
    for gid in [game] if game is not None else plugins.ids():
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
        raise FilterError(
            _(
                "search filter {option}: {value} is not a whole number",
                option=f.option,
                value=repr(value),
            )
        ) from None
    if not -INT_LIMIT <= number < INT_LIMIT:
        raise FilterError(
            _("search filter {option}: {value} is out of range", option=f.option, value=repr(value))
        )
    return number


def unknown_filter(option: str, game: str | None) -> FilterError:
    names = sorted(known_filters(game))
    if game is not None:
        return FilterError(
            _(
                "unknown search filter {option} for {game} (use {names})",
                option=repr(option),
                game=game,
                names=", ".join(names),
            )
        )
    return FilterError(
        _(
            "unknown search filter {option} (use {names})",
            option=repr(option),
            names=", ".join(names),
        )
    )


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
                raise ValueError(  # i18n: machine (a game plugin's bug, for its author)
                    f"{f.game}'s filter {f.option} names no keyed column {name!r}"  # i18n: machine
                )
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
    samples: bool = False,
) -> tuple[str, dict[str, object]]:
    """The SQL and parameters of a search: by game, name substring (any width; a game may
    ignore spaces) or number/alias prefix, and the filters of ``known_filters``: the shared
    columns', and each game's own. A game's filter searches only that game's cards. Raises
    ``FilterError`` for an unknown filter or a value it cannot take. The sample cards of a
    game with real cards are left out unless ``samples``."""
    where = _search_where(table, game, name, filters, json_text, samples)
    where.params.update(limit=max(0, limit), offset=max(0, offset))
    sql = (
        f"SELECT {SELECT_LIST} FROM {table}{where.sql()} "
        # numbers as numbers where they share a form: N31, N178, N1130 (issue 32)
        "ORDER BY game, length(number), number LIMIT :limit OFFSET :offset"
    )
    return sql, where.params


def count_query(
    table: str,
    game: Game | None = None,
    name: str | None = None,
    filters: Mapping[str, str | int | None] | None = None,
    json_text: JsonText = sqlite_json,
    samples: bool = False,
) -> tuple[str, dict[str, object]]:
    """How many cards ``search_query`` finds with no limit (a pager's total)."""
    where = _search_where(table, game, name, filters, json_text, samples)
    return f"SELECT COUNT(*) FROM {table}{where.sql()}", where.params


def _search_where(
    table: str,
    game: Game | None,
    name: str | None,
    filters: Mapping[str, str | int | None] | None,
    json_text: JsonText,
    samples: bool,
) -> _Where:
    where = _Where()
    if game is not None:
        where.add(f"game = {where.param(game)}")
    if not samples:
        where.add(
            f"NOT (number_key LIKE '{SAMPLE_PREFIX}%' AND game IN ({real_games_query(table)}))"
        )
    if name:  # spaces and ・ aside, 〜 as ～, as deck readers read 霧雨魔理沙 (loose_name_key)
        prefix = _like_escape(number_key(name))
        keys = sorted({_like_escape(bare_name(k)) for k in ref_keys(name)})
        bare = "replace(replace(name_key, ' ', ''), '・', '')"
        ors = [f"{bare} LIKE {where.param(f'%{k}%')} ESCAPE '\\'" for k in keys]
        ors.append(f"number_key LIKE {where.param(prefix + '%')} ESCAPE '\\'")
        ors.append(f"('{SEP}' || alias_keys) LIKE {where.param(f'%{SEP}{prefix}%')} ESCAPE '\\'")
        ors += _by_name(where, game, name, json_text)
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
    return where


def _by_name(where: _Where, game: Game | None, name: str, json_text: JsonText) -> list[str]:
    """A name search also finds a card by its game's ``by_name`` columns (one naming a card),
    spaces and middle dots aside as in names."""
    columns = game_columns(game).values() if game else ()
    marked = sorted({c.filter or "" for c in columns if c.by_name})
    found = [f for o in marked for f in known_filters(game).get(o, []) if f.mode == "text"]
    loose = f"%{_like_escape(bare_name(nfkc(name).lower()))}%"
    return [
        f"replace(replace(lower({json_text('extra', f.column)}), ' ', ''), '・', '') "
        f"LIKE {where.param(loose)} ESCAPE '\\'"
        if f.hook is None and f.column is not None
        else _game_clause(where, f, name, json_text)
        for f in found
    ]


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
