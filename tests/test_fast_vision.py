"""The VISION batch engine (games/vision/fast.py) on its production random numbers (numba's
generator) against the reference engine (engine.py) on its own (``random.Random``): streams
that cannot be shared, so the same distribution on every metric and turn (means and
percentiles), the same mulligans and milestones. Game by game, on one tape, the engines are
held equal in tests/test_exact_vision.py, on the decks, pilots and rule sets here too."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from deckcheck import decklist, plugins
from deckcheck.formats.registry import FormatRegistry
from deckcheck.goldfish.policy import Policy, default_policy, policy_from_keys
from deckcheck.goldfish.run import Chunk, GoldfishRequest, goldfish, prepare
from deckcheck.goldfish.setup import Setup
from deckcheck.models import DeckList
from deckcheck.odds.mulligan import COMMON as MULLIGANS
from deckcheck.resolve import CardIndex
from tests.agreement import chunks_agree, production_chunks
from tests.conftest import EXAMPLES

GAMES = 6000  # as strict as this many games of each engine (production_chunks)


def example() -> DeckList:
    text = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    return decklist.parse(text, "legal.deck")


# real cards with what the example does not have: 速攻, ラストワード (one a 幻想生物 with 速攻),
# 【リーダー】, 幻想生物, 装備 spells, commands that add +N, a 弐符 card, 0-attack characters
FEATURES = """format: vision-standard
[main]
4 N6      # リグル・ナイトバグ, 速攻
4 N1341   # ラストワード, 術者 リグル・ナイトバグ
3 N12     # ミスティア・ローレライ
3 N1342   # ラストワード 幻想生物 速攻, 術者 ミスティア・ローレライ
3 PR.200  # 博麗 霊夢, リーダー
3 PR.201  # 秦 こころ, リーダー
4 N49     # 幻想生物
3 N80     # 吸血: command +1
3 N86     # 楼観剣: command 装備 +2
3 N146    # 草薙剣: command +3
3 N69     # 神槍「スピア・ザ・グングニル」: spell 装備 +7
2 N187    # 符ノ弐“博麗 霊夢”: 弐符
3 N1121   # 妖精メイド
3 N1027   # 稗田 阿求: attack 0
3 N1031   # 森近 霖之助
3 N62     # 夢符「封魔陣」: 呪符
"""


# real cards for the comprehensive-rules play: spells free through their 術者 (霧雨 魔理沙),
# 世界呪符 and a 幻想生物 with 維持コスト, 奇襲, 人形, マナチャージ, ターン1枚制限, 装備 spells and
# commands, 呪符, and cards only the opponent's turn plays
RULES_DECK = """format: vision-standard
[main]
3 N1131   # 霧雨 魔理沙: マナチャージ(1)
3 N64     # 恋符「マスタースパーク」, 術者 霧雨 魔理沙
3 N207    # 光撃「シュート・ザ・ムーン」, 術者 霧雨 魔理沙
3 N1163   # 彗星「ブレイジングスター」, 術者 霧雨 魔理沙
3 N109    # 霧符「ガシングガーデン」: 世界呪符, 維持コスト 2
3 N55     # 彩符「彩光乱舞」: 世界呪符, 維持コスト 2
3 N6      # リグル・ナイトバグ: 奇襲 速攻
3 N1      # 上海人形: 人形
3 N2      # 蓬莱人形: 人形
3 N15     # サニーミルク: マナチャージ(1)
3 N1167   # 響符「パワーレゾナンス」: ターン1枚制限
3 N102    # 弦奏「グァルネリ・デル・ジェス」: 装備
2 N69     # 神槍「スピア・ザ・グングニル」: 装備 +7
3 N854    # 月の都: 相手ターン制限
3 N66     # 木符「シルフィホルン」: 幻想生物, 維持コスト 1
3 N86     # 楼観剣: command 装備 +2
2 N3      # 大妖精
1 N62     # 夢符「封魔陣」: 呪符
"""


def setup_of(
    index: CardIndex, registry: FormatRegistry, policy: Policy, text: str | None = None
) -> Setup:
    deck = decklist.parse(text, "features.deck") if text else example()
    return prepare(deck, registry.get("vision-standard"), index, policy)


def with_rules(setup: Setup, **changes: Any) -> Setup:
    """The set-up with other rules: ``params`` entries are merged into the format's."""
    params = {**setup.rules.params, **changes.pop("params", {})}
    return dataclasses.replace(
        setup, rules=dataclasses.replace(setup.rules, params=params, **changes)
    )


def assert_agree(fast: Chunk, slow: Chunk) -> None:
    chunks_agree(fast, slow)
    assert (fast.loss == fast.loss[0]).all() and (slow.loss == fast.loss[0]).all()


POLICIES: list[dict[str, Any]] = [
    {},  # the default pilot
    {  # two nodes a turn up to four, a keep rule that mulligans often, play_first changed
        "node_per_turn": 2,
        "node_until": 4,
        "keep": ["type:character>=3", "type:command<=1"],
        "play_first": ["type:spell", "node>=2"],
        "node_first": ["type:command"],
    },
    {"mulligan": False, "node_per_turn": 1, "node_until": 6, "keep": ["type:spell>=1"]},
    {"node_until": "all", "free_first": False},
]


RULES: list[dict[str, Any]] = [
    {},
    {  # a mulligan, a draw on the first turn, two draws, more characters, a lower life
        "mulligan": MULLIGANS["return-all-once"],
        "first_player_draws": True,
        "draw_per_turn": 2,
        "params": {"characters_per_turn": 2, "life": 12, "leaders": 2, "node_per_turn": 1},
    },
    {  # the fan reading of nodes, a smaller hand, two dolls a turn
        "params": {"node_ready": "never", "hand_limit": 5, "dolls_per_turn": 2},
    },
]


# (deck, pilot, rules): each pilot, each rule set and each deck at least twice, not every mix
CASES = [
    (None, 0, 0),
    (None, 1, 1),
    (None, 2, 0),
    (None, 0, 1),
    (FEATURES, 0, 0),
    (FEATURES, 0, 1),
    (FEATURES, 1, 0),
    (FEATURES, 2, 1),
    (RULES_DECK, 0, 0),
    (RULES_DECK, 3, 0),
    (RULES_DECK, 0, 2),
    (RULES_DECK, 3, 2),
    (RULES_DECK, 1, 1),
]


@pytest.mark.parametrize(("text", "pilot", "rule_set"), [CASES[1], CASES[8]])
def test_production_streams_agree_with_the_reference(
    index: CardIndex,
    registry: FormatRegistry,
    text: str | None,
    pilot: int,
    rule_set: int,
) -> None:
    keys, rules = POLICIES[pilot], RULES[rule_set]
    policy = policy_from_keys("vision", keys, "test") if keys else default_policy("vision")
    setup = with_rules(setup_of(index, registry, policy, text), **dict(rules))
    on_play = not rules or rule_set == 2
    spec = plugins.get("vision")
    assert spec.play.batch_ok is not None and spec.play.batch_ok(setup)
    fast, slow = production_chunks(setup, GAMES, 10, on_play)
    assert fast.metrics.dtype == np.int16  # the batch engine ran
    assert_agree(fast, slow)
    if keys.get("keep") and keys.get("mulligan", True) and rules:
        assert fast.mulligans.mean() > 0.05  # the keep rule was exercised


def test_same_seed_same_result_with_one_or_two_workers(
    index: CardIndex, registry: FormatRegistry
) -> None:
    fmt = registry.get("vision-standard")
    policy = default_policy("vision")
    setup = setup_of(index, registry, policy)
    results = [
        goldfish(
            example(),
            fmt,
            index,
            policy,
            GoldfishRequest(games=30_000, turns=10, seed=7, workers=workers),
            setup=setup,
        )
        for workers in (1, 2, 1)
    ]
    assert all(r.engine == "batch" for r in results)
    dumps = [(r.summary, r.per_turn, r.milestones) for r in results]
    assert dumps[0] == dumps[1] == dumps[2]
    other = goldfish(
        example(), fmt, index, policy, GoldfishRequest(games=30_000, turns=10, seed=8), setup=setup
    )
    assert (other.per_turn, other.milestones) != dumps[0][1:]


def test_a_union_deck_plays_on_the_batch_engine(index: CardIndex, registry: FormatRegistry) -> None:
    """連結 (Union) cards are played by the batch engine too (tests/test_exact_vision.py holds
    it to the reference game by game on such a deck); before, a deck with one fell back to
    the reference engine."""
    text = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    text = text.replace("[side]", "1 N405  # 大結界「博麗弾幕結界」: 【連結(…)】\n[side]")
    deck = decklist.parse(text, "union.deck")
    fmt = registry.get("vision-standard")
    policy = default_policy("vision")
    setup = prepare(deck, fmt, index, policy)
    spec = plugins.get("vision")
    assert spec.play.batch_ok is not None and spec.play.batch_ok(setup)
    result = goldfish(deck, fmt, index, policy, GoldfishRequest(games=50, turns=6), setup=setup)
    assert result.engine == "batch"


def test_validating_never_imports_numba_or_numpy(tmp_path: Path) -> None:
    deck = EXAMPLES / "vision-standard-legal.deck"
    code = (
        "import sys; from typer.testing import CliRunner; from deckcheck.cli import app; "
        f"r = CliRunner().invoke(app, ['validate', {str(deck)!r}, '--db', "
        f"{str(tmp_path / 'p.sqlite3')!r}]); assert r.exit_code == 0, r.output; "
        "from deckcheck.games.vision import encode; "  # batch_ok's module: NumPy, not numba
        "assert 'numba' not in sys.modules, 'numba imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    code = code.replace("from deckcheck.games.vision import encode; ", "").replace(
        "'numba' not in sys.modules", "'numba' not in sys.modules and 'numpy' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
