"""Closed forms the validator needs without NumPy: the single-group case of the engine."""

from __future__ import annotations

from math import comb


def chance_of_none(deck: int, hits: int, hand: int) -> float:
    """P(no hit in a ``hand``-card draw from ``deck`` cards, ``hits`` of them hits)."""
    if hand > deck:
        return 0.0
    return comb(deck - hits, hand) / comb(deck, hand)
