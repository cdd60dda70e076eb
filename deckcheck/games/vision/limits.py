"""The VISION reference engine's play limits: the format's parameters and the pilot's, read
once per game (engine.py; encode.py gives the batch engine the same ones)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from deckcheck.games.vision.cards import Facts, facts
from deckcheck.sdk import Card, Setup

if TYPE_CHECKING:
    from deckcheck.games.vision import VisionPolicy


@dataclass(frozen=True)
class Limits:
    """The format's play parameters and the pilot's, as one engine run reads them."""

    node_per_turn: int
    node_until: int | None  # None: no limit ("all")
    characters: int
    dolls: int
    leaders: int
    life: int
    hand_limit: int
    ready_nodes: bool  # node_ready = "maintenance"
    free_first: bool
    charge: str  # VisionPolicy.mana_charge
    first_attack: bool  # the format's first_turn_attack
    field_commands: bool  # VisionPolicy.field_commands
    upkeep_nodes: bool  # node_until by default: the nodes 維持コスト takes come on top


def limits(setup: Setup, deck: Sequence[Card]) -> Limits:
    pol = cast("VisionPolicy", setup.policy)
    rules = setup.rules
    per_turn = rules.param_int("node_per_turn") if "node_per_turn" in rules.params else None
    until: int | None
    if pol.node_until == "all":
        until = None
    elif pol.node_until is None:  # the deck's highest 必要ノード
        until = max((facts(c).node for c in deck if not facts(c).never), default=0)
    else:
        until = pol.node_until
    return Limits(
        node_per_turn=pol.node_per_turn if per_turn is None else per_turn,
        node_until=until,
        characters=rules.param_int("characters_per_turn"),
        dolls=rules.param_int("dolls_per_turn"),
        leaders=rules.param_int("leaders"),
        life=rules.param_int("life"),
        hand_limit=rules.param_int("hand_limit"),
        ready_nodes=str(rules.params["node_ready"]) == "maintenance",
        free_first=pol.free_first,
        charge=pol.mana_charge,
        first_attack=rules.param_bool("first_turn_attack"),
        field_commands=pol.field_commands,
        upkeep_nodes=pol.node_until is None,
    )


def charges(lim: Limits, nodes: int, until: int | None) -> bool:
    """Whether the pilot uses a character's マナチャージ now, with ``nodes`` in play and the
    pilot's node target ``until`` this turn (None: no limit)."""
    if lim.charge == "nodes":
        return until is None or nodes < until
    return lim.charge == "always"


def slot_free(f: Facts, characters: int, dolls: int, lim: Limits) -> bool:
    """Whether a character may be played on the turn's slots: 奇襲 always, 人形 on its own."""
    if f.role != "character" or f.surprise:
        return True
    return dolls < lim.dolls if f.doll else characters < lim.characters
