"""The ChaosTCG batch engine (games/chaos/fast.py) on its production random numbers (numba's
generator) against the reference engine (engine.py) on its own (``random.Random``): streams
that cannot be shared, so the same distribution (means and percentiles of every metric on
every turn, the mulligans, the milestones, the losses). Game by game, on one tape, the engines
are held equal in tests/test_exact_chaos.py, on the decks built here too. Seeds and workers;
what the batch engine leaves to the reference; validate never imports numba."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deckcheck import decklist
from deckcheck.formats.registry import FormatRegistry
from deckcheck.games.chaos import encode
from deckcheck.goldfish.policy import default_policy
from deckcheck.goldfish.run import GoldfishRequest, goldfish, prepare
from deckcheck.goldfish.setup import Setup
from deckcheck.models import Card
from deckcheck.odds.setup import rules_of
from deckcheck.resolve import CardIndex
from tests.agreement import chunks_agree, production_chunks
from tests.conftest import EXAMPLES

GAMES = 6_000  # as strict as this many games of each engine (production_chunks)
SOLRAL = "ソルラルチャージ"


def _agree(setup: Setup, turns: int = 10) -> None:
    assert encode.batch_ok(setup)
    fast, slow = production_chunks(setup, GAMES, turns)
    chunks_agree(fast, slow)
    # deck-out depends only on how many cards are drawn, the same in every game
    for name in ("loss", "loss_turn"):
        a, b = getattr(fast, name), getattr(slow, name)
        assert (a == a[0]).all() and (b == a[0]).all(), name


def _example(
    index: CardIndex, registry: FormatRegistry, fmt_id: str, **changes: Any
) -> tuple[Setup, Any, Any]:
    fmt = registry.get(fmt_id)
    parsed = decklist.parse((EXAMPLES / f"{fmt_id}-legal.deck").read_text(encoding="utf-8"))
    policy = default_policy("chaos").model_copy(update=changes)
    return prepare(parsed, fmt, index, policy), parsed, fmt


POLICIES: list[dict[str, Any]] = [
    {},
    {"play_sets": False, "attack_draw": False},
    {"keep": ("power>=6>=2", "type:set<=0"), "play_extras": True},  # mulligans and a bound
    {"solral_charge": True},
]


@pytest.mark.parametrize("changes", [POLICIES[0], POLICIES[2]], ids=["default", "keep"])
def test_production_streams_agree_with_the_reference(
    index: CardIndex, registry: FormatRegistry, changes: dict[str, Any]
) -> None:
    setup, _, _ = _example(index, registry, "chaos-standard", **changes)
    _agree(setup)


def card(number: str, name: str, type_: str = "chara", **more: object) -> Card:
    return Card(game="chaos", number=number, name=name, type=type_, **more)  # type: ignore[arg-type]


def _named_setup(
    registry: FormatRegistry, partner_append: tuple[str, ...] = (), **changes: Any
) -> Setup:
    """A deck of ネーム (「…」), name clashes, [TST ゲージ] on 神前美月, level-ups, extra charas
    paid from hand and arena, a [ソルラルチャージ] of the partner's ネーム, and events."""
    partner = card("TP", "“先輩”「神前 美月」", "partner", append=partner_append)
    main = [
        (card("T01", "“先輩”「神前 美月」"), 3),  # level-ups
        (card("T02", "“助手”「紅莉栖」", power=6), 4),
        (card("T03", "“所長”「岡部」", power=5), 4),
        (card("T04", "“白衣”「岡部」", power=4), 3),  # clashes with T03
        (card("T05", "“後輩”「神前美月」", power=3), 3),  # clashes with the partner
        (card("T06", "見本キャラ A", power=9), 4),  # no ネーム
        (card("T07", "見本キャラ B", power=2), 4),
        (card("T08", "「ダル」と「まゆり」", power=3), 3),
        (card("T09", "「春香」", append=("はるかさん",)), 2),  # no ネーム (§13)
        (card("T10", "「未来ガジェット」", "set"), 3),
        (card("T11", "道具", "set"), 3),
        (card("T12", "ゲージ", "set", append=("TST ゲージ",)), 4),
        (card("T13", "「紅莉栖」のメモ", "set"), 2),
        (card("T14", "「岡部」のメモ", "set"), 2),  # on A or B, keeps X1 from covering it
        (card("T15", "イベント", "event"), 5),
    ]
    extra = [
        (card("X1", "“覚醒”「岡部」", "extra", extra_cost="見本キャラ A&見本キャラ B"), 2),
        (card("X2", "見本エクストラ 2", "extra", extra_cost="紅莉栖&岡部&岡部"), 2),
        (card("X3", "“覚醒”「神前美月」", "extra", append=("ソルラルチャージ",)), 1),
        (card("X4", "見本エクストラ 4", "extra", extra_cost="見本キャラ b"), 1),
    ]
    policy = default_policy("chaos").model_copy(update=changes)
    rules = rules_of(registry.get("chaos-standard"))
    sections = {"main": [(partner, 1), *main], "extra": extra}
    return Setup("chaos", sections, rules, policy, main, (partner,))


def test_production_streams_agree_on_a_deck_that_runs_out(registry: FormatRegistry) -> None:
    _agree(_named_setup(registry, solral_charge=True, keep=("type:set>=1",)), turns=25)


def _hand_limit_setup(registry: FormatRegistry, **changes: Any) -> Setup:
    """A deck for the rules of ChaosTCG 総合ルール (2016-05-17) §7.6 (the hand limit: events
    go first), §10.3 (a level-up takes a chara card), §13 [アラガミ] (never enters) and
    [ソルラルチャージ] (enters only by its own rule; the partner it covers draws, §5.7, §8.3):
    many events, so the hand goes over 7; set and event cards of the partner's card name; an
    [アラガミ] chara and extra card whose costs are met; a [ソルラルチャージ] with a cost."""
    partner = card("OP", "“所長”「岡部」", "partner")
    main = [
        (card("O01", "“所長”「岡部」"), 3),  # level-ups
        (card("O02", "“所長”「岡部」", "set"), 3),  # the partner's card name, not charas
        (card("O03", "“所長”「岡部」", "event"), 2),
        (card("O04", "“弱”「岡部」", power=1), 4),  # clash with the partner: held in hand
        (card("O05", "見本キャラ A", power=9), 4),
        (card("O06", "見本キャラ B", power=2), 4),
        (card("O07", "“助手”「紅莉栖」", power=5), 4),
        (card("O08", "見本アラガミ キャラ", append=("アラガミ",), power=9), 1),
        (card("O09", "イベント", "event"), 24),
    ]
    extra = [
        (card("OX1", "見本アラガミ", "extra", append=("アラガミ",), extra_cost="見本キャラ A"), 1),
        (card("OX2", "“覚醒”「岡部」", "extra", append=(SOLRAL,)), 1),
        (card("OX3", "“覚醒”「まゆり」", "extra", append=(SOLRAL,), extra_cost="見本キャラ B"), 1),
        (card("OX4", "見本エクストラ", "extra", extra_cost="見本キャラ A&見本キャラ B"), 2),
    ]
    policy = default_policy("chaos").model_copy(update=changes)
    rules = rules_of(registry.get("chaos-standard"))
    sections = {"main": [(partner, 1), *main], "extra": extra}
    return Setup("chaos", sections, rules, policy, main, (partner,))


def test_through_goldfish_same_seed_any_workers(index: CardIndex, registry: FormatRegistry) -> None:
    setup, parsed, fmt = _example(index, registry, "chaos-standard")
    policy = setup.policy
    one = goldfish(parsed, fmt, index, policy, GoldfishRequest(games=60_000, seed=7), setup=setup)
    two = goldfish(
        parsed, fmt, index, policy, GoldfishRequest(games=60_000, seed=7, workers=2), setup=setup
    )
    assert one.engine == two.engine == "batch"
    assert one.model_dump() == two.model_dump()
    other = goldfish(parsed, fmt, index, policy, GoldfishRequest(games=60_000, seed=8), setup=setup)
    assert other.per_turn != one.per_turn


def test_what_the_batch_engine_does_not_play_runs_the_reference(
    index: CardIndex, registry: FormatRegistry
) -> None:
    # a keep rule of 13 demanding conditions: 8191 subsets for Hall's condition
    keep = tuple(f"type:chara>={k}" for k in range(1, 14))
    setup, parsed, fmt = _example(index, registry, "chaos-standard", keep=keep)
    assert not encode.batch_ok(setup)
    result = goldfish(parsed, fmt, index, setup.policy, GoldfishRequest(games=20), setup=setup)
    assert result.engine == "reference" and result.games == 20
    # more than 64 ネーム
    many = [(card(f"N{i}", f"「名{i}」"), 1) for i in range(70)]
    named = _named_setup(registry)
    crowded = dataclasses.replace(named, drawable=many, sections={**named.sections, "main": many})
    assert not encode.batch_ok(crowded)


def test_validate_never_imports_numba(tmp_path: Path) -> None:
    deck, db = str(EXAMPLES / "chaos-standard-legal.deck"), str(tmp_path / "p.sqlite3")
    code = (
        "import sys; from typer.testing import CliRunner; from deckcheck.cli import app; "
        f"r = CliRunner().invoke(app, ['validate', {deck!r}, '--db', {db!r}]); "
        "assert r.exit_code == 0, r.output; "
        "assert 'numba' not in sys.modules and 'numpy' not in sys.modules, r.output"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
