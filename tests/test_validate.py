"""Validator behaviour beyond one-rule decks: OS groups, overrides, warnings, reporting."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from deckcheck import decklist
from deckcheck.formats.registry import FormatRegistry, default_registry
from deckcheck.models import Report
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from deckcheck.validate import validate
from tests.conftest import EXAMPLES
from tests.test_rules import CHAOS_EXTRA, CHAOS_MAIN, IRIS_NO_UNIT, VISION_MAIN, deck, swap

Check = Callable[..., Report]
CN = "chaos-neo-standard"


def rules(report: Report, severity: str = "error") -> set[str]:
    return {v.rule for v in report.violations if v.severity == severity}


@pytest.mark.parametrize(
    ("replacement", "legal"),
    [
        # OS:そらのおとしものf and OS:そらのおとしもの are one OS (appendix 特別ルール, p.37).
        ([(2, "見本そら 01"), (2, "見本そら 02")], True),
        # 戦国恋姫, 真恋姫無双 and アマカノ may be mixed in neo-standard.
        ([(2, "見本恋姫 01"), (1, "見本恋姫 02"), (1, "見本アマカノ 01")], True),
        # ... but not with そらのおとしもの.
        ([(2, "見本恋姫 01"), (2, "見本そら 01")], False),
    ],
)
def test_neo_standard_os_groups(
    check: Check, replacement: list[tuple[int, str]], legal: bool
) -> None:
    # [俺嫁] cards have every title, so they fill the deck without taking a side.
    report = check(deck(CN, [*replacement, (46, "見本俺嫁")]))
    assert ("chaos/neo-standard-os" not in rules(report)) is legal


def test_neo_standard_names_the_os_and_the_fix(check: Check) -> None:
    text = deck(CN, swap(CHAOS_MAIN, "SAMPLE-C-012", [(4, "見本アクア 01")]), extra=CHAOS_EXTRA)
    report = check(text)
    (v,) = [v for v in report.violations if v.rule == "chaos/neo-standard-os"]
    assert "OS:ニトロプラス" in v.message and "OS:アクアプラス" in v.message
    assert [c.number for c in v.cards] == ["SAMPLE-C-AQ1"]
    assert v.fix == "remove the 4 cards not of OS:ニトロプラス"
    assert any("outside the rulebooks" in a for a in report.assumptions)


def test_standard_mixes_any_os(check: Check) -> None:
    text = deck(
        "chaos-standard",
        swap(CHAOS_MAIN, "SAMPLE-C-012", [(4, "見本アクア 01")]),
        extra=CHAOS_EXTRA,
    )
    assert check(text).legal


def test_no_partner_card_is_a_warning(check: Check) -> None:
    report = check(
        deck("chaos-standard", swap(CHAOS_MAIN, "SAMPLE-C-P01", [(1, "見本キャラ 孤高")]))
    )
    assert report.legal
    assert rules(report, "warning") == {"chaos/partner-candidate"}


def test_partner_card_that_cannot_be_partner(check: Check) -> None:
    # [はるかさん] cannot be partner: a main deck of them plus a forbidden chara has no partner.
    report = check(deck("chaos-standard", [(46, "見本はるかさん"), (4, "見本キャラ 孤高")]))
    (v,) = [v for v in report.violations if v.rule == "chaos/partner-candidate"]
    assert v.severity == "error" and "cannot start" in v.message


def test_a_card_of_another_game_is_named_with_its_article(check: Check) -> None:
    """An iris card in a chaos deck: 「an iris card」, and the fix names 「an iris format」."""
    report = check(deck("chaos-standard", swap(CHAOS_MAIN, "SAMPLE-C-S01", [(1, "SAMPLE-I-U01")])))
    (v,) = [v for v in report.violations if v.rule == "deck/wrong-game"]
    assert "is an iris card" in v.message and "is a chaos format" in v.message, v.message
    assert v.fix is not None and "against an iris format" in v.fix, v.fix


@pytest.mark.parametrize(
    ("ref", "count", "legal"),
    [
        ("見本はるかさん", 9, True),  # [はるかさん]: no copy limit
        ("見本TSTセット", 9, True),  # [TST ゲージ]: no copy limit
        ("見本キャラ 無制限", 9, True),  # keyword 枚数制限なし (§6.1 permanent ability)
        ("見本キャラ 二枚制限", 2, True),  # keyword デッキ2枚制限
        ("見本キャラ 二枚制限", 3, False),
    ],
)
def test_copy_limit_overrides(check: Check, ref: str, count: int, legal: bool) -> None:
    main = [
        (n, r) for n, r in CHAOS_MAIN if r not in ("SAMPLE-C-010", "SAMPLE-C-011", "SAMPLE-C-012")
    ]
    main = [*main, (count, ref), (50 - 38 - count, "見本はるかさん")]
    report = check(deck("chaos-standard", main))
    assert report.legal is legal, [(v.rule, v.message) for v in report.violations]


def test_iris_opening_warning_gives_the_exact_chance(check: Check) -> None:
    text = deck(
        "iris-standard",
        swap(IRIS_NO_UNIT, "SAMPLE-I-E05", [(1, "SAMPLE-I-E05"), (1, "SAMPLE-I-U01")]),
    )
    report = check(text)
    (v,) = report.warnings
    assert v.rule == "iris/unit-opening"
    assert v.message.startswith("90.0% of opening hands")  # C(49,5)/C(50,5) = 45/50


def test_chaos_names_ignore_spaces_and_width(check: Check) -> None:
    main = swap(CHAOS_MAIN, "SAMPLE-C-001", [(4, "見本キャラ０１")])
    main = swap(main, "SAMPLE-C-002", [(4, "見 本 キ ャ ラ 02")])
    main = swap(main, "SAMPLE-C-003", [(4, "ｓａｍｐｌｅ-ｃ-００３")])
    assert check(deck("chaos-standard", main, extra=CHAOS_EXTRA)).legal


def test_rakuen_names_keep_spaces_apart_from_width(check: Check) -> None:
    from tests.test_rules import RAKUEN_GATE, RAKUEN_MAIN

    main = swap(RAKUEN_MAIN, "SAMPLE-R-001", [(4, "蒼の定理者　見本アリア")])  # ideographic space
    assert check(deck("rakuen-standard", main, gate=RAKUEN_GATE)).legal
    # without the space it is no name as written, but the one name it can mean (issue 31:
    # a reference that matches exactly one name once spaces are gone is that card)
    main = swap(RAKUEN_MAIN, "SAMPLE-R-001", [(4, "蒼の定理者見本アリア")])
    assert check(deck("rakuen-standard", main, gate=RAKUEN_GATE)).legal


def test_unknown_card_suggests_close_names(check: Check) -> None:
    report = check(deck("chaos-standard", swap(CHAOS_MAIN, "SAMPLE-C-003", [(4, "見本キャラ 3")])))
    (v,) = [v for v in report.violations if v.rule == "deck/unknown-card"]
    assert v.fix is not None and "'見本キャラ 03'" in v.fix
    assert v.line == 6  # format line, [main], partner, 001, 002, then the typo


def test_ambiguous_card_lists_numbers(check: Check) -> None:
    report = check(deck("chaos-standard", swap(CHAOS_MAIN, "SAMPLE-C-S01", [(1, "見本ふたご")])))
    (v,) = [v for v in report.violations if v.rule == "deck/ambiguous-card"]
    assert "SAMPLE-C-AMB1" in v.message and "SAMPLE-C-AMB2" in v.message


def test_a_section_the_format_lacks(check: Check) -> None:
    report = check(deck("chaos-standard", CHAOS_MAIN, gate=[(1, "SAMPLE-C-X01")]))
    (v,) = report.violations
    assert v.rule == "deck/syntax" and v.section == "gate" and v.line == 18


def test_vision_sideboard_over_ten_is_an_error(check: Check) -> None:
    """「Phantom Magic Vision 総合ルール」 §1.2.5.a: a sideboard in use holds exactly 10."""
    from tests.test_rules import VISION_MAIN

    side = [(3, "符ノ弐“見本 霊夢”"), (2, "見本 橙"), (3, "見本 チルノ"), (3, "見本 美鈴")]
    report = check(deck("vision-standard", VISION_MAIN, side=side))
    assert not report.legal
    assert rules(report) == {"vision/side-size"}
    assert report.counts == {"main": 50, "side": 11}


def test_illegal_example_reports_every_violation(check: Check) -> None:
    report = check((EXAMPLES / "chaos-standard-illegal.deck").read_text())
    assert rules(report) == {
        "chaos/main-size",
        "chaos/partner-max",
        "chaos/copies",
        "chaos/main-no-extra",
        "deck/unknown-card",
        "chaos/append-singleton",
        "chaos/extra-only-extra",
    }
    lines = [v.line for v in report.violations]
    assert lines == sorted(lines)


def test_report_json_shape(check: Check) -> None:
    report = check((EXAMPLES / "rakuen-standard-illegal.deck").read_text())
    data = report.model_dump(mode="json")
    assert set(data) >= {"path", "format", "game", "legal", "counts", "violations"}
    assert data["counts"] == {"main": 51, "gate": 9}
    for v in data["violations"]:
        assert set(v) >= {"rule", "severity", "message", "section", "cards", "line", "source"}


def test_a_number_and_a_name_for_one_card_add_up(check: Check) -> None:
    main = swap(CHAOS_MAIN, "SAMPLE-C-S01", [(1, "見本キャラ 01")])  # SAMPLE-C-001's name
    report = check(deck("chaos-standard", main, extra=CHAOS_EXTRA))
    (v,) = [v for v in report.violations if v.rule == "chaos/copies"]
    assert [(c.number, c.count) for c in v.cards] == [("SAMPLE-C-001", 5)]
    assert v.line == 4  # the card's first line


def test_a_section_written_twice_is_one_section(check: Check) -> None:
    main = swap(CHAOS_MAIN, "SAMPLE-C-S01", [])
    text = deck("chaos-standard", main, extra=CHAOS_EXTRA) + "[main]\n1 見本キャラ 01\n"
    report = check(text)
    assert report.counts["main"] == 50
    (v,) = [v for v in report.violations if v.rule == "chaos/copies"]
    assert [(c.number, c.count) for c in v.cards] == [("SAMPLE-C-001", 5)]


def test_the_card_index_indexes_each_game_when_first_asked(shipped_pool: Pool) -> None:
    cards = shipped_pool.all_cards()
    fresh = CardIndex(cards)
    assert fresh.resolve("chaos", "SAMPLE-C-001").card is not None
    assert fresh._indexed == {"chaos"}  # the other games wait until a reference asks
    # a rakuen number asked of chaos is found in its own game, indexed for that question
    wrong = fresh.resolve("chaos", "SAMPLE-R-001")
    assert [c.game for c in wrong.other_game] == ["rakuen"]
    copy = pickle.loads(pickle.dumps(fresh))  # as the service sends it to worker processes
    found = copy.resolve("iris", "一途な恋の誓約者 セシル").card
    assert found is not None and found.number == "RB-IRIS-001"
    assert len(copy) == len(cards)


def test_the_mixed_os_read_alike_in_every_process(shipped_pool: Pool) -> None:
    """Two OS with as many cards are named in one order, and the OS to keep is the same, in
    every process: they followed a set's order before, which varies with the process's string
    hashing (seeds 0 and 2 named アクアプラス and 戦国恋姫 second)."""
    code = (
        "from pathlib import Path;"
        "from deckcheck import decks, default_registry, CardIndex, validate;"
        "from deckcheck.pool.store import Pool;"
        f"pool = Pool({str(shipped_pool.path)!r});"
        "index = CardIndex(pool.all_cards(), names=pool.names);"
        f"deck = decks.read(Path({str(EXAMPLES / 'chaos-neo-standard-illegal.deck')!r}));"
        "report = validate(deck, default_registry().get(deck.format), index);"
        "print([(v.message, v.fix) for v in report.violations if v.rule.endswith('-os')])"
    )
    said = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True, text=True, check=True,
        ).stdout
        for seed in (0, 2)
    }  # fmt: skip
    assert len(said) == 1, said
    assert "OS:ニトロプラス (44), OS:アクアプラス (4), OS:戦国恋姫 (4)" in said.pop()


def test_an_override_matches_a_word_of_any_games_list_column(
    tmp_path: Path, index: CardIndex
) -> None:
    """A limit override selects cards by a word of a list column of its game's cards, any
    game's: VISION's sets (``package``) as an event might limit one set's cards to one copy.
    Before, only the ``append`` column of one game could be matched, and this file was refused."""
    (tmp_path / "one-set.toml").write_text(
        "id = 'one-set'\nextends = 'vision-standard'\n[[limit_overrides]]\n"
        "match = { package = 'NO1' }\nlimit = 1\nrule = 'event/one-of-no1'\n"
        "source = 'outside the rulebooks: an event list'\n",
        encoding="utf-8",
    )
    fmt = FormatRegistry([tmp_path, *default_registry().folders]).get("one-set")
    with_set = swap(VISION_MAIN, "SAMPLE-V-001", [(1, "SAMPLE-V-001"), (2, "N1")])
    report = validate(decklist.parse(deck("one-set", with_set)), fmt, index)
    (v,) = [v for v in report.violations if v.rule == "event/one-of-no1"]
    assert [(c.number, c.count) for c in v.cards] == [("N1", 2)]
    one = swap(VISION_MAIN, "SAMPLE-V-001", [(2, "SAMPLE-V-001"), (1, "N1")])
    report = validate(decklist.parse(deck("one-set", one)), fmt, index)
    assert "event/one-of-no1" not in {v.rule for v in report.violations}
