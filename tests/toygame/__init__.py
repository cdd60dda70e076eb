"""A toy fifth game, registered from outside deckcheck: proof that a game is one module plus
data. Rules (deckcheck's test fixture, not a real game): 20-card deck, 3 copies, 4-card hand,
draw 1 a turn, one creature a turn costing at most the turn number. Each card has an element
(a column of the toy game's own, with a search filter); the default pilot plays fire first."""

from __future__ import annotations

import random

from deckcheck import games
from deckcheck.games import GameSpec, Param
from deckcheck.games.columns_contract import CardColumn, Search
from deckcheck.goldfish.common import DeckOut, Record, expand, keep_of, redeal, shuffled, take
from deckcheck.goldfish.policy import Compiled, Policy
from deckcheck.goldfish.setup import Setup

METRICS = ("hand", "creatures", "deck")
MILESTONES = ("first_creature",)


class ToyPolicy(Policy):
    play_spells: bool = True


def play(setup: Setup, policy: Compiled, rng: random.Random, turns: int, on_play: bool) -> Record:
    rules = setup.rules
    deck = shuffled(expand(setup.drawable), rng)
    record = Record(milestones=[0])
    hand = [deck.pop() for _ in range(rules.hand)]
    if policy.policy.mulligan and not keep_of(policy).meets(hand):
        hand = redeal(deck, hand, rules.hand, rng)
        record.mulligans = 1
    creatures = 0
    for turn in range(1, turns + 1):
        try:
            for _ in range(rules.draw_per_turn):
                if not deck:
                    raise DeckOut("deck-out")
                hand.append(deck.pop())
            ready = [c for c in hand if c.type == "creature" and (c.cost or 0) <= turn]
            if ready and creatures < rules.param_int("board"):
                take(hand, min(ready, key=lambda c: policy.rank(c, policy.play_first)))
                creatures += 1
                record.milestones[0] = record.milestones[0] or turn
        except DeckOut as out:
            record.loss, record.loss_turn = out.reason, turn
            break
        record.metrics.append((len(hand), creatures, len(deck)))
    return record


TOY = GameSpec(
    id="toy",
    name="Toy game",
    card_types={"creature": ("クリーチャー",), "spell": ("呪文",)},
    section_aliases={"sideline": "side"},
    params={"board": Param(int, 3, "goldfish: creatures in play at most")},
    policy=ToyPolicy,
    default_policy=ToyPolicy(
        name="toy default", keep=("type:creature>=1",), play_first=("element:火",)
    ),
    play=play,
    metrics=METRICS,
    milestones=MILESTONES,
    columns=(
        CardColumn(
            "element", "text", "the card's element (火 水 森 闇)", Search("exact"), summary=True
        ),
    ),
)


def register() -> GameSpec:
    return games.register(TOY, replace=True)
