"""The compiled half of the ChaosTCG batch engine (fast.py): every game of a chunk, one after
another, following ``engine.play`` step by step on the arrays of ``encode``.

The deck and the hand are arrays of card indices in the reference's order (the top of the deck
is the end; the hand in draw order, re-sorted by the end-of-turn discard), so every choice that
takes "the first card in hand" takes the same card, and a shuffle (goldfish/shuffles.py) of the
same cards in the same order with the same numbers gives the same deck. The arena is the
partner's set cards and up to ``friend_areas`` friends (top card, whether it is an extra chara,
its set cards as a count, [TST ゲージ] count and ネーム bits). The exact tests
(tests/test_exact_chaos.py) hold it to the reference game by game on shared tapes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from deckcheck.games.chaos.layout import (
    CHARA,
    EVENT,
    LEVEL_UP,
    MAX_LEVEL,
    MITSUKI_NAME,
    NO_ENTRY,
    SET,
    TST_SET,
)
from deckcheck.sdk import batch_begin as begin
from deckcheck.sdk import batch_shuffle as shuffle
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


@njit()
def _arena_names(pnames: Any, nf: int, fcard: Any, fsetnames: Any, names: Any) -> Any:
    """``engine._arena_names``: ``pnames`` is the partner's card and set cards."""
    out = pnames
    for f in range(nf):
        out |= names[fcard[f]] | fsetnames[f]
    return out


@njit()
def _extra(
    hand: Any,
    nh: int,
    fr: Any,  # (friend, 4): card, extra, sets, tst
    fsetnames: Any,
    nf: int,
    pnames: Any,
    ecount: Any,
    extra_card: Any,
    nparts: Any,
    meets: Any,
    key: Any,
    flags: Any,
    names: Any,
    paid_card: Any,
    paid_friend: Any,
) -> tuple[bool, int, int]:
    """``engine._extra``: (played, hand size, friends)."""
    for e in range(extra_card.shape[0]):
        if ecount[e] == 0:
            continue
        card = extra_card[e]
        skip = False
        for f in range(nf):
            if fr[f, 1] != 0 and key[fr[f, 0]] == key[card]:
                skip = True
        if skip:
            continue
        for b in range(nf):
            first = -1
            for j in range(nparts[e]):
                if meets[fr[b, 0], e, j] != 0:
                    first = j
                    break
            if first < 0:
                continue
            nph = npa = 0
            paid = True
            for j in range(nparts[e]):
                if j == first:
                    continue
                found = -1
                for i in range(nh):
                    c = hand[i]
                    if (flags[c] & CHARA) != 0 and meets[c, e, j] != 0:
                        again = False
                        for q in range(nph):
                            again |= paid_card[q] == c
                        if not again:
                            found = c
                            break
                if found >= 0:
                    paid_card[nph] = found
                    nph += 1
                    continue
                for f in range(nf):
                    if f != b and meets[fr[f, 0], e, j] != 0:
                        again = False
                        for q in range(npa):
                            again |= paid_friend[q] == f
                        if not again:
                            found = f
                            break
                if found < 0:
                    paid = False
                    break
                paid_friend[npa] = found
                npa += 1
            if not paid:
                continue
            staying = pnames | fsetnames[b]
            for f in range(nf):
                gone = f == b
                for q in range(npa):
                    gone |= paid_friend[q] == f
                if not gone:
                    staying |= names[fr[f, 0]] | fsetnames[f]
            if names[card] & staying != 0:
                continue
            for q in range(nph):
                nh = _remove_card(hand, nh, paid_card[q])
            fr[b, 0], fr[b, 1] = card, 1  # covers the base; its set cards stay
            kept = 0
            for f in range(nf):
                gone = False
                for q in range(npa):
                    gone |= paid_friend[q] == f
                if not gone:  # the paid friends go, with their set cards
                    fr[kept] = fr[f]
                    fsetnames[kept] = fsetnames[f]
                    kept += 1
            ecount[e] -= 1
            return True, nh, kept
    return False, nh, nf


@njit()
def _games(
    seed: int,
    games: int,
    turns: int,
    on_play: bool,
    deck0: Any,
    flags: Any,
    names: Any,
    rank: Any,
    key: Any,
    sig: Any,
    bounds: Any,
    hall: Any,
    extra_card: Any,
    extra_count: Any,
    meets: Any,
    nparts: Any,
    partner: int,
    ints: Any,
    tape: Any,
) -> tuple[Any, Any, Any, Any, Any]:
    np.random.seed(seed)
    rand = (tape, np.zeros(3, dtype=np.int64))  # goldfish/shuffles.py: numba's or the tape's
    can_level, friend_areas, hand_limit, hand_size = ints[0], ints[1], ints[2], ints[3]
    mulligan, play_extras, play_sets, attack_draw = ints[4], ints[5], ints[6], ints[7]
    covered, first_turn_attack = ints[8], ints[9]
    size = deck0.shape[0]
    metrics = np.full((games, turns, 6), -1, dtype=np.int16)
    milestones = np.zeros((games, 3), dtype=np.int16)
    mulligans = np.zeros(games, dtype=np.int32)
    loss = np.zeros(games, dtype=np.int8)
    loss_turn = np.zeros(games, dtype=np.int16)
    deck = np.empty(size, dtype=np.int32)
    hand = np.empty(size + 1, dtype=np.int32)
    sets_in_hand = np.empty(size + 1, dtype=np.int32)
    fr = np.zeros((friend_areas + 1, 4), dtype=np.int32)
    fsetnames = np.zeros(friend_areas + 1, dtype=np.uint64)
    ecount = np.empty(extra_card.shape[0], dtype=np.int32)
    paid_card = np.empty(meets.shape[2] + 1, dtype=np.int32)
    paid_friend = np.empty(meets.shape[2] + 1, dtype=np.int32)
    discard_key = np.empty(size + 1, dtype=np.int64)
    big = np.int64(rank.shape[0] + 1)
    pcard = names[partner]
    partner_mitsuki = (flags[partner] & MITSUKI_NAME) != 0
    for g in range(games):
        begin(g, rand)
        deck[:] = deck0
        shuffle(deck, size, rand)
        nd, nh = size, 0
        for _ in range(hand_size):
            nd -= 1
            hand[nh] = deck[nd]
            nh += 1
        if mulligan and not _keeps(hand, nh, sig, bounds, hall):
            for i in range(nh):  # the hand goes back, the deck is shuffled, a new hand
                deck[nd] = hand[i]
                nd += 1
            shuffle(deck, nd, rand)
            nh = 0
            for _ in range(hand_size):
                nd -= 1
                hand[nh] = deck[nd]
                nh += 1
            mulligans[g] = 1
        level, nf, psets, ptst = 1, 0, 0, 0
        pnames = pcard  # the partner's card and its set cards
        ecount[:] = extra_count
        for turn in range(1, turns + 1):
            if nd == 0:
                loss[g], loss_turn[g] = 1, turn  # the spec's losses[0], deck-out
                break
            nd -= 1
            hand[nh] = deck[nd]
            nh += 1
            if can_level and level < MAX_LEVEL:
                for i in range(nh):
                    if flags[hand[i]] & LEVEL_UP != 0:
                        nh = _remove(hand, nh, i)
                        level += 1
                        if level == 2 and milestones[g, 0] == 0:
                            milestones[g, 0] = turn
                        if level == MAX_LEVEL and milestones[g, 1] == 0:
                            milestones[g, 1] = turn
                        break
            if nf < friend_areas:
                taken = _arena_names(pnames, nf, fr[:, 0], fsetnames, names)
                best = -1
                for i in range(nh):
                    c = hand[i]
                    ok = (flags[c] & (CHARA | NO_ENTRY)) == CHARA
                    ok = ok and (level >= MAX_LEVEL or not flags[c] & LEVEL_UP)
                    if ok and names[c] & taken == 0 and (best < 0 or rank[c] < rank[hand[best]]):
                        best = i
                if best >= 0:
                    fr[nf, 0], fr[nf, 1], fr[nf, 2], fr[nf, 3] = hand[best], 0, 0, 0
                    fsetnames[nf] = 0
                    nf += 1
                    nh = _remove(hand, nh, best)
            if play_extras and ecount.sum() > 0:
                played, nh, nf = _extra(
                    hand, nh, fr, fsetnames, nf, pnames, ecount, extra_card, nparts, meets,
                    key, flags, names, paid_card, paid_friend,
                )  # fmt: skip
                if played and milestones[g, 2] == 0:
                    milestones[g, 2] = turn
            if play_sets:
                ns = 0
                for i in range(nh):
                    if flags[hand[i]] & SET != 0:
                        sets_in_hand[ns] = hand[i]
                        ns += 1
                for s in range(ns):
                    c = sets_in_hand[s]
                    if names[c] & _arena_names(pnames, nf, fr[:, 0], fsetnames, names) != 0:
                        continue
                    tst = 1 if flags[c] & TST_SET else 0
                    if (partner_mitsuki and ptst == psets) if tst == 1 else psets == 0:
                        psets += 1
                        ptst += tst
                        pnames |= names[c]
                        nh = _remove_card(hand, nh, c)
                        continue
                    for f in range(nf):
                        mitsuki = (flags[fr[f, 0]] & MITSUKI_NAME) != 0
                        if (mitsuki and fr[f, 3] == fr[f, 2]) if tst == 1 else fr[f, 2] == 0:
                            fr[f, 2] += 1
                            fr[f, 3] += tst
                            fsetnames[f] |= names[c]
                            nh = _remove_card(hand, nh, c)
                            break
            if covered and milestones[g, 2] == 0:  # the covered partner still draws (§5.7)
                milestones[g, 2] = turn
            attack = not (turn == 1 and on_play and not first_turn_attack)
            if attack_draw and attack and nd > 0:
                nd -= 1
                hand[nh] = deck[nd]
                nh += 1
            if nh > hand_limit:  # a stable sort: the pilot's order, events last (§7.6)
                for i in range(nh):
                    discard_key[i] = (big if flags[hand[i]] & EVENT else 0) + rank[hand[i]]
                for i in range(1, nh):
                    c, k, j = hand[i], discard_key[i], i - 1
                    while j >= 0 and discard_key[j] > k:
                        hand[j + 1], discard_key[j + 1] = hand[j], discard_key[j]
                        j -= 1
                    hand[j + 1], discard_key[j + 1] = c, k
                nh = hand_limit
            plain = extras = 0
            sets = psets
            for f in range(nf):
                extras += fr[f, 1]
                plain += 1 - fr[f, 1]
                sets += fr[f, 2]
            row = metrics[g, turn - 1]
            row[0], row[1], row[2], row[3], row[4], row[5] = nh, level, plain, extras, sets, nd
    return metrics, milestones, mulligans, loss, loss_turn
