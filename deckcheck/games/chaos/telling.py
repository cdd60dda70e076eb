"""What the ChaosTCG reference engine tells a replay (``goldfish.trace``), in this game's words:
each step of the pilot, with why (engine.py)."""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.sdk import Card, _p, told
from deckcheck.sdk import card_names as names


def partner(card: Card) -> str:
    return _p("chaos", "partner: {card}", card=names([card]))


def level_up(card: Card, level: int) -> str:
    return _p(
        "chaos",
        "levels the partner up to {level} with {card} (a chara of its card name, once a turn)",
        level=level,
        card=names([card]),
    )


def friend(card: Card) -> str:
    return _p(
        "chaos", "plays {card} as a friend (the pilot's play_first order)", card=names([card])
    )


def extra(card: Card, paid: Sequence[Card]) -> str:
    return _p(
        "chaos",
        "plays the extra chara {card} (extra cost met; paid from hand: {paid})",
        card=names([card]),
        paid=names(paid),
    )


def sets(cards: Sequence[Card]) -> str:
    return _p("chaos", "sets {cards} on charas (one set card a chara)", cards=names(cards))


def attack(drawn: Sequence[Card]) -> str:
    if not drawn:
        return _p("chaos", "the partner attacks")
    return _p("chaos", "the partner attacks; attack draw: {card}", card=names(drawn))


def discard(cards: Sequence[Card]) -> str:
    return _p("chaos", "discards {cards} to the hand limit", cards=names(cards))


def state(
    partner: Card, level: int, friends: Sequence[Card], sets: int, hand: int, deck: int
) -> str:
    return _p(
        "chaos",
        "partner {partner} level {level}; friends: {friends}; set cards {sets}; hand {hand}, "
        "deck {deck}",
        **told(partner=partner, level=level, friends=friends, sets=sets, hand=hand, deck=deck),
    )
