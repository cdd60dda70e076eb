"""The deck of the compiled rakuen loop (fast_core.py): the state vector ``s`` of a game, and
the zones' moves: the top card, the refresh the moment the deck runs out, the penalties that
follow the action (engine.Table's ``_top``, ``refresh``, ``settle``, ``draw``), paying stock."""

from __future__ import annotations

import numpy as np

from deckcheck.sdk import batch_shuffle as shuffle
from deckcheck.sdk import njit

# s[...]: the counts and scalars of one game
NDECK, NHAND, NSTOCK, NDROP, NLEVEL, NFIELD = 0, 1, 2, 3, 4, 5
CIRCLES, BIG, REFRESHES, PENALTIES, PENDING, LEVELMASK = 6, 7, 8, 9, 10, 11
STATE = 12
DECK_OUT, PENALTY = 1, 2
PENALTY_LOSS = 2


@njit(inline="always")
def _refresh(deck, drop, s, rand):  # type: ignore[no-untyped-def]
    if s[NDROP] == 0:
        return False
    n = s[NDROP]
    for i in range(n):  # a loop, not a slice copy: that compiles a shape check per inlined copy
        deck[i] = drop[i]
    s[NDECK], s[NDROP] = n, 0
    shuffle(deck, n, rand)
    s[REFRESHES] += 1
    s[PENDING] += 1
    return True


@njit(inline="always")
def _top(deck, drop, s, rand):  # type: ignore[no-untyped-def]
    """The top card, refreshing before and at once after; -1: deck-out."""
    if s[NDECK] == 0 and not _refresh(deck, drop, s, rand):
        return -1
    s[NDECK] -= 1
    card = deck[s[NDECK]]
    if s[NDECK] == 0 and not _refresh(deck, drop, s, rand):
        return -1
    return card


@njit(_nrt=False)
def _settle(deck, drop, s, rand):  # type: ignore[no-untyped-def]
    while s[PENDING]:
        s[PENDING] -= 1
        s[PENALTIES] += 1
        if s[PENALTIES] >= PENALTY_LOSS:
            return PENALTY
        if _top(deck, drop, s, rand) < 0:
            return DECK_OUT
    return 0


@njit(inline="always")
def _draw(n, deck, drop, into, s, count, rand):  # type: ignore[no-untyped-def]
    """n cards from the top into ``into`` (the hand, or the stock, its count ``s[count]``),
    then the penalties."""
    # int64 values, not literals: numba compiles a callee again for each literal argument
    return _draw_n(np.int64(n), deck, drop, into, s, np.int64(count), rand)


@njit(_nrt=False)
def _draw_n(n, deck, drop, into, s, count, rand):  # type: ignore[no-untyped-def]
    for _ in range(n):
        card = _top(deck, drop, s, rand)
        if card < 0:
            return DECK_OUT
        into[s[count]] = card
        s[count] += 1
    return _settle(deck, drop, s, rand)


@njit(inline="always")
def _remove(a, n, card):  # type: ignore[no-untyped-def]
    """Remove the first ``card`` of a[:n], keeping the order; returns the new count."""
    i = 0
    while a[i] != card:
        i += 1
    for j in range(i, n - 1):
        a[j] = a[j + 1]
    return n - 1


@njit(inline="always")
def _pay(n, stock, drop, s):  # type: ignore[no-untyped-def]
    """Stock cards, from the top, to the drop zone."""
    for _ in range(n):
        s[NSTOCK] -= 1
        drop[s[NDROP]] = stock[s[NSTOCK]]
        s[NDROP] += 1
