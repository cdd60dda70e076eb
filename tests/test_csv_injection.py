"""CSV cells a spreadsheet would run as formulas are escaped the OWASP way, a leading single
quote, and deckcheck reads its own CSV back unchanged (issue 24, item 14: ``convert --to csv``
wrote ``=HYPERLINK(…)``, ``+cmd|…`` and ``@SUM`` cells as they were)."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deckcheck import csvsafe
from tests.conftest import EXAMPLES
from tests.test_cli import run

# Unknown cards: the CSV keeps each reference as the card's name.
HOSTILE = [
    '=HYPERLINK("http://example.invalid/?x=1","click")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "'=already quoted",
    "''two quotes",
]
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "pool.sqlite3")


def _deck(tmp_path: Path) -> Path:
    deck = tmp_path / "hostile.deck"
    text = (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8")
    deck.write_text(text + "".join(f"1 {ref}\n" for ref in HOSTILE), encoding="utf-8")
    return deck


def _cells(text: str) -> list[str]:
    rows = list(csv.reader(io.StringIO(text)))
    return [cell for row in rows if row and not row[0].startswith("#") for cell in row]


def test_convert_to_csv_escapes_formula_cells(tmp_path: Path, db: str) -> None:
    code, out, err = run("convert", str(_deck(tmp_path)), "--to", "csv", db=db)
    assert code == 0, err
    cells = _cells(out)
    assert not [c for c in cells if c.startswith(DANGEROUS)]
    names = {row[3] for row in csv.reader(io.StringIO(out)) if len(row) == 4}
    assert "'" + HOSTILE[0] in names and "'+cmd|' /C calc'!A0" in names
    assert "''=already quoted" in names and "'''two quotes" in names


def test_our_csv_reads_back_as_it_was_written(tmp_path: Path, db: str) -> None:
    deck = _deck(tmp_path)
    out = tmp_path / "deck.csv"
    assert run("convert", str(deck), "--to", "csv", "--out", str(out), db=db)[0] == 0
    code, text, err = run("convert", str(out), "--to", "text", db=db)
    assert code == 0, err
    for ref in HOSTILE:
        assert f"1 {ref}\n" in text
    verdicts = []
    for path in (deck, out):  # the same verdict (lines differ between the forms)
        _, found, _ = run("validate", str(path), "--json", db=db)
        report = json.loads(found)
        verdicts.append((report["legal"], sorted((v["rule"], v["message"]) for v in report["violations"])))
    assert verdicts[0] == verdicts[1]


def test_sweep_csv_escapes_a_deck_name(tmp_path: Path, db: str) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    shutil.copy(EXAMPLES / "rakuen-standard-legal.deck", folder / "=HYPERLINK(1).deck")
    shutil.copy(EXAMPLES / "rakuen-standard-legal.deck", folder / "plain.deck")
    out = tmp_path / "sweep.csv"
    code, _, err = run("sweep", str(folder), "-n", "0", "--csv", str(out), db=db)
    assert code == 0, err
    variants = [row["variant"] for row in csv.DictReader(out.open(encoding="utf-8"))]
    assert variants == ["'=HYPERLINK(1): side=play", "plain: side=play"]


@given(st.text(max_size=20))
def test_unescape_undoes_escape(cell: str) -> None:
    escaped = csvsafe.escape(cell)
    assert csvsafe.unescape(escaped) == cell
    assert not escaped.startswith(DANGEROUS)
