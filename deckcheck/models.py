"""The data every part of deckcheck shares: cards, deck lists, violations, reports."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Annotated, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

# A game id. Checked against the game registry (deckcheck.games) where ids come in: format
# files (formats.py), card rows (pool/importer.py, pool/columns.py), requests (the service's
# models, the CLI). Nothing here names a game or asks the registry.
Game = str

SECTIONS: tuple[str, ...] = ("main", "extra", "gate", "side")

Severity = Literal["error", "warning"]


SearchMode = Literal["exact", "text", "item", "max", "min"]


@dataclass(frozen=True)
class Search:
    """Marks a ``Card`` field as a search filter (``pool search``, ``GET /cards``).

    ``exact``: equal; ``text``: a substring, any width or case; ``item``: one element of a
    list; ``max``/``min``: a bound on a whole number (filter ``max_<field>``/``min_<field>``).
    ``option`` names the filter where the field name reads badly (``keywords`` → ``keyword``).
    """

    mode: SearchMode
    option: str | None = None


class Card(BaseModel):
    """One card of the pool. ``number`` is unique within its game.

    The fields are the card columns, declared here only: the SQLite and SQLAlchemy tables,
    the import columns and the search filters are derived from them (deckcheck/pool/columns.py).
    Storage follows the annotation (``int`` → integer, ``tuple[str, ...]`` → a ``;``-joined
    list, else text); a field's alias is its column name in card files and JSON.
    """

    # Dumps use the file column names (``class``), so a dumped card imports as it is.
    model_config = ConfigDict(
        frozen=True, validate_by_name=True, validate_by_alias=True, serialize_by_alias=True
    )

    game: Game
    number: str
    name: str
    type: Annotated[str, Search("exact")]
    kind: str | None = None
    title: str | None = None
    os: str | None = None
    append: tuple[str, ...] = ()
    keywords: Annotated[tuple[str, ...], Search("item", "keyword")] = ()
    gate_number: int | None = None
    level: Annotated[int | None, Search("max")] = None
    cost: Annotated[int | None, Search("max")] = None
    power: int | None = None
    color: str | None = None
    world: str | None = None
    hp: int | None = None
    territory: int | None = None  # rakuen: circles a member occupies (1, 2 or 4)
    rarity: str | None = None
    extra_cost: str | None = None
    source: str | None = None
    # Other numbers a deck may write the card by (VISION: the dataset id ``P8`` of ``PR.008``).
    aliases: tuple[str, ...] = ()
    # VISION columns: 術者 (the caster a spell belongs to), 種族 (``class``; ``klass`` because
    # ``class`` is a Python keyword), 必要ノード, グレイズ, 攻撃力/耐久力 as printed (a
    # spell's modifier is ``+3``, a variable value ``X``), the sets it was printed in, and a
    # Union card's 【連結…】 requirement, and an upkeep cost paid each turn or the card leaves.
    user: Annotated[str | None, Search("text")] = None
    klass: Annotated[str | None, Field(alias="class"), Search("text", "class")] = None
    node: Annotated[int | None, Search("max")] = None
    graze: Annotated[int | None, Search("min")] = None
    attack: str | None = None
    toughness: str | None = None
    package: Annotated[tuple[str, ...], Search("item")] = ()
    link: Annotated[str | None, Search("text")] = None
    upkeep: int | None = None

    @property
    def sample(self) -> bool:
        """Sample data shipped to build example decks, not a real printed card."""
        return self.number.startswith("SAMPLE-")


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


class DeckList(BaseModel):
    """A parsed, not yet resolved deck list.

    ``problems`` holds what the parser found wrong (``deck/syntax``); they become violations of
    the deck, so a deck with one bad line is still checked in full.
    """

    path: str | None = None
    format: str | None = None
    date: datetime.date | None = None  # the ``date:`` line: the day whose format version applies
    entries: list[DeckEntry] = Field(default_factory=list)
    problems: list[Violation] = Field(default_factory=list)
    section_lines: dict[str, int] = Field(default_factory=dict)
    first_line: int | None = None


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
            return f"{self.id} (undated)"
        until = f" to {self.effective_until}" if self.effective_until else " on"
        later = f"; superseded by {self.superseded_by}" if self.superseded_by else ""
        return f"{self.id}, in force from {self.effective_from}{until}{later}"

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

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "error"]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "warning"]
