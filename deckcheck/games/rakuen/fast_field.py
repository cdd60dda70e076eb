"""The field of the compiled rakuen loop (fast_core.py): the card arrays' rows, and the steps
that make room for a member and deploy it (``Table.room`` and the reference engine's deploy),
on the zones and state vector of fast_deck.py. Compiled with ``_nrt=False`` like the loop that
calls them (fast_core.py says why): ``_room`` sorts in two rows of scratch it is given rather
than allocating."""

from __future__ import annotations

from deckcheck.games.rakuen.fast_deck import BIG, CIRCLES, NDROP, NFIELD, _pay
from deckcheck.sdk import njit

# c[...]: the card arrays' rows (fast.Encoded.cards)
MEMBER, KIND, LEVEL, COST, TERR, PLAY, LA_RANK, NUM = 0, 1, 2, 3, 4, 5, 6, 7
THEORIST, ENVOY, GOURITAI = 1, 2, 3
SOUL = 2  # a 合理体's soul: the 合体 pair


@njit(inline="always")
def _fits(t, freed, freed_big, s, circles, blocks):
    return s[CIRCLES] - freed + t <= circles and s[BIG] - freed_big + (t == 4) <= blocks


@njit(_nrt=False)
def _room(card, leave_a, leave_b, over, c, field, s, circles, blocks, victims, scratch):
    """Table.room: how many members (their field slots into ``victims``) to drop so ``card``
    fits once the slots ``leave_a``/``leave_b`` (-1: none) left; -1 when it cannot fit.
    ``scratch``: two rows for the sort's keys and order (nothing is allocated here)."""
    freed, freed_big = 0, 0
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
    keys, order = scratch[0], scratch[1]
    for i in range(n):
        keys[i] = c[LEVEL, field[i]] * 1024 - c[TERR, field[i]]
    # order: by (level, -territory), stable as sorted(): an insertion
    for i in range(n):  # sort (a field is a few members; np.argsort compiled slower, issue 35)
        j = i
        while j > 0 and keys[order[j - 1]] > keys[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    count, level = 0, c[LEVEL, card]
    for i in range(n):
        slot = order[i]
        other = field[slot]
        if slot in (leave_a, leave_b) or c[LEVEL, other] >= level:
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


@njit(_nrt=False)
def _deploy(card, gone, ngone, pa, pb, soul, nsoul, c, stock, drop, field, souls, nsouls, s):
    """Pay the cost; the field slots ``gone`` leave, to the drop zone with their soul, in the
    order given (the reference's), but the 合体 pair's (``soul`` holds them); place ``card``
    with ``soul``."""
    _pay(c[COST, card], stock, drop, s)
    for i in range(ngone):
        slot = gone[i]
        if slot != pa and slot != pb:
            drop[s[NDROP]] = field[slot]
            s[NDROP] += 1
            for k in range(nsouls[slot]):
                drop[s[NDROP]] = souls[slot, k]
                s[NDROP] += 1
    last = s[NFIELD]
    for _ in range(ngone):  # from the last slot: the others keep their order
        slot = -1
        for i in range(ngone):
            if slot < gone[i] < last:
                slot = gone[i]
        last = slot
        t = c[TERR, field[slot]]
        s[CIRCLES] -= t
        s[BIG] -= 1 if t == 4 else 0
        for j in range(slot, s[NFIELD] - 1):
            field[j] = field[j + 1]
            nsouls[j] = nsouls[j + 1]
            for k in range(SOUL):
                souls[j, k] = souls[j + 1, k]
        s[NFIELD] -= 1
    n = s[NFIELD]
    field[n], nsouls[n] = card, nsoul
    for k in range(nsoul):
        souls[n, k] = soul[k]
    t = c[TERR, card]
    s[CIRCLES] += t
    s[BIG] += 1 if t == 4 else 0
    s[NFIELD] += 1
