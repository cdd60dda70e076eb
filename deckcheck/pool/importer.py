"""Reading card files (CSV, JSON array, JSON Lines) into checked cards. No database here.

Every bad row is reported (file, row, reason), never just the first; the store applies a file
only when it has none.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from deckcheck import games
from deckcheck.errors import InputError
from deckcheck.models import Card, Game
from deckcheck.normalize import nfkc
from deckcheck.resolve import number_key

COLUMNS: tuple[str, ...] = (
    "game",
    "number",
    "name",
    "type",
    "kind",
    "title",
    "os",
    "append",
    "keywords",
    "gate_number",
    "level",
    "cost",
    "power",
    "color",
    "world",
    "hp",
    "rarity",
    "extra_cost",
    "source",
    "territory",
)
REQUIRED = ("game", "number", "name", "type")
INT_COLUMNS = ("gate_number", "level", "cost", "power", "hp", "territory")
LIST_COLUMNS = ("append", "keywords")



class CardFileError(InputError):
    """A card file that cannot be read at all (missing, not UTF-8, not CSV/JSON)."""


@dataclass
class Row:
    number: int  # 1-based data row (CSV: after the header; JSON: array item; JSONL: line)
    line: int | None
    values: Mapping[str, Any]


@dataclass
class CheckedFile:
    path: str
    cards: list[Card] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    unknown_columns: list[str] = field(default_factory=list)


def read_rows(path: Path) -> tuple[list[Row], list[str]]:
    """Rows of a card file and its unknown column names. The format follows the extension:
    ``.csv``, ``.json`` (array of objects), ``.jsonl``/``.ndjson`` (one object a line)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CardFileError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CardFileError(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        rows = _jsonl_rows(path, text)
    elif suffix == ".json":
        rows = _json_rows(path, text)
    elif suffix in (".csv", ".txt", ""):
        rows = _csv_rows(path, text)
    else:
        raise CardFileError(f"{path}: unknown card file type {suffix!r} (use .csv, .json, .jsonl)")
    columns = {key for row in rows for key in row.values}
    return rows, sorted(str(c) for c in columns - set(COLUMNS))


def _csv_rows(path: Path, text: str) -> list[Row]:
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        header = reader.fieldnames or []
        missing = [c for c in REQUIRED if c not in header]
        if missing:
            raise CardFileError(f"{path}: the header lacks the column(s) {', '.join(missing)}")
        rows = []
        for i, record in enumerate(reader, start=1):
            if None in record:
                extra = record.pop(None)
                record["__extra__"] = extra
            rows.append(Row(i, reader.line_num, record))
        return rows
    except csv.Error as exc:
        raise CardFileError(f"{path}: not valid CSV: {exc}") from exc


def _json_rows(path: Path, text: str) -> list[Row]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CardFileError(f"{path}: not valid JSON: {exc}") from exc
    if not isinstance(data, list):
        raise CardFileError(f"{path}: a JSON card file must be an array of objects")
    return [
        Row(i, None, item if isinstance(item, dict) else {"__bad__": item})
        for i, item in enumerate(data, start=1)
    ]


def _jsonl_rows(path: Path, text: str) -> list[Row]:
    rows: list[Row] = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except (ValueError, RecursionError) as exc:
            item = {"__bad__": f"not valid JSON ({exc})"}
        rows.append(
            Row(len(rows) + 1, line_no, item if isinstance(item, dict) else {"__bad__": item})
        )
    return rows


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):
        return ";".join(str(v) for v in value)
    text = str(value).strip()
    return text or None


def _split(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    items = value if isinstance(value, list) else str(value).split(";")
    return tuple(t for t in (nfkc(str(i)).strip("[]【】 ") for i in items) if t)


def check_row(row: Row, titles: Mapping[str, str], os_names: Mapping[str, str]) -> Card | list[str]:
    """A card, or the reasons the row is bad."""
    values = row.values
    if "__bad__" in values:
        bad = values["__bad__"]
        return [bad if isinstance(bad, str) else "not an object"]
    reasons: list[str] = []
    if values.get("__extra__"):
        reasons.append("more fields than the header has columns")
    fields = {c: _text(values.get(c)) for c in COLUMNS if c not in LIST_COLUMNS}
    spec = games.find(fields["game"] or "")
    game = spec.id if spec else None
    if game is None:
        reasons.append(
            f"unknown game {fields['game']!r} (use {', '.join(games.ids())})"
            if fields["game"]
            else "missing game"
        )
    if not fields["number"]:
        reasons.append("missing number")
    if not fields["name"]:
        reasons.append("missing name")
    ctype = None
    if not fields["type"]:
        reasons.append("missing type")
    elif spec is not None:
        ctype = spec.type_words.get(nfkc(fields["type"]).casefold())
        if ctype is None:
            known = ", ".join(spec.card_types)
            reasons.append(f"unknown type {fields['type']!r} for {game} (use {known})")
    ints: dict[str, int | None] = {}
    for column in INT_COLUMNS:
        text = fields[column]
        if text is None:
            ints[column] = None
            continue
        try:
            ints[column] = int(nfkc(text))
        except ValueError:
            reasons.append(f"{column} {text!r} is not a whole number")
    kind = fields["kind"]
    if spec is not None and spec.check_card is not None:  # the game's own columns (OS, kind)
        reasons.extend(spec.check_card(fields, {"titles": titles, "os_names": os_names}))
    os_name = fields["os"]
    if reasons:
        return reasons
    assert game is not None and ctype is not None
    try:
        return Card(
            game=game,
            number=nfkc(fields["number"] or ""),
            name=(fields["name"] or "").strip(),
            type=ctype,
            kind=kind,
            title=fields["title"],
            os=os_name,
            append=_split(values.get("append")),
            keywords=_split(values.get("keywords")),
            color=fields["color"],
            world=fields["world"],
            rarity=fields["rarity"],
            extra_cost=fields["extra_cost"],
            source=fields["source"],
            **ints,
        )
    except ValidationError as exc:
        return [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]


def check_file(path: Path, titles: Mapping[str, str], os_names: Mapping[str, str]) -> CheckedFile:
    rows, unknown = read_rows(path)
    result = CheckedFile(str(path), unknown_columns=unknown)
    first_row: dict[tuple[Game, str], int] = {}
    for row in rows:
        checked = check_row(row, titles, os_names)
        where = f"{path}: row {row.number}" + (f" (line {row.line})" if row.line else "")
        if isinstance(checked, list):
            result.errors.extend(f"{where}: {reason}" for reason in checked)
            continue
        key = (checked.game, number_key(checked.number))
        if key in first_row:
            result.errors.append(
                f"{where}: duplicate number {checked.number!r} for {checked.game} "
                f"(also row {first_row[key]})"
            )
            continue
        first_row[key] = row.number
        result.cards.append(checked)
    return result


def card_files(folder: Path) -> Iterable[Path]:
    """The card files of a folder tree, in a stable order."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix.lower() in (".csv", ".json", ".jsonl", ".ndjson"):
            yield path
