"""The hand of the compiled VISION loop (fast_core.py): a draw (one Fisher–Yates step of the
deck, goldfish/shuffles.py), the keep rule (``Keep.meets``), removing a card in hand order.
Compiled with ``_nrt=False`` for the reason fast_board.py gives: none allocates or keeps an
array."""

from __future__ import annotations

from deckcheck.sdk import batch_below as below
from deckcheck.sdk import njit


@njit(_nrt=False)
def _draw(deck, left, rand):  # type: ignore[no-untyped-def]
    """A uniform card of deck[:left], moved to deck[left - 1]: the Fisher–Yates step of
    position left - 1 (shuffles.shuffle's)."""
    j = below(left, rand)
    card = deck[j]
    deck[j] = deck[left - 1]
    deck[left - 1] = card
    return card


@njit(_nrt=False)
def _meets(hand, held, sig, bound_bit, bound_k, subset_mask, subset_need):  # type: ignore[no-untyped-def]
    """Keep.meets: the bounds, then Hall's condition on every subset of the demands."""
    for b in range(bound_bit.shape[0]):
        n = 0
        for i in range(held):
            n += (sig[hand[i]] >> bound_bit[b]) & 1
        if n > bound_k[b]:
            return False
    for s in range(subset_mask.shape[0]):
        n = 0
        for i in range(held):
            if sig[hand[i]] & subset_mask[s]:
                n += 1
        if n < subset_need[s]:
            return False
    return True


@njit(_nrt=False)
def _remove(hand, held, i):  # type: ignore[no-untyped-def]
    for k in range(i, held - 1):
        hand[k] = hand[k + 1]
    return held - 1
