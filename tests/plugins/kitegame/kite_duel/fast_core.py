"""The compiled half of Kite Duel's batch engine: every game's shuffle, with the SDK's random
source (numba's numbers, or a tape in the conformance suite)."""

from __future__ import annotations

import numpy as np

from deckcheck.sdk import batch_begin, batch_shuffle, njit


@njit()
def deal(codes, games, seed, tape):  # type: ignore[no-untyped-def]
    """Each game's deck after its shuffle, the top at the end (the reference's order)."""
    np.random.seed(seed)
    rand = (tape, np.zeros(3, dtype=np.int64))
    n = codes.shape[0]
    decks = np.empty((games, n), dtype=codes.dtype)
    for g in range(games):
        batch_begin(g, rand)
        decks[g, :] = codes
        batch_shuffle(decks[g], n, rand)
    return decks
