"""The CSV form of a deck list: ``section,count,number,name`` rows, with leading ``# format:``
and ``# date:`` lines."""

from __future__ import annotations

import csv
import io

from deckcheck.csvsafe import unescape
from deckcheck.decklist.headers import section_name
from deckcheck.decklist.parts import MAX_COUNT, clip, merge_repeats, read_day, syntax
from deckcheck.i18n import _
from deckcheck.models import DeckEntry, DeckList, Violation

CSV_COLUMNS = ("section", "count", "number", "name")


def parse_csv(text: str, path: str | None = None) -> DeckList:
    """The CSV form; leading ``# format: ID``, ``# date: YYYY-MM-DD`` and ``# samples: yes``
    lines carry the format, the date and whether sample cards are allowed."""
    deck = DeckList(path=path, first_line=1)
    body: list[str] = []
    offset = 0  # leading comment lines, before the header
    for raw in text.lstrip("\ufeff").splitlines():
        stripped = raw.strip()
        if stripped.startswith("#") or (not stripped and not body):
            key, _sep, value = stripped.lstrip("#").partition(":")
            if key.strip().casefold() == "format" and value.strip():
                deck.format = value.strip()
            elif key.strip().casefold() == "date" and value.strip():
                line = offset + len(body) + 1
                found, problem = read_day(value, deck.date, line)
                deck.date = found or deck.date
                if problem is not None:
                    deck.problems.append(problem)
            elif key.strip().casefold() == "samples":  # the text form's samples: line
                deck.samples = value.strip().casefold() in ("yes", "true", "on", "1")
            if body:
                body.append("")  # a later comment keeps its line, so line numbers stay true
            else:
                offset += 1
        else:
            body.append(raw)
    reader = csv.DictReader(io.StringIO("\n".join(body)))
    try:
        columns = reader.fieldnames or []
    except csv.Error:
        columns = []
    missing = [c for c in ("section", "count") if c not in columns]
    if missing or not {"number", "name"} & set(columns):
        deck.problems.append(
            syntax(
                _("a CSV deck needs the columns section,count,number,name"),
                1,
                _("write the header section,count,number,name"),
            )
        )
        return deck
    try:
        deck.entries = _csv_entries(reader, offset, deck.problems)
    except csv.Error as exc:  # e.g. a field over the csv module's 128 KiB limit
        line = reader.line_num + offset
        deck.problems.append(
            syntax(_("not a readable CSV row: {error}", error=exc), line, _("fix the CSV"))
        )
    return merge_repeats(deck)


def _csv_entries(
    reader: csv.DictReader[str], offset: int, problems: list[Violation]
) -> list[DeckEntry]:
    entries = []
    for cells in reader:
        row = {k: unescape(v) if isinstance(v, str) else v for k, v in cells.items()}
        number = reader.line_num + offset
        section = section_name(row.get("section") or "main") or "?"
        ref = (row.get("number") or "").strip() or (row.get("name") or "").strip()
        try:
            count = int((row.get("count") or "").strip())
        except ValueError:
            count = 0
        if section == "?" or not ref or not 0 < count <= MAX_COUNT:
            fix = _("write section,count,number,name")
            problems.append(syntax(_("bad CSV row: {row}", row=clip(str(row))), number, fix))
            continue
        entries.append(DeckEntry(section, count, ref, number))
    return entries


def looks_like_csv(text: str) -> bool:
    first = next((ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")), "")
    return first.replace(" ", "").lower().startswith("section,count")
