"""The compiled turn of ``fast``: the level phase, the main phase, 合体, luck drive and the game
loop, following ``engine.play`` step by step (zones and their helpers: ``fast_core``)."""

from __future__ import annotations

import numba
import numpy as np

from deckcheck.games.rakuen.fast_core import (
    DECK_OUT,
    ENVOY,
    GOURITAI,
    KIND,
    LA_RANK,
    LEVEL,
    LEVELMASK,
    MEMBER,
    NDECK,
    NDROP,
    NFIELD,
    NHAND,
    NLEVEL,
    NSTOCK,
    NUM,
    PENALTIES,
    PLAY,
    REFRESHES,
    STATE,
    THEORIST,
    _conditions,
    _deploy,
    _draw,
    _refresh,
    _remove,
    _room,
    _settle,
    _shuffle,
    _top,
)

SOUL = 8  # a 合理体's soul: the 合体 pair (a 定理者 and a 使者 carry none)
# p[...]: the set-up's numbers (fast.Encoded.params)
(
    P_HAND,
    P_DRAW,
    P_STOCK,
    P_CIRCLES,
    P_BLOCKS,
    P_LEVEL_MAX,
    P_MULLIGAN,
    P_OVER,
    P_SWAP,
    P_GATTAI,
    P_LUCK,
    P_STUCK,
) = range(12)
PARAMS = 12


@numba.njit(cache=True)
def _deployed(card, turn, c, ms):
    if c[LEVEL, card] >= 2 and ms[0] == 0:
        ms[0] = turn
    if c[LEVEL, card] >= 3 and ms[1] == 0:
        ms[1] = turn
    if c[KIND, card] == GOURITAI and ms[2] == 0:
        ms[2] = turn


@numba.njit(cache=True)
def _level_phase(c, cmask, lmask, colbit, hand, level, s, level_max, swap):
    if s[NHAND] == 0:
        return
    if s[NLEVEL] < level_max:
        # policy first; then a card of a color not yet there; then the least deployable
        best = 0
        best_key = (0, 0, 0, 0)
        for i in range(s[NHAND]):
            card = hand[i]
            fresh = (cmask[card] & ~s[LEVELMASK]) != 0
            key = (c[LA_RANK, card], 0 if fresh else 1, -c[LEVEL, card], c[NUM, card])
            if i == 0 or key < best_key:
                best, best_key = i, key
        card = hand[best]
        s[NHAND] = _remove(hand, s[NHAND], card)
        level[s[NLEVEL]] = card
        s[NLEVEL] += 1
        s[LEVELMASK] |= lmask[card]
    elif swap:
        for i in range(s[NHAND]):
            new = hand[i]
            if colbit[new] != 0 and (colbit[new] & s[LEVELMASK]) == 0:
                old = level[0]
                s[NHAND] = _remove(hand, s[NHAND], new)
                hand[s[NHAND]] = old
                s[NHAND] += 1
                mask = 0
                for j in range(s[NLEVEL] - 1):
                    level[j] = level[j + 1]
                    mask |= lmask[level[j]]
                level[s[NLEVEL] - 1] = new
                s[LEVELMASK] = mask | lmask[new]
                return


@numba.njit(cache=True)
def _main(turn, c, cmask, p, z, s, ms):
    """Deploy members in the pilot's order while they fit; returns how many."""
    deck, hand, stock, drop, level, field, souls, nsouls, victims, order, buf, soul = z
    m = 0
    for i in range(s[NHAND]):  # the members of the hand, stably sorted by the play order
        card = hand[i]
        if c[MEMBER, card]:
            buf[m] = card
            j = m
            m += 1
            while j > 0 and c[PLAY, buf[j - 1]] > c[PLAY, buf[j]]:
                buf[j - 1], buf[j] = buf[j], buf[j - 1]
                j -= 1
    count = 0
    for i in range(m):
        card = buf[i]
        if not _conditions(card, c, cmask, s):
            continue
        nv = _room(card, -1, -1, p[P_OVER], c, field, s, p[P_CIRCLES], p[P_BLOCKS], victims, order)
        if nv < 0:
            continue
        s[NHAND] = _remove(hand, s[NHAND], card)
        _deploy(card, victims, nv, -1, -1, soul, 0, c, stock, drop, field, souls, nsouls, s)
        _deployed(card, turn, c, ms)
        count += 1
    return count


@numba.njit(cache=True)
def _lowest(c, field, s, kind):
    best = -1
    for slot in range(s[NFIELD]):
        card = field[slot]
        if c[KIND, card] == kind and (
            best < 0 or (c[LEVEL, card], c[NUM, card]) < (c[LEVEL, field[best]], c[NUM, field[best]])
        ):
            best = slot
    return best


@numba.njit(cache=True)
def _gattai(c, cmask, p, z, s):
    """(status, the 合理体 deployed or -1), as engine._gattai."""
    deck, hand, stock, drop, level, field, souls, nsouls, victims, order, buf, soul = z
    ta = _lowest(c, field, s, THEORIST)
    ea = _lowest(c, field, s, ENVOY)
    if ta < 0 or ea < 0:
        return 0, -1
    over, circles, blocks = p[P_OVER], p[P_CIRCLES], p[P_BLOCKS]
    best = -1
    source = 0
    for source in range(2):
        pile = hand if source == 0 else deck
        n = s[NHAND] if source == 0 else s[NDECK]
        for i in range(n):
            card = pile[i]
            if c[KIND, card] != GOURITAI or not _conditions(card, c, cmask, s):
                continue
            if best >= 0 and c[PLAY, card] >= c[PLAY, best]:
                continue
            if _room(card, ta, ea, over, c, field, s, circles, blocks, victims, order) >= 0:
                best = card
        if best >= 0:
            break
    if best < 0:
        return 0, -1
    nv = _room(best, ta, ea, over, c, field, s, circles, blocks, victims, order)
    if source == 1:
        s[NDECK] = _remove(deck, s[NDECK], best)
        if s[NDECK] == 0 and not _refresh(deck, drop, s):
            return DECK_OUT, -1
        _shuffle(deck, s[NDECK])
    else:
        s[NHAND] = _remove(hand, s[NHAND], best)
    nsoul = 0
    for slot in (ta, ea):
        soul[nsoul] = field[slot]
        nsoul += 1
        for k in range(nsouls[slot]):
            soul[nsoul] = souls[slot, k]
            nsoul += 1
    _deploy(best, victims, nv, ta, ea, soul, nsoul, c, stock, drop, field, souls, nsouls, s)
    return _settle(deck, drop, s), best


@numba.njit(cache=True)
def _turn(turn, on_play, c, cmask, lmask, colbit, p, z, s, ms):
    """One turn; returns the loss status (0: the game goes on)."""
    deck, hand, stock, drop, level, field, souls, nsouls, victims, order, buf, soul = z
    status = _draw(p[P_DRAW], deck, drop, hand, s)
    if status:
        return status
    for _ in range(p[P_STOCK]):
        card = _top(deck, drop, s)
        if card < 0:
            return DECK_OUT
        stock[s[NSTOCK]] = card
        s[NSTOCK] += 1
        status = _settle(deck, drop, s)
        if status:
            return status
    _level_phase(c, cmask, lmask, colbit, hand, level, s, p[P_LEVEL_MAX], p[P_SWAP])
    count = _main(turn, c, cmask, p, z, s, ms)
    if p[P_GATTAI]:
        status, merged = _gattai(c, cmask, p, z, s)
        if status:
            return status
        if merged >= 0:
            _deployed(merged, turn, c, ms)
    for _ in range(p[P_LUCK]):
        if s[NSTOCK] < 3 or (count and p[P_STUCK]):
            break
        for _k in range(3):
            s[NSTOCK] -= 1
            drop[s[NDROP]] = stock[s[NSTOCK]]
            s[NDROP] += 1
        status = _draw(1, deck, drop, hand, s)
        if status:
            return status
        count += _main(turn, c, cmask, p, z, s, ms)
    return 0


@numba.njit(cache=True)
def play_games(
    c, cmask, lmask, colbit, base, group, radix, meets, keep, p, seed, on_play, out
):
    """Play ``len(out[0])`` games into ``out`` = (metrics, milestones, mulligans, loss,
    loss_turn), metrics filled with -1 beforehand."""
    metrics, milestones, mulligans, loss, loss_turn = out
    np.random.seed(seed)
    n = len(base)
    size = n + 8
    deck = np.empty(size, np.int64)
    hand = np.empty(size, np.int64)
    stock = np.empty(size, np.int64)
    drop = np.empty(size, np.int64)
    level = np.empty(size, np.int64)
    field = np.empty(size, np.int64)
    souls = np.empty((size, SOUL), np.int64)
    nsouls = np.zeros(size, np.int64)
    victims = np.empty(size, np.int64)
    order = np.empty(size, np.int64)
    buf = np.empty(size, np.int64)
    soul = np.empty(SOUL, np.int64)
    bottom = np.empty(size, np.int64)
    counts = np.empty(keep.shape[1], np.int64)
    z = (deck, hand, stock, drop, level, field, souls, nsouls, victims, order, buf, soul)
    s = np.zeros(STATE, np.int64)
    games, turns = metrics.shape[0], metrics.shape[1]
    for g in range(games):
        s[:] = 0
        deck[:n] = base
        _shuffle(deck, n)
        s[NDECK] = n
        _draw(p[P_HAND], deck, drop, hand, s)  # the set-up's deck is large enough (batch_ok)
        index = 0
        for i in range(s[NHAND]):
            if group[hand[i]] >= 0:
                index += radix[group[hand[i]]]
        if p[P_MULLIGAN] and not meets[index]:
            counts[:] = keep[index]
            kept = 0
            nb = 0
            for i in range(s[NHAND]):  # keep the first cards that fill a slot, in hand order
                card = hand[i]
                k = group[card]
                if k >= 0 and counts[k] > 0:
                    counts[k] -= 1
                    hand[kept] = card
                    kept += 1
                else:
                    bottom[nb] = card
                    nb += 1
            s[NHAND] = kept
            for j in range(s[NDECK] - 1, -1, -1):  # to the bottom, in hand order
                deck[j + nb] = deck[j]
            deck[:nb] = bottom[:nb]
            s[NDECK] += nb
            _draw(nb, deck, drop, hand, s)
            mulligans[g] = 1
        for turn in range(1, turns + 1):
            status = _turn(turn, on_play, c, cmask, lmask, colbit, p, z, s, milestones[g])
            if status:
                loss[g] = status
                loss_turn[g] = turn
                break
            row = metrics[g, turn - 1]
            row[0] = s[NHAND]
            row[1] = s[NLEVEL]
            row[2] = s[NSTOCK]
            row[3] = s[NFIELD]
            row[4] = s[NLEVEL]
            row[5] = s[REFRESHES]
            row[6] = s[PENALTIES]
            row[7] = s[NDECK]
