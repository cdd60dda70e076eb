"""The hand of the compiled ChaosTCG loop (fast_core.py, fast_extra.py): a card taken out in
hand order, and the keep rule (``Keep.meets``)."""

from __future__ import annotations

from typing import Any

from deckcheck.sdk import njit


@njit()
def _remove(hand: Any, nh: int, at: int) -> int:
    for i in range(at, nh - 1):
        hand[i] = hand[i + 1]
    return nh - 1


@njit()
def _remove_card(hand: Any, nh: int, card: int) -> int:
    """``common.take``: the first copy of ``card``."""
    for i in range(nh):
        if hand[i] == card:
            return int(_remove(hand, nh, i))
    return nh


@njit()
def _keeps(hand: Any, nh: int, sig: Any, bounds: Any, hall: Any) -> bool:
    """``Keep.meets``: the bounds, then Hall's condition over the demanding conditions."""
    for b in range(bounds.shape[0]):
        count = 0
        for i in range(nh):
            if sig[hand[i]] & bounds[b, 0] != 0:
                count += 1
        if count > bounds[b, 1]:
            return False
    for h in range(hall.shape[0]):
        count = 0
        for i in range(nh):
            if sig[hand[i]] & hall[h, 0] != 0:
                count += 1
        if count < hall[h, 1]:
            return False
    return True
