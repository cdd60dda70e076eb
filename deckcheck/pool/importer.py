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

from deckcheck import plugins
from deckcheck.errors import InputError
from deckcheck.files import read_limited
from deckcheck.i18n import _
from deckcheck.models import Card, Game
from deckcheck.normalize import nfkc
from deckcheck.plugins.columns import CardColumn
from deckcheck.pool.columns import COLUMNS as CARD_COLUMNS
from deckcheck.pool.columns import INT_LIMIT, SEP, all_game_columns, game_columns, list_item
from deckcheck.resolve import number_key
from deckcheck.text import lone_surrogate
from deckcheck.wording import a_an

# The shared file columns come from the Card model, a game's own from its spec
# (pool/columns.py); these need rules of their own.
COLUMNS: tuple[str, ...] = tuple(c.name for c in CARD_COLUMNS)
REQUIRED = tuple(c.name for c in CARD_COLUMNS if c.required)
INT_COLUMNS = tuple(c.name for c in CARD_COLUMNS if c.type == "int")
LIST_COLUMNS = tuple(c.name for c in CARD_COLUMNS if c.type == "list")
_SPECIAL = frozenset(("game", "number", "name", "type"))
# A card file is read whole; a full game's card list is a few MiB, so this is no card list.
MAX_CARD_FILE_BYTES = 64 << 20


class CardFileError(InputError):
    """A card file that cannot be read at all (missing, not UTF-8, not CSV/JSON)."""


class ImportRejected(InputError):
    """An import with bad rows: nothing was written. ``errors`` names file, row and reason."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__(f"{len(errors)} bad row(s); nothing imported")
        self.errors = errors


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
    raw = read_limited(path, MAX_CARD_FILE_BYTES, CardFileError, "a card file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CardFileError(
            _("{path}: not UTF-8 text (byte {at})", path=path, at=exc.start)
        ) from exc
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        rows = _jsonl_rows(path, text)
    elif suffix == ".json":
        rows = _json_rows(path, text)
    elif suffix in (".csv", ".txt", ""):
        rows = _csv_rows(path, text)
    else:
        raise CardFileError(
            _(
                "{path}: unknown card file type {suffix} (use .csv, .json, .jsonl)",
                path=path,
                suffix=repr(suffix),
            )
        )
    columns = {key for row in rows for key in row.values}
    return rows, sorted(str(c) for c in columns - set(COLUMNS) - all_game_columns())


def _csv_rows(path: Path, text: str) -> list[Row]:
    # Lines starting with # before the header are a comment (a shipped file's provenance).
    lines = text.splitlines(keepends=True)
    skipped = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    text = "".join(lines[skipped:])
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        header = reader.fieldnames or []
        missing = [c for c in REQUIRED if c not in header]
        if missing:
            raise CardFileError(
                _(
                    "{path}: the header lacks the column(s) {columns}",
                    path=path,
                    columns=", ".join(missing),
                )
            )
        rows = []
        for i, record in enumerate(reader, start=1):
            if None in record:
                extra = record.pop(None)
                record["__extra__"] = extra
            rows.append(Row(i, reader.line_num + skipped, record))
        return rows
    except csv.Error as exc:
        raise CardFileError(_("{path}: not valid CSV: {error}", path=path, error=exc)) from exc


def _json_rows(path: Path, text: str) -> list[Row]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CardFileError(_("{path}: not valid JSON: {error}", path=path, error=exc)) from exc
    if not isinstance(data, list):
        raise CardFileError(_("{path}: a JSON card file must be an array of objects", path=path))
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
    items = value if isinstance(value, list) else str(value).split(SEP)
    return tuple(t for t in (list_item(str(i)) for i in items) if t)


def _shape_reasons(values: Mapping[str, Any]) -> list[str]:
    """What no column may hold: an object where text belongs (JSON cards); a NUL, which would
    cut the name short in C code and terminals and cannot be typed in a deck list; a lone
    surrogate (a JSON "\\ud800"), which is no text and no database stores."""
    reasons: list[str] = []
    if values.get("__extra__"):
        reasons.append("more fields than the header has columns")
    for column in (*COLUMNS, *sorted(all_game_columns() & set(values))):
        value = values.get(column)
        items = value if isinstance(value, list) else [value]
        if any(isinstance(item, (dict, list)) for item in items):
            reasons.append(f"{column} must be text or a number, not a JSON object or nested list")
        elif any("\x00" in str(item) for item in items if item is not None):
            reasons.append(f"{column} contains a NUL character")
        elif bad := next(filter(None, (lone_surrogate(str(i)) for i in items if i)), None):
            reasons.append(f"{column} is not valid Unicode text (a lone surrogate, {bad})")
    return reasons


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "…"


def check_row(row: Row, ignored: set[str] | None = None) -> Card | list[str]:
    """A card, or the reasons the row is bad. A value in a column that is another game's, not
    this row's, is left out and its column added to ``ignored`` (as ``x (not a G column)``)."""
    values = row.values
    if "__bad__" in values:
        bad = values["__bad__"]
        return [bad if isinstance(bad, str) else "not an object"]
    reasons = _shape_reasons(values)
    fields = {c: _text(values.get(c)) for c in COLUMNS if c not in LIST_COLUMNS}
    spec = plugins.find(fields["game"] or "")
    game = spec.id if spec else None
    if game is None:
        reasons.append(
            f"unknown game {fields['game']!r} (use {', '.join(plugins.ids())})"
            if fields["game"]
            else "missing game"
        )
    own = game_columns(game) if game is not None else {}
    if ignored is not None and game is not None:
        foreign = (all_game_columns() - set(own)) & set(values)
        ignored.update(
            f"{c} (not {a_an(game)} column)" for c in foreign if _text(values.get(c)) is not None
        )
    fields.update((c.name, _text(values.get(c.name))) for c in own.values() if c.type != "list")
    if not fields["number"]:
        reasons.append("missing number")
    if not fields["name"]:
        reasons.append("missing name")
    ctype = None
    if not fields["type"]:
        reasons.append("missing type")
    elif spec is not None:
        ctype = spec.cards.type_words.get(nfkc(fields["type"]).casefold())
        if ctype is None:
            known = ", ".join(spec.cards.card_types)
            reasons.append(f"unknown type {fields['type']!r} for {game} (use {known})")
    int_columns = (*INT_COLUMNS, *(c.name for c in own.values() if c.type == "int"))
    ints = _whole_numbers(fields, int_columns, reasons)
    # the game's own checks of a card row (its columns, its card kinds)
    if spec is not None and spec.cards.check_card is not None:
        tables = spec.cards.card_tables() if spec.cards.card_tables is not None else {}
        reasons.extend(spec.cards.check_card(fields, tables))
    if reasons:
        return reasons
    assert game is not None and ctype is not None
    return _card(values, fields, ints, own, game, ctype)


def _whole_numbers(
    fields: dict[str, str | None], columns: tuple[str, ...], reasons: list[str]
) -> dict[str, int | None]:
    """The integer columns' values (None when empty); a bad one adds its reason."""
    ints: dict[str, int | None] = {}
    for int_column in columns:
        text = fields[int_column]
        if text is None:
            ints[int_column] = None
            continue
        try:
            number = int(nfkc(text))
        except ValueError:
            reasons.append(f"{int_column} {_short(text)!r} is not a whole number")
            continue
        if not -INT_LIMIT <= number < INT_LIMIT:
            reasons.append(f"{int_column} {_short(text)!r} is out of range (64-bit integers)")
        ints[int_column] = number
    return ints


def _card(
    values: Mapping[str, Any],
    fields: dict[str, str | None],
    ints: dict[str, int | None],
    own: dict[str, CardColumn],
    game: str,
    ctype: str,
) -> Card | list[str]:
    """The checked row as a card: shared columns as fields, the game's own in ``extra``."""
    card: dict[str, object] = {}
    for column in CARD_COLUMNS:
        if column.name in _SPECIAL:
            continue
        if column.type == "list":
            card[column.field] = _split(values.get(column.name))
        elif column.type == "int":
            card[column.field] = ints[column.name]
        else:
            card[column.field] = fields[column.name]
    extra: dict[str, object] = {}
    for own_column in own.values():  # text from ``fields``: the game's check may fill it in
        name = own_column.name
        if own_column.type == "list":
            extra[name] = _split(values.get(name)) or None
        else:
            extra[name] = ints[name] if own_column.type == "int" else fields[name]
    card.update(
        game=game,
        number=nfkc(fields["number"] or ""),
        name=(fields["name"] or "").strip(),
        type=ctype,
        extra={k: v for k, v in extra.items() if v is not None},
    )
    try:
        return Card.model_validate(card)
    except ValidationError as exc:
        return [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]


def check_file(path: Path) -> CheckedFile:
    rows, unknown = read_rows(path)
    result = CheckedFile(str(path))
    ignored: set[str] = set()
    first_row: dict[tuple[Game, str], int] = {}
    for row in rows:
        checked = check_row(row, ignored)
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
    result.unknown_columns = unknown + sorted(ignored)
    return result


def card_files(folder: Path) -> Iterable[Path]:
    """The card files of a folder tree, in a stable order."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix.lower() in (".csv", ".json", ".jsonl", ".ndjson"):
            yield path


def check_import(paths: Iterable[Path]) -> list[CheckedFile]:
    """The checks of one import, the same for every pool: each file's rows, then what is
    ambiguous across the files (a number, or an alias, given twice). Raises
    ``ImportRejected`` with every bad row, ``CardFileError`` for an unreadable file."""
    checked = [check_file(p) for p in paths]
    errors = [e for f in checked for e in f.errors]
    seen: dict[tuple[Game, str], str] = {}
    for f in checked:  # one number in two files of one import is as ambiguous as in one
        for card in f.cards:
            key = (card.game, number_key(card.number))
            if key in seen and seen[key] != f.path:
                errors.append(f"{f.path}: number {card.number!r} also in {seen[key]}")
            seen.setdefault(key, f.path)
    aliased: dict[tuple[Game, str], str] = {}
    for f in checked:  # an alias must name one card only
        for card in f.cards:
            for alias in card.aliases:
                key = (card.game, number_key(alias))
                other = aliased.get(key)
                if key in seen or (other is not None and other != card.number):
                    errors.append(
                        f"{f.path}: {card.number}: alias {alias!r} is already "
                        f"{'a card number' if key in seen else f'an alias of {other}'}"
                    )
                aliased.setdefault(key, card.number)
    if errors:
        raise ImportRejected(errors)
    return checked
