"""Resolved deck contents shared by the rule checks: slots (card × count) and small helpers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from deckcheck.formats import Format
from deckcheck.models import Card, CardCount, DeckList


@dataclass(slots=True, eq=False)
class Slot:
    """``count`` copies of ``card`` in ``section``, first written on ``line``."""

    card: Card
    count: int
    line: int | None
    section: str = "main"


@dataclass(slots=True)
class Context:
    """What every check sees: the format, the deck list and its resolved slots per section."""

    fmt: Format
    deck: DeckList
    slots: dict[str, list[Slot]]

    def in_sections(self, sections: Iterable[str]) -> list[Slot]:
        return [slot for s in sections for slot in self.slots.get(s, ())]

    def section_line(self, section: str) -> int | None:
        return self.deck.section_lines.get(section, self.deck.first_line)


def total(slots: Iterable[Slot]) -> int:
    return sum(s.count for s in slots)


def first_line(slots: Iterable[Slot]) -> int | None:
    lines = [s.line for s in slots if s.line is not None]
    return min(lines) if lines else None


def card_counts(slots: Iterable[Slot]) -> list[CardCount]:
    return [CardCount(number=s.card.number, name=s.card.name, count=s.count) for s in slots]


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"
