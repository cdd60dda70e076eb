"""Deck lists between forms (text, JSON, CSV of section,count,number,name) and deck diffs."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from deckcheck import decklist
from deckcheck.csvsafe import escape
from deckcheck.decklist.parts import merge_repeats
from deckcheck.models import DeckList, Game, section_order
from deckcheck.resolve import CardIndex

CSV_COLUMNS = decklist.CSV_COLUMNS
FORMS = ("text", "json", "csv")
# An output file's suffix names its form when --to does not (outside the rulebooks)
_SUFFIXES = {".json": "json", ".csv": "csv", ".deck": "text", ".txt": "text"}


def form_of(path: Path | None) -> str | None:
    """The form an output file's name asks for, or None when its suffix says nothing."""
    return None if path is None else _SUFFIXES.get(path.suffix.casefold())


def pin(deck: DeckList, index: CardIndex, game: Game) -> DeckList:
    """Each reference that resolves to one card becomes that card's number."""
    out = deck.model_copy(deep=True)
    pinned = []
    for e in out.entries:
        found = index.resolve(game, e.ref)
        pinned.append(e._replace(ref=found.card.number) if found.card else e)
    out.entries = pinned
    return merge_repeats(out)


def render(deck: DeckList, form: str, index: CardIndex, game: Game) -> str:
    if form == "text":
        return decklist.print_text(deck)
    if form == "json":
        return json.dumps(decklist.to_json(deck), ensure_ascii=False, indent=2) + "\n"
    out = io.StringIO()
    if deck.format:
        out.write(f"# format: {deck.format}\n")  # i18n: machine (the CSV deck list's syntax)
    if deck.date:
        out.write(f"# date: {deck.date.isoformat()}\n")  # i18n: machine
    if deck.samples:
        out.write("# samples: yes\n")  # i18n: machine
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for section in section_order(e.section for e in deck.entries):
        for e in (e for e in deck.entries if e.section == section):
            card = index.resolve(game, e.ref).card
            # unresolved: keep the reference as the name so nothing is lost
            number, name = (card.number, card.name) if card else ("", e.ref)
            writer.writerow([escape(section), e.count, escape(number), escape(name)])
    return out.getvalue()


# --- diff -----------------------------------------------------------------------------------


class Change(BaseModel):
    number: str | None
    name: str
    before: int
    after: int


class DeckDiff(BaseModel):
    sections: dict[str, list[Change]]

    @property
    def empty(self) -> bool:
        return not any(self.sections.values())


@dataclass(frozen=True)
class _Key:
    number: str | None
    name: str


def _totals(deck: DeckList, index: CardIndex, game: Game) -> dict[str, dict[_Key, int]]:
    out: dict[str, dict[_Key, int]] = {}
    for e in deck.entries:
        card = index.resolve(game, e.ref).card
        key = _Key(card.number, card.name) if card else _Key(None, e.ref)
        bucket = out.setdefault(e.section, {})
        bucket[key] = bucket.get(key, 0) + e.count
    return out


def diff(a: DeckList, b: DeckList, index: CardIndex, game: Game) -> DeckDiff:
    """Per section, the cards whose count changed (cards are the same card when their
    references resolve to one number)."""
    ta, tb = _totals(a, index, game), _totals(b, index, game)
    sections: dict[str, list[Change]] = {}
    for section in section_order([*ta, *tb]):
        left, right = ta.get(section, {}), tb.get(section, {})
        changes = [
            Change(number=k.number, name=k.name, before=left.get(k, 0), after=right.get(k, 0))
            for k in [*left, *(k for k in right if k not in left)]
            if left.get(k, 0) != right.get(k, 0)
        ]
        if changes:
            sections[section] = changes
    return DeckDiff(sections=sections)
