"""The check-kind registry: each kind of check is one registered thing that keeps together the
TOML table it reads (a pydantic model), the check it runs and the lines ``formats show`` prints.

formats.py (schema and ``Format.checks()``), validate.py (which checks run) and render.py
(``formats show``) all walk ``kinds()``, so a new kind is one ``register_kind`` call, from
deckcheck or from a game's checks module (games/<game>/checks.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter

from deckcheck.models import Severity, Violation

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.slots import Context


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Check(Strict):
    """What a check reports: its rule id, where the rule comes from, and how severe it is."""

    rule: str
    source: str
    severity: Severity = "error"


T = TypeVar("T", bound=BaseModel)

# A check: the deck as the validator read it, and its section counts, in; what it breaks, out.
CheckFn = Callable[["Context", dict[str, int]], list[Violation]]


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


@dataclass(frozen=True, slots=True, eq=False)
class CheckKind(Generic[T]):
    """One kind of check.

    ``name`` is the format's TOML key: ``[[name]]`` tables when ``many``, else one ``[name]``
    table. ``tables`` overrides where the tables are found (the per-section kinds). ``active``
    says whether a table can report anything at all: a format runs a kind's check only if one
    of its tables is active (that keeps validating fast). ``cites`` gives the rules a table
    contributes to ``Format.checks()``. ``order`` places the kind among the others: checks run,
    and ``formats show`` lists them, in ascending order.
    """

    name: str
    model: type[T]
    check: CheckFn
    describe: Callable[[T], Iterable[Row]]
    order: int
    many: bool = True
    tables: Callable[[Format], Sequence[T]] | None = None
    active: Callable[[T], bool] = _always
    cites: Callable[[T], Iterable[Check]] = _itself
    adapter: TypeAdapter[Any] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        shape: Any = tuple[self.model, ...] if self.many else self.model  # type: ignore[name-defined]
        object.__setattr__(self, "adapter", TypeAdapter(shape))

    def of(self, fmt: Format) -> Sequence[T]:
        """The kind's tables in ``fmt`` (none if the format does not use the kind)."""
        if self.tables is not None:
            return self.tables(fmt)
        return fmt.tables(self.name)

    def applies(self, fmt: Format) -> bool:
        return any(self.active(t) for t in self.of(fmt))


_KINDS: dict[str, CheckKind[Any]] = {}
_ORDERED: list[CheckKind[Any]] = []


def register_kind(kind: CheckKind[T]) -> CheckKind[T]:
    """Add ``kind`` to the registry (call at import time, before formats are loaded: a loaded
    format keeps the checks it found). Registering the same object again does nothing."""
    known = _KINDS.get(kind.name)
    if known is kind:
        return kind
    if known is not None:
        raise ValueError(f"check kind {kind.name!r} is already registered")
    _KINDS[kind.name] = kind
    _ORDERED[:] = sorted(_KINDS.values(), key=lambda k: k.order)
    return kind


def unregister_kind(name: str) -> None:
    """Remove a kind (for tests that register a toy kind)."""
    _KINDS.pop(name, None)
    _ORDERED[:] = sorted(_KINDS.values(), key=lambda k: k.order)


def kinds() -> Sequence[CheckKind[Any]]:
    """Every registered kind, in order."""
    return tuple(_ORDERED)
