"""あいりすミスティリア! TCG (詳しい遊び方): card types, the pilot and the goldfish engines."""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.games.iris import playtest, words
from deckcheck.sdk import (
    N_,
    PLUGIN_API,
    Aside,
    Card,
    CardColumn,
    Cards,
    Construction,
    Deal,
    Format,
    GameSpec,
    Param,
    Play,
    Policy,
    Search,
    Words,
    deck_out,
    lazy,
)

# the goldfish engine's per-turn metrics and milestones (engine.py); their ids are the words
# people read (goldfish/output.py shows each through the catalogue)
METRICS = (N_("hand"), N_("units"), N_("standby"), N_("charges"), N_("commands"), N_("deck"))
MILESTONES = (N_("standby_full"),)


class IrisPolicy(Policy):
    """The iris pilot: the common keys plus its switches."""

    charge: bool = True
    retreat: bool = False  # nothing attacks in a goldfish, so no reason to retreat
    use_commands: bool = True  # strategies, tactics, enhancements


def main_unit(hand: Sequence[Card], fmt: Format) -> list[Aside[Card]]:
    """詳しい遊び方 対戦の準備: a unit of the hand goes face down to the main area (a sample hand
    shows its first card that ends the forced redraw, the format's ``forced_redraw``)."""
    selector = fmt.parameter("forced_redraw")
    if selector is None:
        return []
    from deckcheck.sdk import parse_condition

    ends = parse_condition(f"{selector.value}>=1", fmt.game)
    unit = next((c for c in hand if ends.matches(c)), None)
    if unit is None:
        return []
    rule = "あいりすミスティリア! TCG 詳しい遊び方 対戦の準備"
    return [Aside("main_unit", N_("main unit"), (unit,), rule, in_hand=True)]


IRIS = (  # the entry point of pyproject.toml
    GameSpec(
        id="iris",
        list_rank=4,  # where lists show it: outside the rulebooks (deckcheck's own order)
        plugin_api=PLUGIN_API,
        words=Words(name="あいりすミスティリア! TCG", words=words.words),
        cards=Cards(
            # 詳しい遊び方 §1 カードの種類
            card_types={
                "unit": ("ユニット", "ユニットカード"),
                "strategy": ("戦略", "ストラテジー"),
                "tactic": ("戦術", "タクティクス"),
                "enhancement": ("強化", "エンハンス"),
            },
            search_fields=("cost",),
            # the printed cost (詳しい遊び方 §1 カードの種類); chosen as the curve: deckcheck's
            # reading
            curve=("cost",),
            # 詳しい遊び方 §1: a unit's HP
            columns=(
                CardColumn(
                    "hp", "int", N_("a unit's HP"), Search("min"), label=N_("HP"), summary=True
                ),
            ),
        ),
        construction=Construction(
            params={
                "standby_slots": Param(
                    int,
                    4,
                    N_("goldfish: standby slots for units (an assumption: Q&A Q2)"),
                    label=N_("standby areas"),
                ),
            },
        ),
        deal=Deal(
            from_hand=main_unit,
            setup_notes=(
                N_(
                    "after each forced redraw (no unit in hand) the opponent may draw 1 card, so "
                    "the "
                    "other player's hand changes (あいりすミスティリア! TCG 詳しい遊び方 "
                    "対戦の準備 ④ "
                    "※)"
                ),
            ),
        ),
        play=Play(
            playtest=playtest.playtest,  # the builder's playtester: zones and turn steps
            policy=IrisPolicy,
            default_policy=IrisPolicy(
                name=N_("iris default"), keep=(), play_first=("hp>=4", "type:unit")
            ),
            play=lazy("deckcheck.games.iris.engine:play"),
            play_batch=lazy("deckcheck.games.iris.fast:play_batch"),
            play_tape=lazy("deckcheck.games.iris.fast:play_tape"),
            metrics=METRICS,
            milestones=MILESTONES,
            losses=(
                deck_out(
                    N_("あいりすミスティリア! TCG 詳しい遊び方 ターンの流れ (no card to draw)")
                ),
            ),
        ),
    )
)
