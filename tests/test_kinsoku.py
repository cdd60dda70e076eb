"""Japanese on the terminal (issue 34, item 4): help and tables wrap by display width with
禁則: at 80 columns no Japanese help line starts with a closing bracket or 、。, no line is
wider than the terminal, and a table cell does not split a word (キャラクタ / ー)."""

from __future__ import annotations

import io
from itertools import pairwise

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from deckcheck import kinsoku
from deckcheck.kinsoku import NO_LINE_END, NO_LINE_START, divide_line
from tests.test_i18n_cli import COMMANDS, deckcheck

BOX = "│╭╰─╮╯ "
CLOSING = frozenset("）」』】〕]）、。，．ー")


def _lines(text: str, offsets: list[int]) -> list[str]:
    edges = [0, *offsets, len(text)]
    return [text[a:b] for a, b in pairwise(edges)]


@pytest.mark.parametrize("width", range(6, 41))
def test_lines_fit_and_keep_kinsoku(width: int) -> None:
    text = (
        "実在のカードを持つゲームでも、カード名を同梱の見本カードとして読みます"
        "（デッキリストの「samples:yes」行と同じ）。キャラクター・スペル・コマンドのみ。"
    )
    lines = _lines(text, divide_line(text, width))
    assert "".join(lines) == text
    for line in lines:
        assert cell_len(line.rstrip()) <= width, (width, lines)
    for line in lines[1:]:
        assert line[0] not in NO_LINE_START, (width, lines)
    for line in lines[:-1]:
        assert line.rstrip()[-1] not in NO_LINE_END, (width, lines)


def test_words_stay_whole_where_a_line_can_hold_them() -> None:
    lines = _lines("手札のキャラクターとスペル", divide_line("手札のキャラクターとスペル", 14))
    assert lines == ["手札の", "キャラクターと", "スペル"]
    # Latin text wraps at spaces, as rich wraps it
    assert divide_line("odds and goldfish", 8) == [9]


def test_a_word_longer_than_a_line_is_folded_without_a_bad_line_start() -> None:
    text = "キャラクタープレイヤー"
    lines = _lines(text, divide_line(text, 10))
    assert all(cell_len(line) <= 10 for line in lines)
    assert all(line[0] not in NO_LINE_START for line in lines), lines


def _rendered_table(width: int) -> list[str]:
    """A table whose last cell holds more than its column: rich wraps the cell (its header
    and the turn column keep their width, as deckcheck.tables sizes them)."""
    kinsoku.install()
    table = Table("ターン", "条件", box=None)
    table.add_row("1", "キャラクター・スペル・コマンドのみ（デッキリストの「samples:yes」行）。")
    out = io.StringIO()
    Console(file=out, width=width).print(table)
    first, *rest = out.getvalue().splitlines()[1:]  # below the header; "1" leads the row
    return [first.strip().removeprefix("1").strip(), *(line.strip() for line in rest)]


@pytest.mark.parametrize("width", range(28, 50))
def test_a_table_cell_does_not_split_a_word(width: int) -> None:
    cell = _rendered_table(width)
    assert len(cell) > 1
    for word in ("キャラクター", "スペル", "コマンド", "デッキリスト", "samples:yes"):
        assert any(word in line for line in cell), (word, cell)
    assert not any(line.startswith(tuple(CLOSING)) for line in cell), cell


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "deckcheck")
def test_japanese_help_at_80_columns_keeps_kinsoku(path: tuple[str, ...]) -> None:
    code, out = deckcheck(*path, "--help", COLUMNS="80")
    assert code == 0, out
    for line in out.splitlines():
        assert cell_len(line) <= 80, line
        for cell in line.strip(BOX).split("│"):
            words = cell.strip(BOX)
            assert not words.startswith(tuple(CLOSING)), (line, out)
