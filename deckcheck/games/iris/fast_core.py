"""The compiled half of the あいりすミスティリア! batch engine (fast.py): the deal of every game
of a chunk, as ``engine.play`` deals it, with goldfish/shuffles.py's shuffle (numba's numbers,
or a tape in the exact tests). The cache of the compiled function is keyed on this module and
the modules it imports (goldfish/compiling.py), so it imports only those."""

from __future__ import annotations

import numpy as np

from deckcheck.sdk import batch_begin as begin
from deckcheck.sdk import batch_shuffle as shuffle
from deckcheck.sdk import njit


@njit()
def deal(codes, unit, hand, games, seed, tape, most):  # type: ignore[no-untyped-def]
    """(decks, redraws): each game's deck after the deal, top at the end, and how many times
    its hand was redrawn. ``codes`` is the deck in the set-up's order (a code per card);
    the hand is the top ``hand`` cards; while it holds no card of code ``unit``, it goes back
    on top in the order drawn and the deck is shuffled again (``common.redeal``), at most
    ``most`` times."""
    np.random.seed(seed)
    rand = (tape, np.zeros(3, dtype=np.int64))
    n = codes.shape[0]
    decks = np.empty((games, n), dtype=codes.dtype)
    redraws = np.zeros(games, dtype=np.int32)
    for g in range(games):
        begin(g, rand)
        deck = decks[g]
        for i in range(n):  # loops, not slice copies: numba compiles a shape check and its
            deck[i] = codes[i]  # message for each (half the compile time, issue 35)
        shuffle(deck, n, rand)
        while redraws[g] < most:
            found = False
            for i in range(n - hand, n):
                found = found or deck[i] == unit
            if found:
                break
            for i in range(hand // 2):  # drawn top first, back in that order: the top reversed
                deck[n - hand + i], deck[n - 1 - i] = deck[n - 1 - i], deck[n - hand + i]
            shuffle(deck, n, rand)
            redraws[g] += 1
    return decks, redraws
