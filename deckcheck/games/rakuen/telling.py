"""What the ラクエンロジック reference engine tells a replay (``goldfish.trace``), in this game's
words: each step of the pilot, with why (engine.py)."""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.sdk import Card, _p, told
from deckcheck.sdk import card_names as names


def stock(card: Card) -> str:
    return _p("rakuen", "puts the deck's top card {card} into the stock", card=names([card]))


def level(card: Card, face_up: bool) -> str:
    if face_up:
        return _p(
            "rakuen",
            "puts {card} into the level area face up (the pilot's level order)",
            card=names([card]),
        )
    return _p(
        "rakuen",
        "puts {card} into the level area face down (the first player's first turn)",
        card=names([card]),
    )


def swap(new: Card, old: Card) -> str:
    return _p(
        "rakuen",
        "swaps {new} into the level area for {old} (a new color)",
        new=names([new]),
        old=names([old]),
    )


def deploy(card: Card, area: int, over: Sequence[Card]) -> str:
    text = _p(
        "rakuen",
        "deploys {card} (level {level} of {area} in the level area; pays {cost} stock)",
        card=names([card]),
        level=card.level or 0,
        area=area,
        cost=card.cost or 0,
    )
    if over:
        text += _p("rakuen", ", over {cards}", cards=names(over))
    return text


def gattai(card: Card, soul: Sequence[Card]) -> str:
    return _p(
        "rakuen", "合体: {card} with {soul} as its soul", card=names([card]), soul=names(soul)
    )


def luck_drive(drawn: Sequence[Card]) -> str:
    return _p("rakuen", "luck drive: pays 3 stock, draws {card}", card=names(drawn))


def refresh(refreshes: int, penalties: int) -> str:
    return _p(
        "rakuen",
        "the deck ran out: the drop zone became the deck (refreshes {refreshes}, penalty cards "
        "{penalties})",
        refreshes=refreshes,
        penalties=penalties,
    )


def discard(cards: Sequence[Card]) -> str:
    return _p("rakuen", "discards {cards} to the hand limit", cards=names(cards))


def state(level: int, stock: int, field: Sequence[Card], hand: int, deck: int, drop: int) -> str:
    return _p(
        "rakuen",
        "level area {level}; stock {stock}; field: {field}; hand {hand}, deck {deck}, drop {drop}",
        **told(level=level, stock=stock, field=field, hand=hand, deck=deck, drop=drop),
    )
