"""The data every part of deckcheck shares: cards, deck lists, violations, reports."""

from __future__ import annotations

from typing import Annotated, Literal, NamedTuple

from pydantic import AfterValidator, BaseModel, ConfigDict, Field


def _known_game(value: str) -> str:
    from deckcheck.games.registry import known_game

    return known_game(value)


# A game id, checked against the game registry (deckcheck.games): the card types, rules and
# engines of each game live in its spec there, so nothing here names a game.
Game = Annotated[str, AfterValidator(_known_game)]

SECTIONS: tuple[str, ...] = ("main", "extra", "gate", "side")

Severity = Literal["error", "warning"]


class Card(BaseModel):
    """One card of the pool. ``number`` is unique within its game."""

    model_config = ConfigDict(frozen=True)

    game: Game
    number: str
    name: str
    type: str
    kind: str | None = None
    title: str | None = None
    os: str | None = None
    append: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    gate_number: int | None = None
    level: int | None = None
    cost: int | None = None
    power: int | None = None
    color: str | None = None
    world: str | None = None
    hp: int | None = None
    territory: int | None = None  # rakuen: circles a member occupies (1, 2 or 4)
    rarity: str | None = None
    extra_cost: str | None = None
    source: str | None = None

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
    entries: list[DeckEntry] = Field(default_factory=list)
    problems: list[Violation] = Field(default_factory=list)
    section_lines: dict[str, int] = Field(default_factory=dict)
    first_line: int | None = None


class Report(BaseModel):
    """The verdict on one deck: what ``deckcheck validate --json`` prints."""

    path: str | None
    format: str
    game: Game
    legal: bool
    counts: dict[str, int]
    violations: list[Violation]
    assumptions: list[str] = Field(default_factory=list)

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "error"]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "warning"]
