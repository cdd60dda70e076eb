"""The check-kind registry: each kind of check is one registered thing that keeps together the
TOML table it reads (a pydantic model), the check it runs and the lines ``formats show`` prints.

formats.py (schema and ``Format.checks()``), validate.py (which checks run) and render.py
(``formats show``) all walk ``kinds(game)``: deckcheck's own kinds (``register_kind``, from
checks/) and the kinds the game's spec declares (``GameSpec.check_kinds``), which a format of
that game may use and formats of other games may not.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter

from deckcheck import games
from deckcheck.checks.base import Check as Check
from deckcheck.checks.base import Strict as Strict
from deckcheck.errors import FormatError
from deckcheck.games.contract import FormatView
from deckcheck.models import Violation
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


@dataclass(frozen=True, slots=True, eq=False)
class CheckKind(Generic[T]):
    """One kind of check.

    ``name`` is the format's TOML key: ``[[name]]`` tables when ``many``, else one ``[name]``
    table. ``tables`` overrides where the tables are found. ``active``
    says whether a table can report anything at all: a format runs a kind's check only if one
    of its tables is active (that keeps validating fast). ``cites`` gives the rules a table
    contributes to ``Format.checks()``. ``types`` gives the card types a table names, as
    (field, types): the loader refuses a type the format's game does not have. ``order`` places
    the kind among the others: checks run, and ``formats show`` lists them, in ascending order.
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
    adapter: TypeAdapter[Any] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        shape: Any = tuple[self.model, ...] if self.many else self.model  # type: ignore[name-defined]
        object.__setattr__(self, "adapter", TypeAdapter(shape))

    def of(self, fmt: FormatView) -> Sequence[T]:
        """The kind's tables in ``fmt`` (none if the format does not use the kind)."""
        if self.tables is not None:
            return self.tables(fmt)
        return fmt.tables(self.name)

    def applies(self, fmt: FormatView) -> bool:
        return any(self.active(t) for t in self.of(fmt))


_KINDS: dict[str, CheckKind[Any]] = {}
_ORDERED: list[CheckKind[Any]] = []
# game id → (its spec, deckcheck's kinds and the game's, in order); emptied when a kind is
# registered or a game changes
_BY_GAME: dict[str, tuple[games.GameSpec, tuple[CheckKind[Any], ...]]] = {}
_LOCK = threading.Lock()


def register_kind(kind: CheckKind[T]) -> CheckKind[T]:
    """Add ``kind`` to deckcheck's own kinds, which every format may use (call at import time,
    before formats are loaded: a loaded format keeps the checks it found). A game declares its
    kinds in its spec instead. Registering the same object again does nothing."""
    known = _KINDS.get(kind.name)
    if known is kind:
        return kind
    if known is not None:
        raise ValueError(f"check kind {kind.name!r} is already registered")
    _KINDS[kind.name] = kind
    _ORDERED[:] = sorted(_KINDS.values(), key=lambda k: k.order)
    _BY_GAME.clear()
    return kind


def unregister_kind(name: str) -> None:
    """Remove a kind (for tests that register a toy kind)."""
    _KINDS.pop(name, None)
    _ORDERED[:] = sorted(_KINDS.values(), key=lambda k: k.order)
    _BY_GAME.clear()


def kinds(game: str | None = None) -> Sequence[CheckKind[Any]]:
    """Deckcheck's kinds and, given a game, the kinds its spec declares, in order. Asking for
    a game loads it (and so its kinds) first: ``UnknownGame`` if there is no such game,
    ``FormatError`` naming the game if its kinds cannot be loaded."""
    if game is None:
        return tuple(_ORDERED)
    spec = games.get(game)
    hit = _BY_GAME.get(game)
    if hit is not None and hit[0] is spec:
        return hit[1]
    with _LOCK:
        found = tuple(sorted([*_ORDERED, *_game_kinds(spec)], key=lambda k: k.order))
        _BY_GAME[game] = (spec, found)
    return found


def _game_kinds(spec: games.GameSpec) -> list[CheckKind[Any]]:
    if spec.check_kinds is None:
        return []
    try:
        declared = list(spec.check_kinds())
    except Exception as exc:  # a plugin's checks module that fails to import
        raise FormatError(
            f"game {spec.id!r}: its check kinds failed to load: {type(exc).__name__}: {exc}"
        ) from exc
    out: list[CheckKind[Any]] = []
    for kind in declared:
        if not isinstance(kind, CheckKind):
            raise FormatError(
                f"game {spec.id!r}: check_kinds gives a {type(kind).__name__}, not a CheckKind"
            )
        if kind.name in _KINDS or kind.name in {k.name for k in out}:
            raise FormatError(f"game {spec.id!r}: check kind {kind.name!r} is declared twice")
        out.append(kind)
    return out


games.on_change(_BY_GAME.clear)
