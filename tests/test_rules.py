"""Every rule id of shared/RULES.md (and deckcheck's own): a deck that breaks only that rule, and
its legal twin. Decks are built from the shipped sample cards."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from deckcheck.models import Report

Check = Callable[..., Report]

RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
# The ids as of the digest this suite was written against; the test below re-reads the digest
# when it is present (CI has ../shared beside the clone) so a new id cannot go untested.
KNOWN_IDS = {
    "chaos/main-size",
    "chaos/main-no-extra",
    "chaos/partner-max",
    "chaos/extra-max",
    "chaos/extra-only-extra",
    "chaos/copies",
    "chaos/partner-candidate",
    "chaos/beta-pure",
    "chaos/append-singleton",
    "chaos/neo-standard-os",
    "rakuen/main-types",
    "rakuen/main-size",
    "rakuen/copies",
    "rakuen/paradox-count",
    "rakuen/main-no-gate",
    "rakuen/gate-only",
    "rakuen/gate-size",
    "rakuen/gate-number",
    "vision/deck-limit",
    "vision/main-size",
    "vision/copies",
    "vision/side-size",
    "iris/main-size",
    "iris/copies",
    "iris/unit-min",
}


def deck(fmt: str, main: list[tuple[int, str]], **sections: list[tuple[int, str]]) -> str:
    lines = [f"format: {fmt}", "[main]", *(f"{n} {ref}" for n, ref in main)]
    for name, cards in sections.items():
        lines.append(f"[{name}]")
        lines.extend(f"{n} {ref}" for n, ref in cards)
    return "\n".join(lines) + "\n"


def swap(
    cards: list[tuple[int, str]], old: str, new: list[tuple[int, str]]
) -> list[tuple[int, str]]:
    """``cards`` with the entry for ``old`` replaced by ``new`` (empty: removed)."""
    out: list[tuple[int, str]] = []
    for n, ref in cards:
        out.extend(new if ref == old else [(n, ref)])
    assert any(ref == old for _, ref in cards), old
    return out


# --- legal bases --------------------------------------------------------------------------

CHAOS_MAIN = (
    [(1, "SAMPLE-C-P01")] + [(4, f"SAMPLE-C-{i:03}") for i in range(1, 13)] + [(1, "SAMPLE-C-S01")]
)
CHAOS_EXTRA = [(2, "SAMPLE-C-X01"), (2, "SAMPLE-C-X02"), (1, "見本ソルラル")]
RAKUEN_MAIN = [(4, f"SAMPLE-R-{i:03}") for i in range(1, 10)] + [
    (3, "SAMPLE-R-T01"),
    (3, "SAMPLE-R-T02"),
    (4, "SAMPLE-R-P01"),
    (4, "SAMPLE-R-P02"),
]
RAKUEN_GATE = [
    (2, "SAMPLE-R-G01"),
    (2, "SAMPLE-R-G02"),
    (2, "SAMPLE-R-G03"),
    (2, "SAMPLE-R-G04"),
    (1, "SAMPLE-R-G05"),
    (1, "SAMPLE-R-G06"),
]
VISION_MAIN = [(3, f"SAMPLE-V-{i:03}") for i in range(1, 13)] + [
    (3, "SAMPLE-V-S01"),
    (3, "SAMPLE-V-S02"),
    (3, "SAMPLE-V-C01"),
    (3, "SAMPLE-V-C02"),
    (1, "SAMPLE-V-L01"),
    (1, "SAMPLE-V-013"),
]
# none or exactly 10 (「Phantom Magic Vision 総合ルール」 §1.2.5.a); 見本 橙 3 with the main deck's 1
VISION_SIDE = [(2, "符ノ弐“見本 霊夢”"), (2, "SAMPLE-V-013"), (3, "SAMPLE-V-014"), (3, "SAMPLE-V-015")]
IRIS_MAIN = [(4, f"SAMPLE-I-U{i:02}") for i in range(1, 7)] + [
    (4, "SAMPLE-I-S01"),
    (4, "SAMPLE-I-S02"),
    (4, "SAMPLE-I-T01"),
    (4, "SAMPLE-I-T02"),
    (4, "SAMPLE-I-E01"),
    (4, "SAMPLE-I-E02"),
    (2, "SAMPLE-I-U07"),
]
IRIS_NO_UNIT = [
    *[(4, f"SAMPLE-I-{t}{i:02}") for t in "STE" for i in range(1, 6)][:12],
    (2, "SAMPLE-I-E05"),
]
BETA_MAIN = [(1, "SAMPLE-C-BP1"), (49, "SAMPLE-C-B01")]
NO_PARTNER = [(4, "見本キャラ 孤高"), (45, "見本はるかさん"), (1, "SAMPLE-C-S01")]


@dataclass(frozen=True)
class Case:
    rule: str
    broken: str
    twin: str
    fmt: str | None = None


CS, CN = "chaos-standard", "chaos-neo-standard"
RS, VS, IS = "rakuen-standard", "vision-standard", "iris-standard"

CASES = [
    Case(
        "chaos/main-size",
        deck(CS, swap(CHAOS_MAIN, "SAMPLE-C-S01", []), extra=CHAOS_EXTRA),
        deck(CS, CHAOS_MAIN, extra=CHAOS_EXTRA),
    ),
    Case(
        "chaos/main-no-extra",
        deck(CS, swap(CHAOS_MAIN, "SAMPLE-C-S01", [(1, "SAMPLE-C-X03")]), extra=CHAOS_EXTRA),
        deck(CS, CHAOS_MAIN, extra=[*CHAOS_EXTRA, (1, "SAMPLE-C-X03")]),
    ),
    Case(
        "chaos/partner-max",
        deck(CS, swap(CHAOS_MAIN, "SAMPLE-C-S01", [(1, "SAMPLE-C-P02")]), extra=CHAOS_EXTRA),
        deck(CS, CHAOS_MAIN, extra=CHAOS_EXTRA),
    ),
    Case(
        "chaos/extra-max",
        deck(CS, CHAOS_MAIN, extra=[(4, "SAMPLE-C-X01"), (4, "SAMPLE-C-X02"), (3, "SAMPLE-C-X03")]),
        deck(CS, CHAOS_MAIN, extra=[(4, "SAMPLE-C-X01"), (4, "SAMPLE-C-X02"), (2, "SAMPLE-C-X03")]),
    ),
    Case(
        "chaos/extra-only-extra",
        deck(
            CS,
            swap(CHAOS_MAIN, "SAMPLE-C-S01", [(1, "見本キャラ 孤高")]),
            extra=[*CHAOS_EXTRA, (1, "SAMPLE-C-S01")],
        ),
        deck(CS, swap(CHAOS_MAIN, "SAMPLE-C-S01", [(1, "見本キャラ 孤高")]), extra=CHAOS_EXTRA),
    ),
    # Five of one name, split across two printings: the reprint counts with the original.
    Case(
        "chaos/copies",
        deck(CS, swap(CHAOS_MAIN, "SAMPLE-C-S01", [(1, "SAMPLE-C-001R")]), extra=CHAOS_EXTRA),
        deck(
            CS,
            swap(CHAOS_MAIN, "SAMPLE-C-001", [(3, "SAMPLE-C-001"), (1, "SAMPLE-C-001R")]),
            extra=CHAOS_EXTRA,
        ),
    ),
    Case(
        "chaos/partner-candidate",
        deck(CS, NO_PARTNER),
        deck(CS, swap(NO_PARTNER, "見本はるかさん", [(44, "見本はるかさん"), (1, "SAMPLE-C-001")])),
    ),
    Case(
        "chaos/beta-pure",
        deck(CS, [(1, "SAMPLE-C-BP1"), (48, "SAMPLE-C-B01"), (1, "SAMPLE-C-001")]),
        deck(CS, BETA_MAIN),
    ),
    Case(
        "chaos/append-singleton",
        deck(CS, CHAOS_MAIN, extra=[(2, "SAMPLE-C-X01"), (2, "見本ソルラル"), (2, "見本アラガミ")]),
        deck(CS, CHAOS_MAIN, extra=[(2, "SAMPLE-C-X01"), (1, "見本ソルラル"), (1, "見本アラガミ")]),
    ),
    Case(
        "chaos/neo-standard-os",
        deck(CN, swap(CHAOS_MAIN, "SAMPLE-C-012", [(4, "見本アクア 01")]), extra=CHAOS_EXTRA),
        deck(CN, CHAOS_MAIN, extra=CHAOS_EXTRA),
    ),
    Case(
        "rakuen/main-types",
        deck(
            "rakuen-no-gate-rule",
            swap(RAKUEN_MAIN, "SAMPLE-R-T02", [(2, "SAMPLE-R-T02"), (1, "SAMPLE-R-G06")]),
            gate=RAKUEN_GATE,
        ),
        deck("rakuen-no-gate-rule", RAKUEN_MAIN, gate=RAKUEN_GATE),
    ),
    Case(
        "rakuen/main-size",
        deck(RS, swap(RAKUEN_MAIN, "SAMPLE-R-T02", [(2, "SAMPLE-R-T02")]), gate=RAKUEN_GATE),
        deck(RS, RAKUEN_MAIN, gate=RAKUEN_GATE),
    ),
    Case(
        "rakuen/copies",
        deck(
            RS,
            swap(
                swap(RAKUEN_MAIN, "SAMPLE-R-T02", [(2, "SAMPLE-R-T02")]),
                "SAMPLE-R-003",
                [(5, "SAMPLE-R-003")],
            ),
            gate=RAKUEN_GATE,
        ),
        deck(RS, RAKUEN_MAIN, gate=RAKUEN_GATE),
    ),
    Case(
        "rakuen/paradox-count",
        deck(
            RS,
            swap(RAKUEN_MAIN, "SAMPLE-R-T02", [(2, "SAMPLE-R-T02"), (1, "SAMPLE-R-P03")]),
            gate=RAKUEN_GATE,
        ),
        deck(RS, RAKUEN_MAIN, gate=RAKUEN_GATE),
    ),
    Case(
        "rakuen/main-no-gate",
        deck(
            RS,
            swap(RAKUEN_MAIN, "SAMPLE-R-T02", [(2, "SAMPLE-R-T02"), (1, "SAMPLE-R-G06")]),
            gate=RAKUEN_GATE,
        ),
        deck(RS, RAKUEN_MAIN, gate=RAKUEN_GATE),
    ),
    Case(
        "rakuen/gate-only",
        deck(RS, RAKUEN_MAIN, gate=swap(RAKUEN_GATE, "SAMPLE-R-G06", [(1, "SAMPLE-R-T01")])),
        deck(RS, RAKUEN_MAIN, gate=RAKUEN_GATE),
    ),
    Case(
        "rakuen/gate-size",
        deck(RS, RAKUEN_MAIN, gate=swap(RAKUEN_GATE, "SAMPLE-R-G06", [(2, "SAMPLE-R-G06")])),
        deck(RS, RAKUEN_MAIN, gate=RAKUEN_GATE),
    ),
    Case(
        "rakuen/gate-number",
        deck(RS, RAKUEN_MAIN, gate=swap(RAKUEN_GATE, "SAMPLE-R-G05", [(1, "SAMPLE-R-G07")])),
        deck(RS, RAKUEN_MAIN, gate=RAKUEN_GATE),
    ),
    Case(
        "vision/main-size",
        deck(VS, swap(VISION_MAIN, "SAMPLE-V-013", []), side=VISION_SIDE),
        deck(VS, VISION_MAIN, side=VISION_SIDE),
    ),
    # 符ノ壱“見本 霊夢” counts as 見本 霊夢; the 符ノ弐 cards of the sideboard count apart.
    Case(
        "vision/copies",
        deck(VS, swap(VISION_MAIN, "SAMPLE-V-013", [(1, "符ノ壱“見本 霊夢”")]), side=VISION_SIDE),
        deck(VS, VISION_MAIN, side=VISION_SIDE),
    ),
    Case(
        "vision/deck-limit",
        deck(VS, swap(VISION_MAIN, "SAMPLE-V-013", [(1, "SAMPLE-V-L01")]), side=VISION_SIDE),
        deck(VS, VISION_MAIN, side=VISION_SIDE),
    ),
    Case(
        "vision/side-size",
        deck(VS, VISION_MAIN, side=VISION_SIDE[:3]),
        deck(VS, VISION_MAIN, side=VISION_SIDE),
    ),
    Case(
        "iris/main-size",
        deck(IS, swap(IRIS_MAIN, "SAMPLE-I-U07", [(1, "SAMPLE-I-U07")])),
        deck(IS, IRIS_MAIN),
    ),
    # A unit and an enhancement of one name are different types: 4 of each is legal.
    Case(
        "iris/copies",
        deck(
            IS,
            swap(
                swap(IRIS_MAIN, "SAMPLE-I-U07", [(1, "SAMPLE-I-U07")]),
                "SAMPLE-I-U01",
                [(5, "SAMPLE-I-U01")],
            ),
        ),
        deck(IS, IRIS_MAIN),
    ),
    # One unit is enough to be legal (and earns the opening-hand warning).
    Case(
        "iris/unit-min",
        deck(IS, IRIS_NO_UNIT),
        deck(IS, swap(IRIS_NO_UNIT, "SAMPLE-I-E05", [(1, "SAMPLE-I-E05"), (1, "SAMPLE-I-U01")])),
    ),
    # deckcheck's own rules: deck list problems.
    Case(
        "deck/syntax",
        deck(CS, CHAOS_MAIN, extra=CHAOS_EXTRA) + "four SAMPLE-C-001\n",
        deck(CS, CHAOS_MAIN, extra=CHAOS_EXTRA),
    ),
    Case(
        "deck/unknown-card",
        deck(CS, swap(CHAOS_MAIN, "SAMPLE-C-003", [(4, "見本キャラ 3")]), extra=CHAOS_EXTRA),
        deck(CS, swap(CHAOS_MAIN, "SAMPLE-C-003", [(4, "見本キャラ 03")]), extra=CHAOS_EXTRA),
    ),
    Case(
        "deck/ambiguous-card",
        deck(CS, swap(CHAOS_MAIN, "SAMPLE-C-S01", [(1, "見本ふたご")]), extra=CHAOS_EXTRA),
        deck(CS, swap(CHAOS_MAIN, "SAMPLE-C-S01", [(1, "SAMPLE-C-AMB2")]), extra=CHAOS_EXTRA),
    ),
    Case(
        "deck/wrong-game",
        deck(CS, swap(CHAOS_MAIN, "SAMPLE-C-S01", [(1, "SAMPLE-R-T01")]), extra=CHAOS_EXTRA),
        deck(CS, CHAOS_MAIN, extra=CHAOS_EXTRA),
    ),
]


def _restriction_cases() -> list[Case]:
    """The event list bans SAMPLE-C-010, so these decks play 見本キャラ 無制限 (no copy limit)
    instead; 見本キャラ 11 is limited to 2; SAMPLE-C-X01 and 見本エクストラ 02 form a 選抜 group."""
    base = swap(CHAOS_MAIN, "SAMPLE-C-010", [(4, "見本キャラ 無制限")])
    two = swap(base, "SAMPLE-C-011", [(2, "SAMPLE-C-011")])
    two = swap(two, "見本キャラ 無制限", [(6, "見本キャラ 無制限")])
    ev = "chaos-event-test"
    return [
        Case(
            "restriction/banned",
            deck(
                ev,
                swap(two, "見本キャラ 無制限", [(5, "見本キャラ 無制限"), (1, "SAMPLE-C-010")]),
                extra=[(1, "SAMPLE-C-X01")],
            ),
            deck(ev, two, extra=[(1, "SAMPLE-C-X01")]),
        ),
        Case(
            "restriction/limited",
            deck(ev, base, extra=[(1, "SAMPLE-C-X01")]),
            deck(ev, two, extra=[(1, "SAMPLE-C-X01")]),
        ),
        Case(
            "restriction/group",
            deck(ev, two, extra=[(1, "SAMPLE-C-X01"), (1, "SAMPLE-C-X02")]),
            deck(ev, two, extra=[(1, "SAMPLE-C-X01"), (2, "SAMPLE-C-X03")]),
        ),
    ]


ALL = CASES + _restriction_cases()


def _errors(report: Report) -> list[str]:
    return [v.rule for v in report.violations if v.severity == "error"]


@pytest.mark.parametrize("case", ALL, ids=lambda c: c.rule)
def test_broken_deck_breaks_only_its_rule(case: Case, check: Check) -> None:
    report = check(case.broken, case.fmt)
    assert not report.legal
    assert set(_errors(report)) == {case.rule}, [v.message for v in report.violations]
    for v in report.violations:
        assert v.source and v.message
        if v.severity == "error":
            assert v.line is not None, v
            assert v.fix


@pytest.mark.parametrize("case", ALL, ids=lambda c: c.rule)
def test_legal_twin(case: Case, check: Check) -> None:
    report = check(case.twin, case.fmt)
    assert report.legal, [(v.rule, v.message) for v in report.violations]


def test_every_digest_rule_id_has_a_case() -> None:
    ids = set(KNOWN_IDS)
    if RULES_MD.exists():
        ids |= set(re.findall(r"`((?:chaos|rakuen|vision|iris)/[a-z-]+)`", RULES_MD.read_text()))
    covered = {c.rule for c in ALL}
    assert ids <= covered, sorted(ids - covered)
