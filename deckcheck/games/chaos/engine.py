"""ChaosTCG goldfish (総合ルール 2016-05-17): no opponent, card text not executed.

Setup (§6.2): the partner card is the partner (else the policy's ``partner``, else the chara
with most copies that may be partner); the other 49 are shuffled; 5 cards; the once-only full
mulligan. Turn (§7): stand, draw 1 (an empty deck at this draw loses, §1.2), one normal friend
play into 4 friend areas (§5.7, §7.4), one level-up of the partner with a same-name card from
hand (§7.4, §10.3; [BETA] cannot level up, §13), one extra chara from the extra deck when its
``extra_cost`` (names or traits joined by ``&``, §4.2, §10.1) is met by charas in the arena and
no extra of that name is there, set cards onto charas, the partner's attack draw in every battle
phase that allows an attack (§8.3), hand limit 7 at the end (§7.6). Partner levels stop at 3 (the
levels a partner card prints); level-up costs are not modelled (card text).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from deckcheck.games.chaos import MILESTONES
from deckcheck.goldfish.common import DeckOut, Record, expand, keep_of, redeal, shuffled, take
from deckcheck.goldfish.policy import Compiled
from deckcheck.goldfish.setup import Setup
from deckcheck.models import Card
from deckcheck.normalize import name_key, word_key

if TYPE_CHECKING:
    from deckcheck.games.chaos import ChaosPolicy


def _key(name: str) -> str:
    return name_key("chaos", name)


MAX_LEVEL = 3  # the levels a partner card prints


def play(setup: Setup, policy: Compiled, rng: random.Random, turns: int, on_play: bool) -> Record:
    pol = cast("ChaosPolicy", policy.policy)
    rules = setup.rules
    friend_areas = rules.param_int("friend_areas")
    hand_limit = rules.param_int("hand_limit")
    (partner,) = setup.aside  # chosen once by the partner rule (partner.py)
    deck = shuffled(expand(setup.drawable), rng)  # top of the deck = end of the list
    record = Record(milestones=[0] * len(MILESTONES))
    hand = [deck.pop() for _ in range(rules.hand)]
    keep = keep_of(policy)
    if pol.mulligan and not keep.meets(hand):
        hand = redeal(deck, hand, rules.hand, rng)
        record.mulligans = 1
    partner_key = _key(partner.name)
    can_level = "beta" not in {word_key(a) for a in partner.append}
    level, sets = 1, 0
    friends: list[Card] = []
    extras_in_play: list[str] = []
    extra_deck = [
        c for c in expand(setup.section("extra")) if c.extra_cost
    ]  # without a cost: never played
    arena_names = [partner_key]
    for turn in range(1, turns + 1):
        try:
            if not deck:
                raise DeckOut("deck-out")
            hand.append(deck.pop())
            # level-up: once a turn, a same-name card from hand under the partner
            if can_level and level < MAX_LEVEL:
                same = next((c for c in hand if _key(c.name) == partner_key), None)
                if same is not None:
                    take(hand, same)
                    level += 1
                    for lv, index in ((2, 0), (3, 1)):
                        if level >= lv and not record.milestones[index]:
                            record.milestones[index] = turn
            # one normal friend play into a free friend area
            if len(friends) < friend_areas:
                charas = [
                    c
                    for c in hand
                    if c.type == "chara" and (level >= MAX_LEVEL or _key(c.name) != partner_key)
                ]
                if charas:
                    best = min(charas, key=lambda c: policy.rank(c, policy.play_first))
                    take(hand, best)
                    friends.append(best)
                    arena_names.append(_key(best.name))
            # one extra chara a turn, when the arena meets its extra cost
            if pol.play_extras and extra_deck:
                for card in extra_deck:
                    key = _key(card.name)
                    if key in extras_in_play:
                        continue
                    parts = [_key(p) for p in (card.extra_cost or "").split("&")]
                    if all(any(p and p in n for n in arena_names) for p in parts):
                        take(extra_deck, card)
                        extras_in_play.append(key)
                        arena_names.append(key)
                        if not record.milestones[2]:
                            record.milestones[2] = turn
                        break
            if pol.play_sets:
                for card in [c for c in hand if c.type == "set"]:
                    take(hand, card)
                    sets += 1
            # battle: the partner attacks (not on the first player's first turn) and draws
            attack = not (turn == 1 and on_play and not rules.first_turn_attack)
            if pol.attack_draw and attack and deck:
                hand.append(deck.pop())
            # end: discard down to the hand limit, events first, then the least wanted
            if len(hand) > hand_limit:
                hand.sort(key=lambda c: (c.type != "event", *policy.rank(c, policy.play_first)))
                del hand[hand_limit:]
        except DeckOut as out:
            record.loss, record.loss_turn = out.reason, turn
            break
        record.metrics.append(
            (len(hand), level, len(friends), len(extras_in_play), sets, len(deck))
        )
    return record
