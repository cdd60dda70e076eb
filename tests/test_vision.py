"""VISION rules on the real card pool, with decks written as players write them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from deckcheck.models import Report
from tests.conftest import EXAMPLES

Check = Callable[..., Report]

# 47 cards of the legal example without its three 博麗 霊夢 lines and its sideboard
BASE = "\n".join(
    line
    for line in (EXAMPLES / "vision-standard-legal.deck")
    .read_text(encoding="utf-8")
    .split("[side]")[0]
    .splitlines()
    if "博麗 霊夢" not in line and not line.startswith("#")
)


# cards the base does not hold, one of each, that fill a sideboard to its 10 (CR §1.2.5.a)
FILL = ["N1", "N2", "N151", "N152", "N301", "N302", "N4", "N5", "N473", "N783"]


def deck(main: str, side: str = "") -> str:
    """The base plus ``main``; a sideboard of ``side``, filled to 10 when it is not empty."""
    lines = [line for line in side.splitlines() if line.strip()]
    held = sum(int(line.split()[0]) for line in lines)
    filled = [*lines, *(f"1 {n}" for n in FILL[: 10 - held])] if lines else []
    return f"{BASE}\n{main}\n[side]\n" + "\n".join(filled) + "\n"


def rules(report: Report) -> dict[str, str]:
    return {v.rule: v.severity for v in report.violations}


def test_the_real_examples(check: Check) -> None:
    legal = check((EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8"))
    assert legal.legal and legal.violations == [] and legal.counts == {"main": 50, "side": 10}
    illegal = check((EXAMPLES / "vision-standard-illegal.deck").read_text(encoding="utf-8"))
    assert rules(illegal) == {
        "vision/copies": "error",
        "vision/deck-limit": "error",
        "vision/side-size": "error",
        "vision/spell-break": "warning",
    }


def test_printings_of_one_name_count_together_across_deck_and_sideboard(check: Check) -> None:
    report = check(deck("2 N317\n1 PR.049", "1 PR.133"))  # three printings, 4 博麗 霊夢
    assert rules(report) == {"vision/copies": "error"}
    (v,) = report.violations
    assert v.message.startswith("4 copies of 博麗 霊夢")
    assert {c.number for c in v.cards} == {"N317", "PR.049", "PR.133"}


@pytest.mark.parametrize(
    ("main", "expected"),
    [
        # one keyword printing and two without: the keyword limits only its own printing
        ("1 PR.008\n2 N317", {}),
        ("1 pr.008\n1 N317\n1 P49", {}),
        # two copies of the keyword printing: only the deck limit is broken (3 in all is fine)
        ("2 PR.008\n1 N317", {"vision/deck-limit": "error"}),
        # two different printings that both carry the keyword share the one allowed copy
        ("1 PR.008\n1 PR.190\n1 N317", {"vision/deck-limit": "error"}),
        # 4 of the name (one in the sideboard), one with the keyword: only the copy limit
        ("1 PR.008\n2 N317|1 PR.049", {"vision/copies": "error"}),
    ],
)
def test_deck_limit_on_some_printings_only(
    check: Check, main: str, expected: dict[str, str]
) -> None:
    assert rules(check(deck(*main.split("|")))) == expected


def test_ichi_in_the_deck_with_its_ni_in_the_sideboard_is_legal(check: Check) -> None:
    report = check(deck("1 PR.008\n2 符ノ壱“博麗 霊夢”", "1 符ノ弐“博麗 霊夢”"))
    assert report.legal and report.violations == []


def test_a_ni_in_the_main_deck_is_a_warning_that_says_why(check: Check) -> None:
    report = check(deck("2 N317\n1 N187"))
    assert report.legal and rules(report) == {"vision/spell-break": "warning"}
    (v,) = report.violations
    assert "spell break" in v.message and "sideboard" in v.message
    assert v.section == "main" and v.cards[0].number == "N187"
    assert "「弐符」" in v.source and "キーワード用語集" in v.source


def test_a_ni_in_the_sideboard_without_its_ichi_is_a_warning(check: Check) -> None:
    report = check(deck("3 N317", "1 符ノ弐“博麗 霊夢”\n1 符ノ弐“紅 美鈴”"))
    assert rules(report) == {"vision/spell-break": "warning"}
    assert "符ノ弐“紅 美鈴”" in report.violations[0].message
    fine = check(deck("2 N317\n1 符ノ壱“博麗 霊夢”", "1 符ノ弐“博麗 霊夢”"))
    assert fine.violations == []


def test_a_name_whose_printings_differ_is_ambiguous_and_lists_the_numbers(check: Check) -> None:
    report = check(deck("3 博麗 霊夢"))
    (v,) = [v for v in report.violations if v.rule == "deck/ambiguous-card"]
    for number in ("N31", "N317", "PR.008", "PR.190", "PR.200"):
        assert number in v.message and number in (v.fix or "")
    assert v.section == "main" and v.line is not None


def test_same_name_overrides_still_replace_the_copy_limit(check: Check) -> None:
    """ChaosTCG's append-word limits keep their meaning (「同一のカード名のカードは合わせて」)."""
    from deckcheck.checks.copies import LimitOverride

    o = LimitOverride.model_validate(
        {"match": {"keyword": "x"}, "limit": 1, "rule": "r", "source": "s"}
    )
    assert o.counts == "same-name"
