"""The compiled half of ``fast``: ラクエンロジック goldfish games one after another, following
``engine.play`` step by step; cards are indices into ``fast.Encoded``'s arrays, zones int64
arrays counted in the state vector ``s`` (tops at the end), a loss a status code (1 + index in
the spec's ``losses``). Every shuffle is goldfish/shuffles.py's, reading ``rand`` (numba's
numbers, or a tape in the exact tests). The zones' moves (draws, refreshes, their penalties)
are in fast_deck.py. The cache of the compiled functions is keyed on this module and the
modules it imports (goldfish/compiling.py), so it imports only small compiled ones.

Chosen for numba's compile time (issue 35, benchmarks/compile_bench.py): a step called once
(the turn, its phases) is inlined into ``play_games``; one called from several places is
compiled once and called (numba types an inlined body again at each site, LLVM optimises a
called one again in each caller); zones are copied and sorted with loops (a slice copy
compiles a shape check per site, NumPy's sorts their generic code).

Only ``play_games`` allocates; its loop ``_play`` and the steps it calls are compiled with
``_nrt=False``, as VISION's are (games/vision/fast_board.py says why): with reference counts,
the atomic increments and decrements of each call's arrays were 45 % of the loop's time (a
perf profile, issue 35). The field's steps (room for a member, its deployment) are in
fast_field.py."""

from __future__ import annotations

import numpy as np

from deckcheck.games.rakuen.fast_deck import (
    DECK_OUT,
    LEVELMASK,
    NDECK,
    NDROP,
    NFIELD,
    NHAND,
    NLEVEL,
    NSTOCK,
    PENALTIES,
    REFRESHES,
    STATE,
    _draw,
    _pay,
    _refresh,
    _remove,
    _settle,
)
from deckcheck.games.rakuen.fast_field import (
    COST,
    ENVOY,
    GOURITAI,
    KIND,
    LA_RANK,
    LEVEL,
    MEMBER,
    NUM,
    PLAY,
    SOUL,
    THEORIST,
    _deploy,
    _room,
)
from deckcheck.sdk import batch_begin as begin
from deckcheck.sdk import batch_shuffle as shuffle
from deckcheck.sdk import njit


@njit(inline="always")
def _conditions(card, c, cmask, s):
    if not c[MEMBER, card] or c[LEVEL, card] > s[NLEVEL] or c[COST, card] > s[NSTOCK]:
        return False
    return c[KIND, card] != GOURITAI or (cmask[card] & s[LEVELMASK]) != 0


# p[...]: the set-up's numbers (fast.Encoded.params)
P_HAND, P_DRAW, P_STOCK, P_CIRCLES, P_BLOCKS, P_LEVEL_MAX = range(6)
P_MULLIGAN, P_OVER, P_SWAP, P_GATTAI, P_LUCK, P_STUCK, P_HAND_LIMIT = range(6, 13)
# the metrics (rakuen.METRICS) as counts of s
ROW = (NHAND, NLEVEL, NSTOCK, NFIELD, NLEVEL, REFRESHES, PENALTIES, NDECK)


@njit(inline="always")
def _deployed(card, turn, c, ms):
    """The milestones (rakuen.MILESTONES): level 2, level 3, a 合理体."""
    for k, reached in enumerate((c[LEVEL, card] >= 2, c[LEVEL, card] >= 3, c[KIND, card] == 3)):
        if reached and ms[k] == 0:
            ms[k] = turn


@njit(inline="always")
def _level_phase(c, cmask, lmask, colbit, hand, level, s, level_max, swap):
    if s[NHAND] == 0:
        return
    if s[NLEVEL] < level_max:
        # policy first; then a card of a color not yet there; then the least deployable
        best, best_key = 0, (0, 0, 0, 0)
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


@njit(_nrt=False)
def _main(turn, c, cmask, p, z, s, ms):
    """Deploy members in the pilot's order while they fit; returns how many."""
    _deck, hand, stock, drop, _level, field, souls, nsouls, victims, buf, soul, scratch = z
    none = np.int64(-1)  # no slot; int64, not a literal: see _gattai
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
        nv = _room(
            card, none, none, p[P_OVER], c, field, s, p[P_CIRCLES], p[P_BLOCKS], victims, scratch
        )
        if nv < 0:
            continue
        s[NHAND] = _remove(hand, s[NHAND], card)
        _deploy(card, victims, nv, none, none, soul, np.int64(0), c, stock, drop, field, souls,
                nsouls, s)  # fmt: skip
        _deployed(card, turn, c, ms)
        count += 1
    return count


@njit(inline="always")
def _lowest(c, field, s, kind):
    best = -1
    for slot in range(s[NFIELD]):
        card, low = field[slot], field[max(best, 0)]
        if c[KIND, card] == kind and (
            best < 0 or (c[LEVEL, card], c[NUM, card]) < (c[LEVEL, low], c[NUM, low])
        ):
            best = slot
    return best


@njit(inline="always")
def _gattai(c, cmask, p, z, s, rand):
    """(status, the 合理体 deployed or -1), as engine._gattai."""
    deck, hand, stock, drop, _level, field, souls, nsouls, victims, _buf, soul, scratch = z
    ta, ea = np.int64(_lowest(c, field, s, THEORIST)), np.int64(_lowest(c, field, s, ENVOY))
    if ta < 0 or ea < 0:
        return 0, -1
    over, circles, blocks = p[P_OVER], p[P_CIRCLES], p[P_BLOCKS]
    # int64 values, not literals: numba compiles a callee again for each literal argument (and
    # for ``best``'s -1 before it unifies with a card), three times _room and _deploy each,
    # 14 s of the warm step's 76 s on a loaded machine (benchmarks/compile_bench.py, issue 35)
    best, source = np.int64(-1), 0
    for source in range(2):
        pile = hand if source == 0 else deck
        n = s[NHAND] if source == 0 else s[NDECK]
        for i in range(n):
            card = pile[i]
            if c[KIND, card] != GOURITAI or not _conditions(card, c, cmask, s):
                continue
            if best >= 0 and c[PLAY, card] >= c[PLAY, best]:
                continue
            if _room(card, ta, ea, over, c, field, s, circles, blocks, victims, scratch) >= 0:
                best = card
        if best >= 0:
            break
    if best < 0:
        return 0, -1
    nv = _room(best, ta, ea, over, c, field, s, circles, blocks, victims, scratch)
    if source == 1:
        s[NDECK] = _remove(deck, s[NDECK], best)
        if s[NDECK] == 0 and not _refresh(deck, drop, s, rand):
            return DECK_OUT, -1
        shuffle(deck, s[NDECK], rand)
    else:
        s[NHAND] = _remove(hand, s[NHAND], best)
    soul[0], soul[1] = field[ta], field[ea]  # a 定理者 and a 使者 carry no soul of their own
    victims[nv], victims[nv + 1] = ta, ea
    _deploy(best, victims, nv + 2, ta, ea, soul, np.int64(SOUL), c, stock, drop, field, souls,
            nsouls, s)  # fmt: skip
    return _settle(deck, drop, s, rand), best


@njit(inline="always")
def _end_phase(c, hand, drop, s, limit, buf):
    """engine._end_phase: down to ``limit`` (-1: none); the cards past it in the hand stably
    sorted by play order go to the drop zone, in that order."""
    n = s[NHAND]
    if limit < 0 or n <= limit:
        return
    for i in range(n):  # a stable insertion sort, as sorted()
        card, j = hand[i], i
        while j > 0 and c[PLAY, buf[j - 1]] > c[PLAY, card]:
            buf[j] = buf[j - 1]
            j -= 1
        buf[j] = card
    for i in range(limit, n):
        s[NHAND] = _remove(hand, s[NHAND], buf[i])
        drop[s[NDROP]] = buf[i]
        s[NDROP] += 1


@njit(inline="always")
def _turn(turn, on_play, c, cmask, lmask, colbit, p, z, s, ms, rand):
    """One turn; returns the loss status (0: the game goes on)."""
    deck, hand, stock, drop, level, _field, _souls, _nsouls, _victims, buf, _soul, _scratch = z
    status = _draw(p[P_DRAW], deck, drop, hand, s, NHAND, rand)
    if status:
        return status
    for _ in range(p[P_STOCK]):
        status = _draw(1, deck, drop, stock, s, NSTOCK, rand)
        if status:
            return status
    _level_phase(c, cmask, lmask, colbit, hand, level, s, p[P_LEVEL_MAX], p[P_SWAP])
    count = _main(turn, c, cmask, p, z, s, ms)
    if p[P_GATTAI]:
        status, merged = _gattai(c, cmask, p, z, s, rand)
        if status:
            return status
        if merged >= 0:
            _deployed(merged, turn, c, ms)
    for _ in range(p[P_LUCK]):
        if s[NSTOCK] < 3 or (count and p[P_STUCK]):
            break
        _pay(3, stock, drop, s)
        status = _draw(1, deck, drop, hand, s, NHAND, rand)
        if status:
            return status
        count += _main(turn, c, cmask, p, z, s, ms)
    _end_phase(c, hand, drop, s, p[P_HAND_LIMIT], buf)
    return 0


@njit()
def play_games(cards, deal, p, seed, on_play, out, tape):
    """Play ``len(out[0])`` games into ``out`` (fast.play_batch's arrays, metrics all -1),
    shuffling with numba's numbers seeded by ``seed``, or with ``tape``'s (goldfish/shuffles.py).
    ``cards`` = (c, cmask, lmask, colbit), the per-card tables; ``deal`` = (base, group, radix,
    meets, keep), the deck and the keep rule (fast.Encoded says what each holds)."""
    np.random.seed(seed)
    rand = (tape, np.zeros(3, np.int64))
    n = len(deal[0])
    rows = np.empty((12, n + 8), np.int64)  # every zone holds at most the deck
    deck, hand, stock, drop, level = rows[0], rows[1], rows[2], rows[3], rows[4]
    field, nsouls, victims, buf, bottom = rows[5], rows[6], rows[7], rows[8], rows[9]
    souls = np.empty((n + 8, SOUL), np.int64)
    soul = np.empty(SOUL, np.int64)
    counts = np.empty(deal[4].shape[1], np.int64)
    z = (deck, hand, stock, drop, level, field, souls, nsouls, victims, buf, soul, rows[10:12])
    s = np.zeros(STATE, np.int64)
    _play(cards, deal, p, on_play, out, z, s, bottom, counts, rand)


@njit(_nrt=False)
def _play(cards, deal, p, on_play, out, z, s, bottom, counts, rand):
    """``play_games``'s loop, on the arrays it allocated (without reference counts: the
    module's docstring says why)."""
    c, cmask, lmask, colbit = cards
    metrics, milestones, mulligans, loss, loss_turn = out
    for g in range(metrics.shape[0]):
        begin(g, rand)
        mulligans[g] = _deal(deal, p, z, s, bottom, counts, rand)
        for turn in range(1, metrics.shape[1] + 1):
            status = _turn(turn, on_play, c, cmask, lmask, colbit, p, z, s, milestones[g], rand)
            if status:
                loss[g], loss_turn[g] = status, turn
                break
            for j in range(len(ROW)):
                metrics[g, turn - 1, j] = s[ROW[j]]


@njit(inline="always")
def _deal(deal, p, z, s, bottom, counts, rand):
    """A new game: the deck shuffled, the opening hand drawn, and the mulligan when the hand
    fails the keep rule (the first cards that fill a slot are kept, in hand order, the rest go
    to the bottom in hand order and as many are drawn); returns 1 for a mulligan, else 0."""
    base, group, radix, meets, keep = deal
    deck, hand, drop = z[0], z[1], z[3]
    n = len(base)
    s[:] = 0
    for i in range(n):
        deck[i] = base[i]
    shuffle(deck, n, rand)
    s[NDECK] = n
    _draw(p[P_HAND], deck, drop, hand, s, NHAND, rand)  # the deck is large enough (batch_ok)
    index = 0
    for i in range(s[NHAND]):
        if group[hand[i]] >= 0:
            index += radix[group[hand[i]]]
    if not p[P_MULLIGAN] or meets[index]:
        return 0
    for k in range(len(counts)):
        counts[k] = keep[index, k]
    kept, nb = 0, 0
    for i in range(s[NHAND]):  # keep the first cards that fill a slot, in hand order
        card, k = hand[i], group[hand[i]]
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
    for i in range(nb):
        deck[i] = bottom[i]
    s[NDECK] += nb
    _draw(nb, deck, drop, hand, s, NHAND, rand)
    return 1
