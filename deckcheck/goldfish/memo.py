"""Memoised reads of a card, for the reference engines' hot loops (no numpy here: the
validator reads cards through them too, and never imports the engines' numbers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from deckcheck.models import Card

T = TypeVar("T")


def per_card(read: Callable[[Card], T]) -> Callable[[Card], T]:
    """``read`` (which never returns None) worked out once per card: a reference engine asks
    it of the same card objects (a set-up's) millions of times. One look-up by identity; the
    cards are held, so no other object takes a memoised id; bounded, as a service sees
    endless cards."""
    memo: dict[int, T] = {}
    held: list[Card] = []

    def get(card: Card) -> T:
        hit = memo.get(id(card))
        if hit is not None:
            return hit
        if len(memo) > 50_000:
            memo.clear()
            held.clear()
        found = memo[id(card)] = read(card)
        held.append(card)
        return found

    return get
