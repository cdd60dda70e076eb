"""A card's number beside its name, the way deck sites and players' posts write it when it is not
in front: ``霧雨 魔理沙(N30)``, ``霧雨 魔理沙 N30``, ``【N30】霧雨 魔理沙``. Before, each of these was
deck/unknown-card; only ``N30 霧雨 魔理沙`` named the printing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from deckcheck.cli import app
from deckcheck.models import Report
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from tests.cli_run import CliRunner

Check = Callable[..., Report]
FORMS = [
    "N30 霧雨 魔理沙",
    "霧雨 魔理沙(N30)",
    "霧雨 魔理沙 (N30)",
    "霧雨 魔理沙（N30）",
    "霧雨 魔理沙 [N30]",
    "霧雨 魔理沙【N30】",
    "【N30】霧雨 魔理沙",
    "(N30) 霧雨 魔理沙",
    "霧雨 魔理沙 N30",
    "霧雨 魔理沙,N30",  # a spreadsheet's columns: name, number, count
    "霧雨 魔理沙、N30",
    "霧雨魔理沙 (N30)",  # the name without its space as well
]


@pytest.mark.parametrize("ref", FORMS)
def test_a_number_after_or_around_the_name_names_that_printing(
    ref: str, index: CardIndex, shipped_pool: Pool
) -> None:
    """霧雨 魔理沙 has eight printings that differ; the number picks N30 among them, in the
    whole pool's index and in the one a deck's references fetch (the commands' and service's)."""
    assert index.resolve("vision", "霧雨 魔理沙").ambiguous  # the name alone is no one card
    for where in (index, shipped_pool.index_for([ref])):
        found = where.resolve("vision", ref)
        assert found.card is not None and found.card.number == "N30", (ref, found)


def test_a_list_with_numbers_after_names_has_no_unknown_card(check: Check) -> None:
    text = "format: vision-standard\n" + "".join(f"1 {ref}\n" for ref in FORMS[1:4])
    report = check(text)
    assert [v.rule for v in report.violations] == ["vision/main-size"], report.violations


@pytest.mark.parametrize(
    "line",
    [
        "霧雨 魔理沙 ×2 N30",
        "霧雨 魔理沙×2（N30）",
        "霧雨 魔理沙 2枚 【N30】",
        "1. 霧雨 魔理沙 x2 [N30]",
    ],
)
def test_a_number_after_the_count_names_that_printing(line: str, check: Check) -> None:
    """The count, then the number (a blog's 「霧雨 魔理沙 ×2（N30）」): 2 of N30. Before, "not a
    card line"."""
    report = check(f"format: vision-standard\n{line}\n")
    assert [v.rule for v in report.violations] == ["vision/main-size"], report.violations
    assert report.counts["main"] == 2


def test_a_number_of_another_card_is_not_taken_and_its_card_is_suggested(check: Check) -> None:
    """N31 is 博麗 霊夢: the line means neither card for certain."""
    (unknown,) = [
        v
        for v in check("format: vision-standard\n1 霧雨 魔理沙 (N31)\n").violations
        if v.rule != "vision/main-size"
    ]
    assert unknown.rule == "deck/unknown-card" and "N31 博麗 霊夢" in (unknown.fix or "")


@pytest.mark.parametrize("ref", ["霧雨 魔理沙 NOPE", "霧雨 魔理沙 (999999)"])
def test_a_last_word_that_is_no_number_stays_part_of_the_name(ref: str, check: Check) -> None:
    rules = [v.rule for v in check(f"format: vision-standard\n1 {ref}\n").violations]
    assert "deck/unknown-card" in rules


def test_fix_respells_the_name_and_keeps_the_number_where_it_was(tmp_path: Path) -> None:
    deck = tmp_path / "d.deck"
    deck.write_text("format: vision-standard\n2 ﾁﾙﾉ【N10】\n1 ﾁﾙﾉ (N10)\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["fix", str(deck), "--db", str(tmp_path / "pool.sqlite3")])
    assert result.exit_code == 1, result.output  # still 3 cards of 50
    assert deck.read_text(encoding="utf-8").splitlines()[1:] == [
        "2 チルノ【N10】",
        "1 チルノ (N10)",
    ]
