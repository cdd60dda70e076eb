"""Deck lists printed: the canonical text form and the JSON form (reading.py parses them)."""

from __future__ import annotations

import re
from typing import Any

from deckcheck.models import DeckEntry, DeckList, section_order


def print_text(deck: DeckList) -> str:
    """The canonical text form: ``format:``, ``date:``, ``player:`` and ``name:`` lines, then
    each non-empty section in order."""
    lines: list[str] = []
    if deck.format:
        lines.append(f"format: {deck.format}")
    if deck.date:
        lines.append(f"date: {deck.date.isoformat()}")
    if deck.player:
        lines.append(f"player: {deck.player}")
    if deck.name:
        lines.append(f"name: {deck.name}")
    if deck.samples:
        lines.append("samples: yes")
    for section in section_order(e.section for e in deck.entries):
        entries = [e for e in deck.entries if e.section == section]
        if not entries:
            continue
        lines.append(f"[{section}]")
        lines.extend(_card_line(e) for e in entries)
    return "\n".join(lines) + "\n"


def _card_line(entry: DeckEntry) -> str:
    # "4 x foo" would read as four of "foo", "4 枚foo" as four of "foo": write "4x x foo" and
    # "4x 枚foo" when the name starts like that.
    sep = "x " if _LOOKS_LIKE_X.match(entry.ref) or entry.ref.startswith("枚") else " "
    return f"{entry.count}{sep}{entry.ref}"


_LOOKS_LIKE_X = re.compile(r"^[xX×ｘＸ]\s")


def to_json(deck: DeckList) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if deck.format:
        data["format"] = deck.format
    if deck.date:
        data["date"] = deck.date.isoformat()
    if deck.player:
        data["player"] = deck.player
    if deck.name:
        data["name"] = deck.name
    if deck.samples:
        data["samples"] = True
    for section in section_order(e.section for e in deck.entries):
        entries = [e for e in deck.entries if e.section == section]
        if entries:
            data[section] = [{"count": e.count, "card": e.ref} for e in entries]
    return data
