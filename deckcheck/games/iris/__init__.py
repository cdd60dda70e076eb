"""あいりすミスティリア! TCG (詳しい遊び方): card types, the pilot and the goldfish engines."""

from __future__ import annotations

from deckcheck.games.columns_contract import CardColumn, Search
from deckcheck.games.registry import GameSpec, Param, _register_builtin, lazy
from deckcheck.goldfish.policy import Policy

# the goldfish engine's per-turn metrics and milestones (engine.py)
METRICS = ("hand", "units", "standby", "charges", "commands", "deck")
MILESTONES = ("standby_full",)


class IrisPolicy(Policy):
    """The iris pilot: the common keys plus its switches."""

    charge: bool = True
    retreat: bool = False  # nothing attacks in a goldfish, so no reason to retreat
    use_commands: bool = True  # strategies, tactics, enhancements


IRIS = _register_builtin(
    GameSpec(
        id="iris",
        name="あいりすミスティリア! TCG",
        # 詳しい遊び方 §1 カードの種類
        card_types={
            "unit": ("ユニット", "ユニットカード"),
            "strategy": ("戦略", "ストラテジー"),
            "tactic": ("戦術", "タクティクス"),
            "enhancement": ("強化", "エンハンス"),
        },
        params={
            "standby_slots": Param(
                int, 4, "goldfish: standby slots for units (an assumption: Q&A Q2)"
            ),
        },
        policy=IrisPolicy,
        default_policy=IrisPolicy(name="iris default", keep=(), play_first=("hp>=4", "type:unit")),
        play=lazy("deckcheck.games.iris.engine:play"),
        play_batch=lazy("deckcheck.games.iris.fast:play_batch"),
        metrics=METRICS,
        milestones=MILESTONES,
        setup_notes=(
            "after each forced redraw (no unit in hand) the opponent may draw 1 card, so the "
            "other player's hand changes (あいりすミスティリア! TCG 詳しい遊び方 対戦の準備 ④ ※)",
        ),
        search_fields=("cost",),
        # 詳しい遊び方 §1: a unit's HP
        columns=(
            CardColumn("hp", "int", "a unit's HP", Search("min"), label="HP", summary=True),
        ),
    )
)
