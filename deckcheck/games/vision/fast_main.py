"""The main phase and the attack of the compiled VISION loop (fast_core.py), each step inlined
into its loop: what may be played (``_can_play``), the card the pilot plays next (``_pick``),
playing it (``_put``: its 連結 parts and オーバードライブ fuel, its cost, where it enters), and
the attack with the commands that add to it. ``tables`` and ``z`` as fast_core.py says."""

from __future__ import annotations

import numpy as np

from deckcheck.games.vision.fast_board import (
    ATTACK,
    BONUS,
    CHARACTER,
    COMMAND,
    COST,
    CREATURE,
    DOLL,
    FIELD_EQUIP,
    FIRST_CHARACTER,
    HASTE,
    LEADER,
    LEGEND,
    LINKS,
    MANA,
    NAME_ID,
    NO_ATTACK,
    ON_CHARACTER,
    ON_FIELD,
    ONCE_A_TURN,
    OVERDRIVE,
    ROLE,
    SURPRISE,
    WORLD,
    _bury,
    _enter,
    _free,
    _fuel,
    _leave,
    _links,
    _playable,
    _playable_called,
    _set_on,
    _unbury,
    _users,
)
from deckcheck.games.vision.fast_hand import _remove
from deckcheck.games.vision.fast_state import (
    ACTIVE,
    CHARACTERS,
    DOLLS,
    E_ALIVE,
    E_UNIT,
    ENTRIES,
    FREE,
    HELD,
    LEADERS,
    P_DOLLS,
    P_FIELD_COMMANDS,
    P_FREE_FIRST,
    P_PER_TURN,
    PLAY_SCORE,
    PLAYED,
    RANK_SCORE,
    READY,
    U_ALIVE,
    U_ALL,
    U_ATTACK,
    U_ATTACK_OK,
    U_ATTACKER,
    U_CARD,
    U_CHARGED,
    U_EQUIP,
    U_HASTE,
    U_MANA,
    U_TURN,
    UNITS,
    WORLD_PLAYED,
)
from deckcheck.sdk import njit


@njit(inline="always")
def _can_play(c, turn, tables, z, s, u, ok):  # type: ignore[no-untyped-def]
    """engine.playable: fast_board._playable (its host one of row ``ok`` of ``u``), its 連結
    parts found (into ``found``), its オーバードライブ fuel in 冥界."""
    card, link_ok, fuel_ok = tables[0], tables[3], tables[4]
    _deck, hand, grave, _snap, name_turn, users, found = z
    if not _playable(c, card, users, s, u, ok, name_turn, turn):
        return False
    if card[LINKS, c] and not _links(c, card, link_ok, hand, grave, s, u, found):
        return False
    return not (card[OVERDRIVE, c] and _fuel(c, fuel_ok, grave, s) < 0)


@njit(inline="always")
def _main_phase(turn, tables, p, z, s, u, e, ms):  # type: ignore[no-untyped-def]
    """The main phase: while a card may be played, the one _pick chooses is played (_put)."""
    s[PLAYED] = s[FREE] = s[CHARACTERS] = s[DOLLS] = 0
    first = True
    while True:
        best = _pick(turn, tables, p, z, s, u, first)
        first = False
        if best < 0:
            return
        if tables[0][ROLE, z[1][best]] == CHARACTER and ms[FIRST_CHARACTER] == 0:
            ms[FIRST_CHARACTER] = turn
        _put(best, turn, tables, z, s, u, e)


@njit(inline="always")
def _pick(turn, tables, p, z, s, u, first):  # type: ignore[no-untyped-def]
    """The index in hand of the card the main phase plays next, -1 if none: a playable one
    within the turn's limits (commands only an 装備/場 where the format lets them be), free
    ones first when the pilot says so, then the first of the best play score. The ``first``
    look of the phase also counts the cards that could be played (``READY``): one pass over
    the hand instead of two (issue 35)."""
    card, score, hand, users = tables[0], tables[1], z[1], z[5]
    best = -1
    best_free = 0
    for i in range(s[HELD]):
        c = hand[i]
        barred = card[ROLE, c] == COMMAND and not (p[P_FIELD_COMMANDS] and card[FIELD_EQUIP, c])
        if card[ROLE, c] == CHARACTER and not card[SURPRISE, c]:
            if card[DOLL, c]:
                barred = barred or s[DOLLS] >= p[P_DOLLS]
            else:
                barred = barred or s[CHARACTERS] >= p[P_PER_TURN]
        if barred and not first:
            continue
        # one call site: each inlined copy of _can_play is compiled again (issue 35)
        if not _can_play(c, turn, tables, z, s, u, np.int64(U_ALL)):
            continue
        s[READY] += first
        if barred:
            continue
        is_free = 0
        if p[P_FREE_FIRST] and _free(c, card, users):
            is_free = 1
        if best >= 0 and (
            best_free > is_free
            or (best_free == is_free and score[PLAY_SCORE, c] >= score[PLAY_SCORE, hand[best]])
        ):
            continue
        best, best_free = i, is_free
    return best


@njit(inline="always")
def _put(best, turn, tables, z, s, u, e):  # type: ignore[no-untyped-def]
    """engine._put: the card at ``best`` in hand is played: its 連結 parts and its
    オーバードライブ fuel removed, its cost paid (unless free), then it enters (_place)."""
    card, fuel_ok = tables[0], tables[4]
    _deck, hand, grave, _snap, name_turn, users, _found = z
    c = hand[best]
    if card[ROLE, c] == CHARACTER and not card[SURPRISE, c]:
        if card[DOLL, c]:
            s[DOLLS] += 1
        else:
            s[CHARACTERS] += 1
    gratis = _free(c, card, users)
    if card[LINKS, c]:
        best = _pay_links(c, best, tables, z, s, u, e)
    if card[OVERDRIVE, c]:  # engine._put: the first card of 冥界 it may remove
        # int32 as 冥界's cards: an int64 compiled _unbury once more
        _unbury(np.int32(_fuel(c, fuel_ok, grave, s)), grave, s)
    s[HELD] = _remove(hand, s[HELD], best)
    if gratis:
        s[FREE] += 1
    else:
        s[ACTIVE] -= card[COST, c]
    s[PLAYED] += 1
    if card[WORLD, c]:
        s[WORLD_PLAYED] = 1
    if card[ONCE_A_TURN, c]:
        name_turn[card[NAME_ID, c]] = turn
    _place(c, turn, tables, z, s, u, e)


@njit(inline="always")
def _pay_links(c, best, tables, z, s, u, e):  # type: ignore[no-untyped-def]
    """engine._put for a 連結 card: one card per part removed from the game (a character to
    冥界 with its cards, then out; a card from hand if a copy is there, else from 冥界);
    returns the index in hand of the card itself, its first copy."""
    card, user_ok, link_ok = tables[0], tables[2], tables[3]
    _deck, hand, grave, _snap, _name_turn, users, found = z
    _links(c, card, link_ok, hand, grave, s, u, found)
    for q in range(card[LINKS, c]):
        x = found[q, 1]
        if found[q, 0] == 2:
            for r in range(s[ENTRIES]):
                if e[E_ALIVE, r] and e[E_UNIT, r] == x:
                    _leave(r, card, e, s, u, grave, users, user_ok)
                    break
            _unbury(u[U_CARD, x], grave, s)
            continue
        at = -1
        for i in range(s[HELD]):
            if hand[i] == x:
                at = i
                break
        if at >= 0:
            s[HELD] = _remove(hand, s[HELD], at)
        else:
            _unbury(x, grave, s)
    for i in range(s[HELD]):
        if hand[i] == c:
            return i
    return best


@njit(inline="always")
def _place(c, turn, tables, z, s, u, e):  # type: ignore[no-untyped-def]
    """A played card enters: a character (or 幻想生物) as the next row of ``u``, a card set on
    a character onto its host, an 装備/場 onto the field, anything else to 冥界."""
    card, user_ok, grave, users = tables[0], tables[2], z[2], z[5]
    none = np.int64(-1)  # typed: a literal -1 would compile _enter once more
    if card[ROLE, c] == CHARACTER or card[ROLE, c] == CREATURE:
        x = s[UNITS]
        u[U_ATTACK, x] = card[ATTACK, c]
        u[U_TURN, x] = turn
        u[U_HASTE, x] = card[HASTE, c]
        u[U_ATTACK_OK, x] = 1 - card[NO_ATTACK, c]
        u[U_MANA, x] = card[MANA, c]
        u[U_CHARGED, x] = 0
        u[U_EQUIP, x] = 2 * card[LEGEND, c]
        u[U_ALIVE, x] = 1
        u[U_CARD, x] = c
        _users(c, users, user_ok, np.int64(1))
        _enter(c, x, none, e, s, card)
        s[UNITS] = x + 1
        s[LEADERS] += card[LEADER, c]
    elif card[ON_CHARACTER, c]:
        _set_on(c, card, s, u, np.int64(U_ALL), e)
    elif card[ON_FIELD, c]:
        _enter(c, none, none, e, s, card)
    else:
        _bury(c, grave, s)


@njit(inline="always")
def _attack(turn, tables, z, s, u, e):  # type: ignore[no-untyped-def]
    """The attacks: every character that may (awake or 速攻, not asleep for マナチャージ, not
    人形), after the commands that add attack, in the pilot's order; returns the damage."""
    hit = attackers = 0
    for x in range(s[UNITS]):
        u[U_ATTACKER, x] = (
            u[U_ALIVE, x]
            and u[U_ATTACK_OK, x]
            and u[U_CHARGED, x] != turn
            and (u[U_TURN, x] < turn or u[U_HASTE, x])
        )
        if u[U_ATTACKER, x]:
            attackers += 1
            hit += u[U_ATTACK, x]
    if attackers:
        hit += _commands(turn, tables, z, s, u, e)
    return hit


@njit(inline="always")
def _commands(turn, tables, z, s, u, e):  # type: ignore[no-untyped-def]
    """The commands that add attack, in the pilot's order (rank score, stable), each played
    when it may be, set on an attacker if it is set on a character; returns their +N."""
    card, score = tables[0], tables[1]
    _deck, hand, grave, snap, name_turn, users, _found = z
    n = 0
    for i in range(s[HELD]):  # a stable insertion sort by rank
        c = hand[i]
        k = n
        while k > 0 and score[RANK_SCORE, snap[k - 1]] > score[RANK_SCORE, c]:
            snap[k] = snap[k - 1]
            k -= 1
        snap[k] = c
        n += 1
    none = np.int64(-1)
    hit = 0
    for q in range(n):
        c = snap[q]
        if card[ROLE, c] != COMMAND or card[BONUS, c] <= 0:
            continue
        if not _playable_called(c, card, users, s, u, np.int64(U_ATTACKER), name_turn, turn):
            continue
        for i in range(s[HELD]):
            if hand[i] == c:
                s[HELD] = _remove(hand, s[HELD], i)
                break
        s[ACTIVE] -= card[COST, c]
        s[PLAYED] += 1
        if card[ONCE_A_TURN, c]:
            name_turn[card[NAME_ID, c]] = turn
        if card[ON_CHARACTER, c]:
            _set_on(c, card, s, u, np.int64(U_ATTACKER), e)
            hit += card[BONUS, c]
        elif card[ON_FIELD, c]:
            _enter(c, none, none, e, s, card)
        else:
            hit += card[BONUS, c]
            _bury(c, grave, s)
    return hit
