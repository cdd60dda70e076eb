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
from collections.abc import Sequence

from deckcheck.errors import UnanswerableError
from deckcheck.goldfish.common import (
    DeckOut,
    Record,
    expand,
    keep_of,
    redeal,
    shuffled,
    take,
)
from deckcheck.goldfish.policy import Compiled
from deckcheck.models import Card, Game
from deckcheck.normalize import name_key, word_key
from deckcheck.odds.setup import Rules
from deckcheck.resolve import number_key

METRICS = ("hand", "partner_level", "friends", "extra_charas", "sets", "deck")
MILESTONES = ("partner_level_2", "partner_level_3", "first_extra_chara")
FRIEND_AREAS = 4
MAX_LEVEL = 3
HAND_LIMIT = 7


class SetupError(UnanswerableError, ValueError):
    """The deck cannot start a game (no partner possible)."""


def _may_partner(card: Card) -> bool:
    return (
        card.type in ("chara", "partner")
        and "パートナーにできない" not in {word_key(k) for k in card.keywords}
        and "はるかさん" not in {word_key(a) for a in card.append}
    )


def choose_partner(main: Sequence[tuple[Card, int]], choice: str | None) -> Card:
    partners = [c for c, _ in main if c.type == "partner"]
    if partners:
        return partners[0]  # §6.2: a deck's partner card must be the partner
    if choice is not None:
        for card, _ in main:
            same = number_key(card.number) == number_key(choice) or (
                name_key(Game.CHAOS, card.name) == name_key(Game.CHAOS, choice)
            )
            if same and _may_partner(card):
                return card
        raise SetupError(f"policy partner {choice!r} is not a chara of the main deck")
    candidates = [(n, c) for c, n in main if _may_partner(c)]
    if not candidates:
        raise SetupError("no card of the main deck may be partner")
    return max(candidates, key=lambda nc: (nc[0], nc[1].power or 0, nc[1].number))[1]


def play(
    main: Sequence[tuple[Card, int]],
    extra: Sequence[tuple[Card, int]],
    rules: Rules,
    policy: Compiled,
    rng: random.Random,
    turns: int,
    on_play: bool,
) -> Record:
    pol = policy.policy
    partner = choose_partner(main, pol.partner)
    pile = expand(main)
    take(pile, partner)
    deck = shuffled(pile, rng)  # top of the deck = end of the list
    record = Record(milestones=[0] * len(MILESTONES))
    hand = [deck.pop() for _ in range(rules.hand)]
    keep = keep_of(policy)
    if pol.mulligan and not keep.meets(hand):
        hand = redeal(deck, hand, rules.hand, rng)
        record.mulligans = 1
    partner_key = name_key(Game.CHAOS, partner.name)
    can_level = "beta" not in {word_key(a) for a in partner.append}
    level, sets = 1, 0
    friends: list[Card] = []
    extras_in_play: list[str] = []
    extra_deck = [c for c in expand(extra) if c.extra_cost]  # without a cost: never played
    arena_names = [partner_key]
    for turn in range(1, turns + 1):
        try:
            if not deck:
                raise DeckOut("deck-out")
            hand.append(deck.pop())
            # level-up: once a turn, a same-name card from hand under the partner
            if can_level and level < MAX_LEVEL:
                same = next((c for c in hand if name_key(Game.CHAOS, c.name) == partner_key), None)
                if same is not None:
                    take(hand, same)
                    level += 1
                    for lv, index in ((2, 0), (3, 1)):
                        if level >= lv and not record.milestones[index]:
                            record.milestones[index] = turn
            # one normal friend play into a free friend area
            if len(friends) < FRIEND_AREAS:
                charas = [
                    c
                    for c in hand
                    if c.type == "chara"
                    and (level >= MAX_LEVEL or name_key(Game.CHAOS, c.name) != partner_key)
                ]
                if charas:
                    best = min(charas, key=lambda c: policy.rank(c, policy.play_first))
                    take(hand, best)
                    friends.append(best)
                    arena_names.append(name_key(Game.CHAOS, best.name))
            # one extra chara a turn, when the arena meets its extra cost
            if pol.play_extras and extra_deck:
                for card in extra_deck:
                    key = name_key(Game.CHAOS, card.name)
                    if key in extras_in_play:
                        continue
                    parts = [name_key(Game.CHAOS, p) for p in (card.extra_cost or "").split("&")]
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
            if len(hand) > HAND_LIMIT:
                hand.sort(key=lambda c: (c.type != "event", *policy.rank(c, policy.play_first)))
                del hand[HAND_LIMIT:]
        except DeckOut as out:
            record.loss, record.loss_turn = out.reason, turn
            break
        record.metrics.append(
            (len(hand), level, len(friends), len(extras_in_play), sets, len(deck))
        )
    return record
