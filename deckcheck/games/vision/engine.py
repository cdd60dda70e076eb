"""東方 Phantom Magic VISION goldfish. The seed is a keyword glossary only: the draw rule, the
opening hand, the mulligan and the node rule come from the format file and are assumptions
(printed with every result). A node is a card from hand set face down (``node_per_turn`` a
turn, non-characters first); a character costs at most the nodes in play; one character play
a turn. Card text is not executed."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from deckcheck.games.vision import MILESTONES
from deckcheck.goldfish.common import DeckOut, Record, expand, keep_of, redeal, shuffled, take
from deckcheck.goldfish.policy import Compiled
from deckcheck.goldfish.setup import Setup

if TYPE_CHECKING:
    from deckcheck.games.vision import VisionPolicy


def play(setup: Setup, policy: Compiled, rng: random.Random, turns: int, on_play: bool) -> Record:
    pol = cast("VisionPolicy", policy.policy)
    rules = setup.rules
    node_per_turn = (
        rules.param_int("node_per_turn") if "node_per_turn" in rules.params else (pol.node_per_turn)
    )
    deck = shuffled(expand(setup.drawable), rng)
    record = Record(milestones=[0] * len(MILESTONES))
    hand = [deck.pop() for _ in range(min(rules.hand, len(deck)))]
    keep = keep_of(policy)
    if pol.mulligan and rules.mulligan == "return-all-once" and not keep.meets(hand):
        hand = redeal(deck, hand, rules.hand, rng)
        record.mulligans = 1
    life = rules.param_int("life")
    nodes = characters = damage = 0
    attackers: list[int] = []  # the attack of each character in play
    for turn in range(1, turns + 1):
        try:
            if not (turn == 1 and on_play and not rules.first_player_draws):
                for _ in range(rules.draw_per_turn):
                    if not deck:
                        raise DeckOut("deck-out")
                    hand.append(deck.pop())
            for _ in range(node_per_turn):
                if not hand:
                    break
                node = max(
                    hand, key=lambda c: (c.type != "character", *policy.rank(c, policy.play_first))
                )
                take(hand, node)
                nodes += 1
            # battle: characters that began the turn in play attack an empty board (none on the
            # first player's first turn); their attack is the card's power (0 when not given)
            if attackers and not (turn == 1 and on_play):
                damage += sum(attackers)
                if damage >= life and not record.milestones[1]:
                    record.milestones[1] = turn
            ready = [c for c in hand if c.type == "character" and (c.cost or 0) <= nodes]
            if ready:
                card = min(ready, key=lambda c: policy.rank(c, policy.play_first))
                take(hand, card)
                characters += 1
                attackers.append(card.power or 0)
                if not record.milestones[0]:
                    record.milestones[0] = turn
        except DeckOut as out:
            record.loss, record.loss_turn = out.reason, turn
            break
        record.metrics.append((len(hand), characters, nodes, damage, len(deck)))
    return record
