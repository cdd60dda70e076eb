"""The compiled half of the ChaosTCG batch engine (fast.py): every game of a chunk, one after
another, following ``engine.play`` step by step on the arrays of ``encode``.

The state of a game is named below: the counts ``s``, the friend areas ``fr``. Only ``_games``
allocates; its loop ``_play`` is compiled with ``_nrt=False`` and the turn's steps inlined into
it, as in the VISION loop (games/vision/fast_core.py says why).

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

from deckcheck.games.chaos.fast_extra import _extra
from deckcheck.games.chaos.fast_hand import _keeps, _remove, _remove_card
from deckcheck.games.chaos.fast_state import (
    EXTRA_PLAYED,
    F_CARD,
    F_EXTRA,
    F_SETS,
    F_TST,
    I_ATTACK_DRAW,
    I_CAN_LEVEL,
    I_COVERED,
    I_FIRST_ATTACK,
    I_FRIEND_AREAS,
    I_HAND,
    I_HAND_LIMIT,
    I_MULLIGAN,
    I_PLAY_EXTRAS,
    I_PLAY_SETS,
    LEVEL,
    LEVEL_2,
    ND,
    NF,
    NH,
    PSETS,
    PTST,
    STATE,
    TOP_LEVEL,
)
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
def _arena_names(pnames: Any, nf: int, fcard: Any, fsetnames: Any, names: Any) -> Any:
    """``engine._arena_names``: ``pnames`` is the partner's card and set cards."""
    out = pnames
    for f in range(nf):
        out |= names[fcard[f]] | fsetnames[f]
    return out


@njit()
def _games(
    run: Any,
    deck0: Any,
    cards: Any,
    keep: Any,
    extras: Any,
    partner: int,
    ints: Any,
    tape: Any,
) -> tuple[Any, Any, Any, Any, Any]:
    """``run`` = (seed, games, turns, on_play): ``games`` games of ``turns`` turns from the deck
    ``deck0``, with numba's numbers seeded by ``seed`` or with ``tape``'s (goldfish/shuffles.py):
    (metrics, milestones, mulligans, loss, loss_turn). ``keep`` is (sig, bounds, hall), the keep
    rule's (``Keep.meets``)."""
    seed, games, turns, on_play = run
    size = deck0.shape[0]
    out = (
        np.full((games, turns, 6), -1, dtype=np.int16),
        np.zeros((games, 3), dtype=np.int16),
        np.zeros(games, dtype=np.int32),
        np.zeros(games, dtype=np.int8),
        np.zeros(games, dtype=np.int16),
    )
    rows = np.empty((3, size + 1), dtype=np.int32)
    # deck, hand, the sets in hand (_sets), the discard's keys (_discard)
    z = (rows[0], rows[1], rows[2], np.empty(size + 1, dtype=np.int64))
    # fr (fast_state.py), the friends' set cards' ネーム bits, the partner's, extras left
    a = (
        np.zeros((ints[I_FRIEND_AREAS] + 1, 4), dtype=np.int32),
        np.zeros(ints[I_FRIEND_AREAS] + 1, dtype=np.uint64),
        np.zeros(1, dtype=np.uint64),
        np.empty(extras[0].shape[0], dtype=np.int32),
    )
    paid = np.empty((2, extras[2].shape[2] + 1), dtype=np.int32)  # fast_extra._payment
    state = (z, np.zeros(STATE, dtype=np.int64), a, (paid[0], paid[1]))
    rand = (tape, np.zeros(3, dtype=np.int64))  # goldfish/shuffles.py: numba's or the tape's
    _play(seed, on_play, deck0, (cards, keep, extras, partner, ints), out, state, rand)
    return out


@njit(_nrt=False)
def _play(seed: int, on_play: bool, deck0: Any, game: Any, out: Any, state: Any, rand: Any) -> None:
    """``_games``'s loop, on the arrays it allocated: ``game`` = (cards, keep, extras, partner,
    ints), ``state`` = (zones, s, arena, paid)."""
    cards, keep, extras, partner, ints = game
    metrics, milestones, mulligans, loss, loss_turn = out
    z, s, a, paid = state
    np.random.seed(seed)
    for g in range(metrics.shape[0]):
        begin(g, rand)
        mulligans[g] = _deal(deck0, keep, ints, z, s, rand)
        s[LEVEL], s[NF], s[PSETS], s[PTST] = 1, 0, 0, 0
        a[2][0] = cards[1][partner]  # the partner's card and its set cards
        for e in range(extras[1].shape[0]):  # by element: a slice copy would allocate
            a[3][e] = extras[1][e]
        ms = milestones[g]
        for turn in range(1, metrics.shape[1] + 1):
            if s[ND] == 0:
                loss[g], loss_turn[g] = 1, turn  # the spec's losses[0], deck-out
                break
            _turn(turn, on_play, game, z, s, a, paid, ms)
            plain = friends_extra = 0
            sets = s[PSETS]
            for f in range(s[NF]):
                friends_extra += a[0][f, F_EXTRA]
                plain += 1 - a[0][f, F_EXTRA]
                sets += a[0][f, F_SETS]
            row = metrics[g, turn - 1]
            row[0], row[1], row[2], row[3] = s[NH], s[LEVEL], plain, friends_extra
            row[4], row[5] = sets, s[ND]


@njit(inline="always")
def _take_top(deck: Any, hand: Any, s: Any) -> None:
    """The deck's top card into the hand."""
    s[ND] -= 1
    hand[s[NH]] = deck[s[ND]]
    s[NH] += 1


@njit(inline="always")
def _deal(deck0: Any, keep: Any, ints: Any, z: Any, s: Any, rand: Any) -> int:
    """A new game: the deck shuffled, the opening hand, and when it fails the keep rule, the
    mulligan (the hand goes back, the deck is shuffled, a new hand); 1 for a mulligan."""
    deck, hand = z[0], z[1]
    size = deck0.shape[0]
    for i in range(size):
        deck[i] = deck0[i]
    shuffle(deck, size, rand)
    s[ND], s[NH] = size, 0
    for _ in range(ints[I_HAND]):
        _take_top(deck, hand, s)
    if not ints[I_MULLIGAN] or _keeps(hand, s[NH], keep[0], keep[1], keep[2]):
        return 0
    for i in range(s[NH]):
        deck[s[ND]] = hand[i]
        s[ND] += 1
    shuffle(deck, s[ND], rand)
    s[NH] = 0
    for _ in range(ints[I_HAND]):
        _take_top(deck, hand, s)
    return 1


@njit(inline="always")
def _turn(turn: int, on_play: bool, game: Any, z: Any, s: Any, a: Any, paid: Any, ms: Any) -> None:
    """One turn after the deck-out check: the draw, the level up, a friend, an extra chara, the
    set cards, the attack's draw, the discard down to the hand limit."""
    cards, _keep, extras, partner, ints = game
    flags, deck, hand = cards[0], z[0], z[1]
    _take_top(deck, hand, s)
    if ints[I_CAN_LEVEL] and s[LEVEL] < MAX_LEVEL:
        for i in range(s[NH]):
            if flags[hand[i]] & LEVEL_UP != 0:
                s[NH] = _remove(hand, s[NH], i)
                s[LEVEL] += 1
                if s[LEVEL] == 2 and ms[LEVEL_2] == 0:
                    ms[LEVEL_2] = turn
                if s[LEVEL] == MAX_LEVEL and ms[TOP_LEVEL] == 0:
                    ms[TOP_LEVEL] = turn
                break
    if s[NF] < ints[I_FRIEND_AREAS]:
        _friend(cards, hand, s, a)
    play_extra = ints[I_PLAY_EXTRAS] and a[3].sum() > 0
    if play_extra and _extra(cards, extras, hand, s, a, paid) and ms[EXTRA_PLAYED] == 0:
        ms[EXTRA_PLAYED] = turn
    if ints[I_PLAY_SETS]:
        _sets(partner, cards, hand, s, a, z[2])
    if ints[I_COVERED] and ms[EXTRA_PLAYED] == 0:  # the covered partner still draws (§5.7)
        ms[EXTRA_PLAYED] = turn
    attack = not (turn == 1 and on_play and not ints[I_FIRST_ATTACK])
    if ints[I_ATTACK_DRAW] and attack and s[ND] > 0:
        _take_top(deck, hand, s)
    if s[NH] > ints[I_HAND_LIMIT]:
        _discard(cards, hand, z[3], s, ints[I_HAND_LIMIT])


@njit(inline="always")
def _friend(cards: Any, hand: Any, s: Any, a: Any) -> None:
    """A friend enters the next friend area: the first chara of the pilot's order in hand that
    may enter (not [アラガミ]; a level-up chara only at the top level) and shares no ネーム
    with the arena."""
    flags, names, rank = cards[0], cards[1], cards[2]
    fr, fsetnames, pnames = a[0], a[1], a[2]
    taken = _arena_names(pnames[0], s[NF], fr[:, F_CARD], fsetnames, names)
    best = np.int64(-1)  # not a literal: numba would compile _remove once more for it
    for i in range(s[NH]):
        c = hand[i]
        ok = (flags[c] & (CHARA | NO_ENTRY)) == CHARA
        ok = ok and (s[LEVEL] >= MAX_LEVEL or not flags[c] & LEVEL_UP)
        if ok and names[c] & taken == 0 and (best < 0 or rank[c] < rank[hand[best]]):
            best = np.int64(i)
    if best >= 0:
        nf = s[NF]
        fr[nf, F_CARD], fr[nf, F_EXTRA], fr[nf, F_SETS], fr[nf, F_TST] = hand[best], 0, 0, 0
        fsetnames[nf] = 0
        s[NF] = nf + 1
        s[NH] = _remove(hand, s[NH], best)


@njit(inline="always")
def _sets(partner: int, cards: Any, hand: Any, s: Any, a: Any, sets_in_hand: Any) -> None:
    """The set cards of the hand, in hand order, each on the partner if it may hold it, else on
    the first friend that may (a [TST ゲージ] card only on a 美月 with as many as its sets, any
    other on one with none); none whose ネーム the arena holds."""
    flags, names = cards[0], cards[1]
    fr, fsetnames, pnames = a[0], a[1], a[2]
    partner_mitsuki = (flags[partner] & MITSUKI_NAME) != 0
    ns = 0
    for i in range(s[NH]):
        if flags[hand[i]] & SET != 0:
            sets_in_hand[ns] = hand[i]
            ns += 1
    for q in range(ns):
        c = sets_in_hand[q]
        if names[c] & _arena_names(pnames[0], s[NF], fr[:, F_CARD], fsetnames, names) != 0:
            continue
        tst = 1 if flags[c] & TST_SET else 0
        if (partner_mitsuki and s[PTST] == s[PSETS]) if tst == 1 else s[PSETS] == 0:
            s[PSETS] += 1
            s[PTST] += tst
            pnames[0] |= names[c]
            s[NH] = _remove_card(hand, s[NH], c)
            continue
        for f in range(s[NF]):
            mitsuki = (flags[fr[f, F_CARD]] & MITSUKI_NAME) != 0
            if (mitsuki and fr[f, F_TST] == fr[f, F_SETS]) if tst == 1 else fr[f, F_SETS] == 0:
                fr[f, F_SETS] += 1
                fr[f, F_TST] += tst
                fsetnames[f] |= names[c]
                s[NH] = _remove_card(hand, s[NH], c)
                break


@njit(inline="always")
def _discard(cards: Any, hand: Any, discard_key: Any, s: Any, limit: int) -> None:
    """Down to ``limit``: a stable sort, the pilot's order with events last (§7.6), keeps the
    first cards."""
    flags, rank = cards[0], cards[2]
    big = np.int64(rank.shape[0] + 1)
    for i in range(s[NH]):
        discard_key[i] = (big if flags[hand[i]] & EVENT else 0) + rank[hand[i]]
    for i in range(1, s[NH]):
        c, k, j = hand[i], discard_key[i], i - 1
        while j >= 0 and discard_key[j] > k:
            hand[j + 1], discard_key[j + 1] = hand[j], discard_key[j]
            j -= 1
        hand[j + 1], discard_key[j + 1] = c, k
    s[NH] = limit
