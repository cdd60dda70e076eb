"""The check-table registry: each check table is one registered thing that keeps together the
TOML table a format writes (a pydantic model), the check it runs and the lines ``formats show``
prints.

formats/schema.py (schema and ``Format.checks()``), validate.py (which checks run) and render.py
(``formats show``) all walk ``check_tables(game)``: deckcheck's own (``register_table``, from
checks/) and the ones the game's spec declares (``Construction.check_tables``), which a format of
that game may use and formats of other games may not.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter

from deckcheck import plugins
from deckcheck.checks.base import Check as Check
from deckcheck.checks.base import Strict as Strict
from deckcheck.errors import FormatError
from deckcheck.i18n import _
from deckcheck.models import Violation
from deckcheck.plugins.contract import FormatView
from deckcheck.slots import Context

T = TypeVar("T", bound=BaseModel)

# A check: the deck as the validator read it, and its section counts, in; what it breaks, out.
CheckFn = Callable[[Context, dict[str, int]], list[Violation]]


@dataclass(frozen=True, slots=True)
class Row:
    """One line of ``deckcheck formats show``, as plain text (the renderer escapes it)."""

    rule: str | None
    what: str
    source: str | None


def _always(table: Any) -> bool:
    return True


def _itself(table: Any) -> Iterable[Check]:
    return (table,) if isinstance(table, Check) else ()


def _no_types(table: Any) -> Iterable[tuple[str, Sequence[str]]]:
    return ()


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a table says a card with ``keyword`` belongs: the section the builder adds it to
    (before the first section its type is allowed in), with the table's rule and source."""

    keyword: str
    section: str
    rule: str | None
    source: str | None


def _no_places(table: Any) -> Iterable[Placement]:
    return ()


@dataclass(frozen=True, slots=True, eq=False)
class CheckTable(Generic[T]):
    """One check table: a TOML key, the model of its tables and the check they drive.

    ``name`` is the format's TOML key: ``[[name]]`` tables when ``many``, else one ``[name]``
    table. ``tables`` overrides where the tables are found. ``active`` says whether a table can
    report anything at all: a format runs the check only if one of its tables is active (that
    keeps validating fast). ``cites`` gives the rules a table contributes to
    ``Format.checks()``. ``types`` gives the card types a table names, as (field, types): the
    loader refuses a type the format's game does not have. ``places`` gives where a table
    wants cards of a keyword (``placements``). ``order`` places the check table among the
    others: checks run, and ``formats show`` lists them, in ascending order. The five fields
    every table has (``name``, ``model``, ``check``, ``describe``, ``order``) are given in that
    order, the others by name.
    """

    name: str
    model: type[T]
    check: CheckFn
    describe: Callable[[T], Iterable[Row]]
    order: int
    many: bool = True
    tables: Callable[[FormatView], Sequence[T]] | None = None
    active: Callable[[T], bool] = _always
    cites: Callable[[T], Iterable[Check]] = _itself
    types: Callable[[T], Iterable[tuple[str, Sequence[str]]]] = _no_types
    places: Callable[[T], Iterable[Placement]] = _no_places
    adapter: TypeAdapter[Any] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        shape: Any = tuple[self.model, ...] if self.many else self.model  # type: ignore[name-defined]
        object.__setattr__(self, "adapter", TypeAdapter(shape))

    def of(self, fmt: FormatView) -> Sequence[T]:
        """The format's tables under this key (none if the format has none)."""
        if self.tables is not None:
            return self.tables(fmt)
        return fmt.tables(self.name)

    def applies(self, fmt: FormatView) -> bool:
        return any(self.active(t) for t in self.of(fmt))


_OWN: dict[str, CheckTable[Any]] = {}
_ORDERED: list[CheckTable[Any]] = []
# game id → (its spec, deckcheck's check tables and the game's, in order); emptied when a table
# is registered or a game changes
_BY_GAME: dict[str, tuple[plugins.GameSpec, tuple[CheckTable[Any], ...]]] = {}
_LOCK = threading.Lock()


def register_table(table: CheckTable[T]) -> CheckTable[T]:
    """Add ``table`` to deckcheck's own check tables, which every format may use (call at
    import time, before formats are loaded: a loaded format keeps the checks it found). A game
    declares its own in its spec instead. Registering the same object again does nothing."""
    known = _OWN.get(table.name)
    if known is table:
        return table
    if known is not None:
        raise ValueError(_("check table {name} is already registered", name=repr(table.name)))
    _OWN[table.name] = table
    _ORDERED[:] = sorted(_OWN.values(), key=lambda t: t.order)
    _BY_GAME.clear()
    return table


def unregister_table(name: str) -> None:
    """Remove a check table (for tests that register a toy one)."""
    _OWN.pop(name, None)
    _ORDERED[:] = sorted(_OWN.values(), key=lambda t: t.order)
    _BY_GAME.clear()


def check_tables(game: str | None = None) -> Sequence[CheckTable[Any]]:
    """Deckcheck's check tables and, given a game, the ones its spec declares, in order. Asking
    for a game loads it (and so its check tables) first: ``UnknownGame`` if there is no such
    game, ``FormatError`` naming the game if its check tables cannot be loaded."""
    if game is None:
        return tuple(_ORDERED)
    spec = plugins.get(game)
    hit = _BY_GAME.get(game)
    if hit is not None and hit[0] is spec:
        return hit[1]
    with _LOCK:
        found = tuple(sorted([*_ORDERED, *_game_tables(spec)], key=lambda t: t.order))
        _BY_GAME[game] = (spec, found)
    return found


def _game_tables(spec: plugins.GameSpec) -> list[CheckTable[Any]]:
    if spec.construction.check_tables is None:
        return []
    try:
        declared = list(spec.construction.check_tables())
    except Exception as exc:  # a plugin's checks module that fails to import
        raise FormatError(
            _(
                "game {game}: its check tables failed to load: {cls}: {error}",
                game=repr(spec.id),
                cls=type(exc).__name__,
                error=exc,
            )
        ) from exc
    out: list[CheckTable[Any]] = []
    for table in declared:
        if not isinstance(table, CheckTable):
            raise FormatError(
                _(
                    "game {game}: check_tables gives a {cls}, not a CheckTable",
                    game=repr(spec.id),
                    cls=type(table).__name__,
                )
            )
        if table.name in _OWN or table.name in {t.name for t in out}:
            raise FormatError(
                _(
                    "game {game}: check table {name} is declared twice",
                    game=repr(spec.id),
                    name=repr(table.name),
                )
            )
        out.append(table)
    return out


def placements(fmt: FormatView) -> list[Placement]:
    """Where the format's check tables want cards of a keyword, in check order."""
    return [p for t in check_tables(fmt.game) for row in t.of(fmt) for p in t.places(row)]


plugins.on_change(_BY_GAME.clear)
