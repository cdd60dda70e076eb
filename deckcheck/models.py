"""The data every part of deckcheck shares: cards, deck lists, violations, reports."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from deckcheck.i18n import _
from deckcheck.plugins.columns import Search

# A game id. Checked against the game registry (deckcheck.games) where ids come in: format
# files (formats/schema.py), card rows (pool/importer.py, pool/columns.py), requests (the service's
# models, the CLI). Nothing here names a game or asks the registry.
Game = str

# The deck sections every game may use; a game adds its own (``GameSpec.construction.sections``).
SECTIONS: tuple[str, ...] = ("main", "extra", "gate", "side")


def section_order(names: Iterable[str]) -> list[str]:
    """The sections among ``names`` in the order lists write them: the shared ones in
    ``SECTIONS`` order, then a game's own in the order they first come."""
    given = list(dict.fromkeys(names))
    return [s for s in SECTIONS if s in given] + [s for s in given if s not in SECTIONS]

Severity = Literal["error", "warning"]


# A game's own column value (``Card.extra``): a whole number, text, or a list of text.
ColumnValue = int | str | tuple[str, ...] | None


class Card(BaseModel):
    """One card of the pool. ``number`` is unique within its game.

    The fields are the columns every game shares; the SQLite and SQLAlchemy tables, the import
    columns and the shared search filters are derived from them (deckcheck/pool/columns.py).
    Storage follows the annotation (``int`` → integer, ``tuple[str, ...]`` → a ``;``-joined
    list, else text).

    A game's own columns (its spec's ``columns``) are in ``extra``, by column name, with a
    column the card leaves empty absent. Read them with ``value`` (any column by name, shared
    or the game's), or typed with ``int_of``, ``text_of`` and ``items_of``. Dumps are flat, as
    card files are: ``{"number": …, "<column>": …}``, and a flat mapping validates back (keys
    that are no field go to ``extra``), so a dumped card imports as it is. The importer checks
    ``extra`` against the game's columns; ``extra`` is never changed after construction (a copy
    with another value is ``card.model_copy(update={"extra": {**card.extra, name: value}})``).
    """

    model_config = ConfigDict(frozen=True)

    game: Game
    number: str
    name: str
    type: Annotated[str, Search("exact")]
    kind: Annotated[str | None, Search("exact")] = None  # a sub-kind the rules name
    keywords: Annotated[tuple[str, ...], Search("item", "keyword")] = ()
    level: Annotated[int | None, Search("max")] = None
    cost: Annotated[int | None, Search("max")] = None
    rarity: str | None = None
    source: str | None = None
    # Other numbers a deck may write the card by (VISION: the dataset id ``P8`` of ``PR.008``).
    aliases: tuple[str, ...] = ()
    extra: dict[str, ColumnValue] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _gather_extra(cls, data: Any) -> Any:
        """A flat mapping (a dump, a JSON card): the keys that are no field are ``extra``."""
        if isinstance(data, dict) and not _FIELDS.issuperset(data):
            data = dict(data)
            extra = dict(data.pop("extra", None) or {})
            for key in [k for k in data if k not in _FIELDS]:
                extra[key] = data.pop(key)
            data["extra"] = extra
        return data

    @model_serializer(mode="wrap")
    def _flat(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        out.update(out.pop("extra", None) or {})
        return out

    def __hash__(self) -> int:  # ``extra`` is a dict; the number identifies a card in its game
        return hash((self.game, self.number))

    def value(self, column: str) -> ColumnValue:
        """A column by name: a shared field (``level``) or the game's own; None when the card
        has none."""
        if column in _SHARED:
            found: ColumnValue = getattr(self, column)
            return found
        return self.extra.get(column)

    def int_of(self, column: str) -> int | None:
        """The game's whole-number column ``column``, None when empty."""
        found = self.extra.get(column)
        return found if isinstance(found, int) else None

    def text_of(self, column: str) -> str | None:
        """The game's text column ``column``, None when empty."""
        found = self.extra.get(column)
        return found if isinstance(found, str) else None

    def items_of(self, column: str) -> tuple[str, ...]:
        """The game's list column ``column``, () when empty."""
        found = self.extra.get(column)
        return found if isinstance(found, tuple) else ()

    @property
    def sample(self) -> bool:
        """Sample data shipped to build example decks, not a real printed card."""
        return self.number.startswith("SAMPLE-")


# The shared columns, and ``extra``: what a flat mapping's keys are checked against.
_FIELDS: frozenset[str] = frozenset(Card.model_fields)
_SHARED: frozenset[str] = _FIELDS - {"extra"}


class DeckEntry(NamedTuple):
    """One line of a deck list: ``count`` copies of ``ref`` (a card number or name).

    A named tuple rather than a model: a batch holds hundreds of thousands of them, and their
    size decides how fast the validator walks them (benchmarks/validate_bench.py). Pydantic
    still validates them wherever a ``DeckList`` is built from outside data.
    """

    section: str
    count: int  # type: ignore[assignment]  # shadows tuple.count, which nothing here uses
    ref: str
    line: int | None = None


class CardCount(BaseModel):
    """A card named by a violation, with how many copies of it are involved."""

    number: str | None
    name: str
    count: int


class Violation(BaseModel):
    rule: str
    severity: Severity = "error"
    message: str
    section: str | None = None
    cards: list[CardCount] = Field(default_factory=list)
    line: int | None = None
    source: str
    fix: str | None = None


class Note(BaseModel):
    """What the reader decided for the user where the list left it open and legality does not
    depend on it (``deck/printing``: which printing stands for a name): no problem, said so.
    Frozen: the validator hands the same note to every report of the same line."""

    model_config = ConfigDict(frozen=True)

    rule: str
    message: str
    line: int | None = None
    cards: list[CardCount] = Field(default_factory=list)
    source: str


class DeckList(BaseModel):
    """A parsed, not yet resolved deck list.

    ``problems`` holds what the parser found wrong (``deck/syntax``); they become violations of
    the deck, so a deck with one bad line is still checked in full.
    """

    path: str | None = None
    format: str | None = None
    date: datetime.date | None = None  # the ``date:`` line: the day whose format version applies
    player: str | None = None  # the ``player:`` line (``プレイヤー名：``): what organisers collect
    name: str | None = None  # the ``name:`` line (``デッキ名：``): the deck's name
    # the ``samples: yes`` line: the list names the shipped sample cards, which a game whose
    # pool holds real cards otherwise hides from name resolution (pool.samples)
    samples: bool = False
    entries: list[DeckEntry] = Field(default_factory=list)
    problems: list[Violation] = Field(default_factory=list)
    section_lines: dict[str, int] = Field(default_factory=dict)
    first_line: int | None = None
    # lines whose count is a bare number after the name (``森近 霖之助 2``), by line number,
    # as written: a card line if the name before the count names a card, which only the
    # validator can tell (decklist.lines.bare_count)
    bare: dict[int, str] = Field(default_factory=dict)


class FormatVersion(BaseModel):
    """The format version an answer used and its dates (formats/*.toml ``effective``):
    ``effective_until`` is its last day in force, its own or the day before the version that
    supersedes it starts; None for an open end, and both None for an undated format."""

    model_config = ConfigDict(frozen=True)

    id: str
    effective_from: datetime.date | None = None
    effective_until: datetime.date | None = None
    supersedes: str | None = None
    superseded_by: str | None = None

    def describe(self) -> str:
        """``ID, in force from DAY to DAY; superseded by …``."""
        if self.effective_from is None:
            return _("{id} (undated)", id=self.id)
        start, end = self.effective_from, self.effective_until
        shown = (
            _("{id}, in force from {start} to {end}", id=self.id, start=start, end=end)
            if end
            else _("{id}, in force from {start} on", id=self.id, start=start)
        )
        if self.superseded_by:
            return _("{version}; superseded by {id}", version=shown, id=self.superseded_by)
        return shown

    @property
    def dated(self) -> bool:
        return self.effective_from is not None


class Report(BaseModel):
    """The verdict on one deck: what ``deckcheck validate --json`` prints."""

    path: str | None
    format: str
    game: Game
    legal: bool
    counts: dict[str, int]
    violations: list[Violation]
    assumptions: list[str] = Field(default_factory=list)
    format_version: FormatVersion | None = None
    notes: list[Note] = Field(default_factory=list)

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "error"]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "warning"]
