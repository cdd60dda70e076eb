"""The check-table registry: one list for the schema, the validator and ``formats show``, open
to check tables registered from outside deckcheck (here: a toy one registered by the test)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from pydantic import ValidationError
from rich.console import Console

from deckcheck import decklist
from deckcheck.checks import (
    Check,
    CheckTable,
    Row,
    check_tables,
    register_table,
    unregister_table,
)
from deckcheck.cli import show
from deckcheck.formats import Format
from deckcheck.formats.registry import FormatRegistry
from deckcheck.models import Violation
from deckcheck.resolve import CardIndex
from deckcheck.slots import Context, card_counts, first_line, format_facts, total
from deckcheck.validate import validate


class BannedWord(Check):
    """Toy rule: no card whose name contains ``word``."""

    word: str


def _banned_words(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    for rule in TOY.of(ctx.fmt):
        hit = [s for s in ctx.in_sections(("main",)) if rule.word in s.card.name]
        if hit:
            out.append(
                Violation(
                    rule=rule.rule,
                    severity=rule.severity,
                    message=f"{total(hit)} cards named with {rule.word}",
                    cards=card_counts(hit),
                    line=first_line(hit),
                    source=rule.source,
                )
            )
    return out


def _describe(rule: BannedWord) -> Iterable[Row]:
    yield Row(rule.rule, f"no card named with {rule.word}", rule.source)


TOY = CheckTable(
    name="toy_banned_words",
    model=BannedWord,
    check=_banned_words,
    describe=_describe,
    order=900,
)


@pytest.fixture
def toy() -> Iterator[CheckTable[BannedWord]]:
    register_table(TOY)
    yield TOY
    unregister_table(TOY.name)


def toy_format(**extra: Any) -> dict[str, Any]:
    return {
        "id": "toy",
        "game": "chaos",
        "name": "toy format",
        "sources": ["test"],
        "sections": [
            {
                "name": "main",
                "size": {"min": 0, "max": 60, "rule": "toy/size", "source": "test"},
                "types": {
                    "allowed": ["chara", "partner", "set", "event"],
                    "rule": "toy/types",
                    "source": "test",
                },
            }
        ],
        "copies": {"key": "name", "limit": 4, "rule": "toy/copies", "source": "test"},
        **extra,
    }


def test_builtin_check_tables_in_order() -> None:
    names = [t.name for t in check_tables("chaos")]
    assert names[:3] == ["sections", "copies", "limit_overrides"]
    assert names.index("partner") < names.index("os_policy") < names.index("opening_checks")
    assert names[-1] == "restrictions"
    # a game's own check tables are its formats' only: deckcheck's alone, and another game's
    assert {"partner", "os_policy"}.isdisjoint(t.name for t in check_tables())
    assert {"partner", "os_policy"}.isdisjoint(t.name for t in check_tables("rakuen"))
    assert "spell_break" in [t.name for t in check_tables("vision")]


def test_a_check_table_registered_from_outside_checks_decks(
    toy: CheckTable[BannedWord], index: CardIndex
) -> None:
    raw = toy_format(
        toy_banned_words=[{"word": "キャラ 0", "rule": "toy/banned-word", "source": "test"}]
    )
    fmt = Format.model_validate(raw)
    assert [t.word for t in fmt.tables("toy_banned_words")] == ["キャラ 0"]
    assert "toy/banned-word" in [c.rule for c in fmt.checks()]
    deck = decklist.parse("[main]\n2 SAMPLE-C-001\n3 SAMPLE-C-011\n", "toy.deck")
    report = validate(deck, fmt, index)
    (v,) = [v for v in report.violations if v.rule == "toy/banned-word"]
    assert v.message == "2 cards named with キャラ 0" and v.line == 2
    assert not report.legal

    console = Console(width=200, record=True)
    show.format_detail(console, fmt)
    assert "no card named with キャラ 0" in console.export_text()


def test_a_format_without_the_table_does_not_run_it(
    toy: CheckTable[BannedWord], index: CardIndex
) -> None:
    fmt = Format.model_validate(toy_format())
    validate(decklist.parse("[main]\n1 SAMPLE-C-001\n", "t.deck"), fmt, index)
    assert _banned_words not in (format_facts(fmt).checks or ())


def test_a_registered_table_is_validated_under_its_key(toy: CheckTable[BannedWord]) -> None:
    raw = toy_format(toy_banned_words=[{"rule": "r", "source": "s"}])
    with pytest.raises(ValidationError) as caught:
        Format.model_validate(raw)
    assert ("toy_banned_words", 0, "word") in [e["loc"] for e in caught.value.errors()]


def test_an_unregistered_key_is_still_refused() -> None:
    with pytest.raises(ValidationError, match="toy_banned_words"):
        Format.model_validate(toy_format(toy_banned_words=[]))


def test_a_check_table_name_is_registered_once(toy: CheckTable[BannedWord]) -> None:
    assert register_table(TOY) is TOY  # the same one again: nothing happens
    twin = CheckTable(
        name=TOY.name, model=BannedWord, check=_banned_words, describe=_describe, order=1
    )
    with pytest.raises(ValueError, match="already registered"):
        register_table(twin)


def test_a_gate_without_a_gate_number_is_an_error(registry: FormatRegistry) -> None:
    """ラクエンロジック ルールブック Ver1.0 ch.1 §4 門デッキ構築のルール 3: 「門は門ナンバーを持っ
    ています」. Six copies of a gate whose data lacks its number used to pass unchecked."""
    from deckcheck.models import Card
    from deckcheck.resolve import CardIndex
    from deckcheck.validate import validate

    gates = [
        Card(game="rakuen", number=f"T-G{i}", name=f"門{i}", type="gate", gate_number=i)
        for i in range(1, 3)
    ]
    blank = Card(game="rakuen", number="T-GX", name="門X", type="gate")
    index = CardIndex([*gates, blank])
    fmt = registry.get("rakuen-standard")
    deck = decklist.parse("[gate]\n2 T-G1\n2 T-G2\n6 T-GX\n", "g.deck")
    found = [v for v in validate(deck, fmt, index).violations if v.rule == "rakuen/gate-number"]
    assert len(found) == 1 and "6 cards have no gate number; every gate card has one" in found[0].message
    assert "so the limit of 2 per gate number cannot be checked" in found[0].message
    assert [c.number for c in found[0].cards] == ["T-GX"]


def test_pure_message_counts_one_card(check) -> None:  # type: ignore[no-untyped-def]
    report = check("format: chaos-standard\n4 SAMPLE-C-B01\n1 SAMPLE-C-001\n")
    pure = [v for v in report.violations if v.rule == "chaos/beta-pure"]
    assert pure and "1 card does not" in pure[0].message


@pytest.mark.parametrize(("fmt_id", "legal"), [("iris-standard", True), ("iris-unit-command", False)])
def test_iris_shurui_reading_is_a_format_option(
    registry: FormatRegistry, fmt_id: str, legal: bool
) -> None:
    """詳しい遊び方 2. デッキのルール 「同じ名前かつ同じ種類のカードはデッキに4枚まで」: iris-standard
    reads 種類 as unit / 戦略 / 戦術 / 強化, iris-unit-command as ユニット / コマンド."""
    from deckcheck.models import Card
    from deckcheck.resolve import CardIndex
    from deckcheck.validate import validate

    cards = [
        Card(game="iris", number="T-S", name="見本 同名", type="strategy"),
        Card(game="iris", number="T-T", name="見本 同名", type="tactic"),
        Card(game="iris", number="T-U", name="見本 ユニット", type="unit"),
    ]
    deck = decklist.parse("4 T-S\n1 T-T\n4 T-U\n", "t.deck")
    report = validate(deck, registry.get(fmt_id), CardIndex(cards))
    copies = [v for v in report.violations if v.rule == "iris/copies"]
    assert (copies == []) is legal
    if not legal:
        assert "5 copies of 見本 同名" in copies[0].message
