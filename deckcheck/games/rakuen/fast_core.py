"""The compiled half of ``fast``: one ラクエンロジック goldfish game after another, in numba.

Cards are indices into per-card arrays (``fast.Encoded``); zones are int32 arrays with a
count in the state vector ``s`` (the top of the deck, the stock and each ordered list is its
end, as in ``engine.py``). Every rule and pilot choice follows ``engine.play`` step by step,
with the pilot's sort keys precomputed as integer orders; a loss is a status code instead of
``DeckOut`` (1 + index in ``goldfish.run.LOSSES``).
"""

from __future__ import annotations

import numba
import numpy as np

# s[...]: the counts and scalars of one game
NDECK, NHAND, NSTOCK, NDROP, NLEVEL, NFIELD = 0, 1, 2, 3, 4, 5
CIRCLES, BIG, REFRESHES, PENALTIES, PENDING, LEVELMASK = 6, 7, 8, 9, 10, 11
STATE = 12
# c[...]: the card arrays' rows (fast.Encoded.cards)
MEMBER, KIND, LEVEL, COST, TERR, PLAY, LA_RANK, NUM = 0, 1, 2, 3, 4, 5, 6, 7
THEORIST, ENVOY, GOURITAI = 1, 2, 3
DECK_OUT, PENALTY = 1, 2
PENALTY_LOSS = 2


@numba.njit(cache=True)
def _shuffle(a, n):
    for i in range(n - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        a[i], a[j] = a[j], a[i]


@numba.njit(cache=True)
def _refresh(deck, drop, s):
    if s[NDROP] == 0:
        return False
    n = s[NDROP]
    deck[:n] = drop[:n]
    s[NDECK] = n
    s[NDROP] = 0
    _shuffle(deck, n)
    s[REFRESHES] += 1
    s[PENDING] += 1
    return True


@numba.njit(cache=True)
def _top(deck, drop, s):
    """The top card, refreshing before and at once after; -1: deck-out."""
    if s[NDECK] == 0 and not _refresh(deck, drop, s):
        return -1
    s[NDECK] -= 1
    card = deck[s[NDECK]]
    if s[NDECK] == 0 and not _refresh(deck, drop, s):
        return -1
    return card


@numba.njit(cache=True)
def _settle(deck, drop, s):
    while s[PENDING]:
        s[PENDING] -= 1
        s[PENALTIES] += 1
        if s[PENALTIES] >= PENALTY_LOSS:
            return PENALTY
        if _top(deck, drop, s) < 0:
            return DECK_OUT
    return 0


@numba.njit(cache=True)
def _draw(n, deck, drop, hand, s):
    for _ in range(n):
        card = _top(deck, drop, s)
        if card < 0:
            return DECK_OUT
        hand[s[NHAND]] = card
        s[NHAND] += 1
    return _settle(deck, drop, s)


@numba.njit(cache=True)
def _remove(a, n, card):
    """Remove the first ``card`` of a[:n], keeping the order; returns the new count."""
    i = 0
    while a[i] != card:
        i += 1
    for j in range(i, n - 1):
        a[j] = a[j + 1]
    return n - 1


@numba.njit(cache=True)
def _conditions(card, c, cmask, s):
    if not c[MEMBER, card] or c[LEVEL, card] > s[NLEVEL] or c[COST, card] > s[NSTOCK]:
        return False
    return c[KIND, card] != GOURITAI or (cmask[card] & s[LEVELMASK]) != 0


@numba.njit(cache=True)
def _fits(t, freed, freed_big, s, circles, blocks):
    return (
        s[CIRCLES] - freed + t <= circles and s[BIG] - freed_big + (1 if t == 4 else 0) <= blocks
    )


@numba.njit(cache=True)
def _room(card, leave_a, leave_b, over, c, field, s, circles, blocks, victims, order):
    """Table.room: how many members (their field slots into ``victims``) to drop so ``card``
    fits once the slots ``leave_a``/``leave_b`` (-1: none) left; -1 when it cannot fit."""
    freed = 0
    freed_big = 0
    for slot in (leave_a, leave_b):
        if slot >= 0:
            t = c[TERR, field[slot]]
            freed += t
            freed_big += 1 if t == 4 else 0
    t_card = c[TERR, card]
    if _fits(t_card, freed, freed_big, s, circles, blocks):
        return 0
    if not over:
        return -1
    n = s[NFIELD]
    for i in range(n):  # a stable insertion sort by (level, -territory), as sorted() does
        order[i] = i
        j = i
        while j > 0:
            a, b = field[order[j - 1]], field[order[j]]
            if (c[LEVEL, a], -c[TERR, a]) <= (c[LEVEL, b], -c[TERR, b]):
                break
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    count = 0
    level = c[LEVEL, card]
    for i in range(n):
        slot = order[i]
        other = field[slot]
        if slot == leave_a or slot == leave_b or c[LEVEL, other] >= level:
            continue
        t = c[TERR, other]
        if t_card == 4 and s[BIG] - freed_big >= blocks and t != 4:
            continue
        victims[count] = slot
        count += 1
        freed += t
        freed_big += 1 if t == 4 else 0
        if _fits(t_card, freed, freed_big, s, circles, blocks):
            return count
    return -1


@numba.njit(cache=True)
def _deploy(card, gone, ngone, pair_a, pair_b, soul, nsoul, c, stock, drop, field, souls, nsouls, s):
    """Pay the cost from the top of the stock; the field slots ``gone`` go to the drop zone
    with their soul and the 合体 pair's slots leave (their cards are already in ``soul``);
    place ``card`` with ``soul``."""
    for _ in range(c[COST, card]):
        s[NSTOCK] -= 1
        drop[s[NDROP]] = stock[s[NSTOCK]]
        s[NDROP] += 1
    if pair_a >= 0:
        gone[ngone] = pair_a
        gone[ngone + 1] = pair_b
        ngone += 2
    for i in range(ngone):  # leave in descending slot order: the others keep their order
        for j in range(ngone - 1 - i):
            if gone[j] < gone[j + 1]:
                gone[j], gone[j + 1] = gone[j + 1], gone[j]
    for i in range(ngone):
        slot = gone[i]
        member = field[slot]
        t = c[TERR, member]
        s[CIRCLES] -= t
        s[BIG] -= 1 if t == 4 else 0
        if slot != pair_a and slot != pair_b:
            drop[s[NDROP]] = member
            s[NDROP] += 1
            for k in range(nsouls[slot]):
                drop[s[NDROP]] = souls[slot, k]
                s[NDROP] += 1
        for j in range(slot, s[NFIELD] - 1):
            field[j] = field[j + 1]
            nsouls[j] = nsouls[j + 1]
            souls[j, :] = souls[j + 1, :]
        s[NFIELD] -= 1
    n = s[NFIELD]
    field[n] = card
    nsouls[n] = nsoul
    souls[n, :nsoul] = soul[:nsoul]
    t = c[TERR, card]
    s[CIRCLES] += t
    s[BIG] += 1 if t == 4 else 0
    s[NFIELD] += 1
