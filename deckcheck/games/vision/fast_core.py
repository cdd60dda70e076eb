"""The numba half of the VISION batch engine (fast.py): a game's deal and the steps of its
turn, on the state fast_state.py names; the main phase and the attack are in fast_main.py, the
board's steps in fast_board.py and the hand's helpers in fast_hand.py (the cache of all is
keyed on every module they import: goldfish/compiling.py).

The same procedure as ``engine.play`` (the reference engine, which tests/test_exact_vision.py
holds it to game by game on shared tapes), on card indices (encode.py): the hand is kept in
draw order and every choice takes the first card of the best score, as the reference's
``min``/``max`` take the first of the best key. The field is two tables kept in order of entry,
characters (``u``) and the cards on the field (``e``, characters included, for 維持コスト),
whose rows are flagged dead rather than removed, so their order is the reference's lists'.
Draws take a uniform card of what is left of the deck: goldfish/shuffles.py's Fisher–Yates one
step a card, so with a tape (the exact tests) the cards drawn are the reference's shuffled
deck's, top first. A mulligan finishes that shuffle, puts the hand back under the top as the
reference does (``common.redeal``) and shuffles again.

Only ``_games`` allocates; its loop ``_play``, the turn written in it, is compiled with
``_nrt=False`` (fast_board.py says why) and every step of a turn is inlined into it
(``inline="always"``): called, a step paid for its tuples of arrays, passed field by field,
and ran the loop 6x slower.
``tables`` is (card, score, user_ok, link_ok, fuel_ok), the per-card tables (fast.py); ``z``
the zones and scratch rows (deck, hand, grave, snap, name_turn, users, found)."""

from __future__ import annotations

import numpy as np

from deckcheck.games.vision.fast_board import (
    FIELD_EQUIP,
    FIRST_FREE,
    FIRST_LOSS,
    NODE_1,
    OPPONENT_AT_0,
    UPKEEP,
    _bury,
    _charges,
    _leave,
)
from deckcheck.games.vision.fast_hand import _draw, _meets, _remove
from deckcheck.games.vision.fast_main import _attack, _main_phase
from deckcheck.games.vision.fast_state import (
    ACTIVE,
    ALIVE,
    DAMAGE,
    E_ALIVE,
    E_CARD,
    ENTRIES,
    ENTRY_ROWS,
    FIELD_EQUIPPED,
    FREE,
    HELD,
    LEADER_LIMIT,
    LEFT,
    LOST,
    MAIN_ACTIVE,
    MAIN_ASLEEP,
    NODE_SCORE,
    NODES,
    P_CHARGE,
    P_DRAW,
    P_FIRST_ATTACK,
    P_FIRST_DRAWS,
    P_HAND,
    P_HAND_LIMIT,
    P_LEADERS,
    P_LIFE,
    P_MULLIGAN,
    P_NODE_PER_TURN,
    P_NODE_UNTIL,
    P_READY_NODES,
    P_UPKEEP_NODES,
    READY,
    ROW,
    STATE,
    U_ALIVE,
    U_ALL,
    U_CHARGED,
    U_HASTE,
    U_MANA,
    U_TURN,
    UNIT_ROWS,
    UNITS,
    WORLD_PLAYED,
)
from deckcheck.sdk import batch_begin as begin
from deckcheck.sdk import batch_start as start
from deckcheck.sdk import njit


@njit()
def _games(seed, on_play, base, tables, keep, p, out, tape):  # type: ignore[no-untyped-def]
    """Play ``out`` = (metrics, milestones, mulligans, loss, loss_turn)'s games (metrics: games
    × turns × metrics, all -1), each dealt from ``base`` (the deck as card indices) with
    numba's numbers seeded by ``seed``, or with ``tape``'s (goldfish/shuffles.py)."""
    rand = (tape, np.zeros(3, dtype=np.int64))
    size = base.shape[0]
    rows = np.empty((5, size), dtype=np.int32)
    # deck, hand, 冥界, the attack's commands in the pilot's order, the turn each name played
    z = (rows[0], rows[1], rows[2], rows[3], rows[4])
    # users[c]: the 術者 of card c on the field (fast_board._users); found: fast_board._links
    users = np.zeros(tables[2].shape[0], dtype=np.int32)
    found = np.zeros((max(tables[3].shape[1], 1), 2), dtype=np.int32)
    zones = (*z, users, found)
    u = np.empty((UNIT_ROWS, size), dtype=np.int32)
    u[U_ALL] = 1
    e = np.empty((ENTRY_ROWS, size), dtype=np.int32)
    s = np.zeros(STATE, dtype=np.int64)
    _play(seed, on_play, base, tables, keep, p, out, (zones, s, u, e), rand)


@njit(_nrt=False)
def _play(seed, on_play, base, tables, keep, p, out, state, rand):  # type: ignore[no-untyped-def]
    """``_games``'s loop, on the arrays it allocated: ``state`` = (zones, s, u, e). Every step
    below is inlined into it, so a step's tuples cost no call. A turn's steps, in the loop:
    ``s`` (its metrics) and ``ms`` (the game's milestones); a deck that cannot give the draw
    phase its cards loses the game (deck-out). The turn is written here, not inlined from a
    function of its own: numba copies and re-reads an inlined body at each level of inlining,
    and the turn's holds every step (a sixth of the engine's compile time, issue 35)."""
    metrics, milestones, mulligans, loss, loss_turn = out
    zones, s, u, e = state
    np.random.seed(seed)
    for g in range(metrics.shape[0]):
        begin(g, rand)
        start(rand)
        mulligans[g] = _deal(base, keep, p, zones, s, rand)
        ms = milestones[g]
        for turn in range(1, metrics.shape[1] + 1):
            first = turn == 1 and on_play
            s[LOST] = _upkeep(tables, p, zones, s, u, e)
            if s[LOST] and ms[FIRST_LOSS] == 0:
                ms[FIRST_LOSS] = turn
            if not (first and not p[P_FIRST_DRAWS]) and not _draw_phase(p, zones, s, rand):
                loss[g] = 1  # deck-out
                loss_turn[g] = turn
                break
            until = _node_phase(tables, p, zones, s, e)
            s[MAIN_ACTIVE], s[MAIN_ASLEEP] = s[ACTIVE], s[NODES] - s[ACTIVE]
            _charge(turn, until, p, zones, s, u, rand)
            s[WORLD_PLAYED] = 0  # no 世界呪符 played yet this turn
            s[READY] = 0  # counted by the main phase's first look at the hand
            _main_phase(turn, tables, p, zones, s, u, e, ms)
            for k in range(7):
                if s[NODES] >= k + 1 and ms[NODE_1 + k] == 0:
                    ms[NODE_1 + k] = turn
            if s[FREE] and ms[FIRST_FREE] == 0:
                ms[FIRST_FREE] = turn
            if not (first and not p[P_FIRST_ATTACK]):
                s[DAMAGE] += _attack(turn, tables, zones, s, u, e)
                if s[DAMAGE] >= p[P_LIFE] and ms[OPPONENT_AT_0] == 0:
                    ms[OPPONENT_AT_0] = turn
            while s[HELD] > p[P_HAND_LIMIT]:  # discard: the card the pilot would set as a node
                best = _node_card(tables[1], zones[1], s[HELD])
                _bury(zones[1][best], zones[2], s)
                s[HELD] = _remove(zones[1], s[HELD], best)
            s[ALIVE] = 0
            for x in range(s[UNITS]):
                s[ALIVE] += u[U_ALIVE, x]
            for j in range(len(ROW)):
                metrics[g, turn - 1, j] = s[ROW[j]]


@njit(inline="always")
def _deal(base, keep, p, z, s, rand):  # type: ignore[no-untyped-def]
    """A new game: the opening hand, and the mulligan when it fails the keep rule ``keep``
    (Keep.meets's arrays); returns 1 for a mulligan, else 0."""
    deck, hand, _grave, _snap, name_turn, users, _found = z
    sig, bound_bit, bound_k, subset_mask, subset_need = keep
    size = base.shape[0]
    for i in range(size):
        deck[i] = base[i]
    s[:] = 0
    s[LEADER_LIMIT] = p[P_LEADERS]
    name_turn[:] = 0
    users[:] = 0
    left = size
    held = min(p[P_HAND], size)
    for i in range(held):
        hand[i] = _draw(deck, left, rand)
        left -= 1
    taken = 0
    if p[P_MULLIGAN] and not _meets(hand, held, sig, bound_bit, bound_k, subset_mask, subset_need):
        for i in range(left - 1, 0, -1):  # the rest of the shuffle (engine: shuffled)
            _draw(deck, i + 1, rand)
        for i in range(held):  # the hand goes back on top, in draw order (redeal)
            deck[left + i] = hand[i]
        start(rand)
        left = size
        for i in range(held):
            hand[i] = _draw(deck, left, rand)
            left -= 1
        taken = 1
    s[LEFT], s[HELD] = left, held
    return taken


@njit(inline="always")
def _upkeep(tables, p, z, s, u, e):  # type: ignore[no-untyped-def]
    """Maintenance: the nodes stand (when the format readies them), then 維持コスト in order
    of entry, paid from the active nodes by each card whose 術者 is not on the field, or the
    card is 破棄 with what is set on it; returns how many were."""
    card, user_ok, grave, users = tables[0], tables[2], z[2], z[5]
    if p[P_READY_NODES]:
        s[ACTIVE] = s[NODES]
    lost = 0
    for r in range(s[ENTRIES]):
        c = e[E_CARD, r]
        if not e[E_ALIVE, r] or card[UPKEEP, c] == 0:
            continue
        if users[c] > 0:  # its 術者 is on the field
            continue
        if s[ACTIVE] >= card[UPKEEP, c]:
            s[ACTIVE] -= card[UPKEEP, c]
            continue
        lost += 1  # 破棄: it leaves, with what is set on it
        _leave(r, card, e, s, u, grave, users, user_ok)
    s[FIELD_EQUIPPED] = 0  # an 装備/場 still on the field
    for r in range(s[ENTRIES]):
        if e[E_ALIVE, r] and card[FIELD_EQUIP, e[E_CARD, r]]:
            s[FIELD_EQUIPPED] = 1
    return lost


@njit(inline="always")
def _draw_phase(p, z, s, rand):  # type: ignore[no-untyped-def]
    """The draw phase; False when fewer cards are left than it draws."""
    deck, hand = z[0], z[1]
    if s[LEFT] < p[P_DRAW]:
        return False
    for _ in range(p[P_DRAW]):
        hand[s[HELD]] = _draw(deck, s[LEFT], rand)
        s[LEFT] -= 1
        s[HELD] += 1
    return True


@njit(inline="always")
def _node_card(score, hand, held):  # type: ignore[no-untyped-def]
    """The card of the hand the pilot would set as a node: the first of the best node score."""
    best = np.int64(0)  # not a literal: numba would compile _remove once more for it
    for i in range(1, held):
        if score[NODE_SCORE, hand[i]] > score[NODE_SCORE, hand[best]]:
            best = np.int64(i)
    return best


@njit(inline="always")
def _node_phase(tables, p, z, s, e):  # type: ignore[no-untyped-def]
    """Nodes set from hand, up to the format's per turn and until ``until`` are in play (-1:
    no limit): the pilot's node_until, plus the 維持コスト due (engine.upkeep_due) when the
    format counts it. Returns ``until``."""
    card, score, hand, users = tables[0], tables[1], z[1], z[5]
    until = np.int64(p[P_NODE_UNTIL])
    if until >= 0 and p[P_UPKEEP_NODES]:
        for r in range(s[ENTRIES]):
            c = e[E_CARD, r]
            if e[E_ALIVE, r] and users[c] == 0:
                until += card[UPKEEP, c]
    for _ in range(p[P_NODE_PER_TURN]):
        if s[HELD] == 0 or (until >= 0 and s[NODES] >= until):
            break
        s[HELD] = _remove(hand, s[HELD], _node_card(score, hand, s[HELD]))
        s[NODES] += 1
        s[ACTIVE] += 1
    return until


@njit(inline="always")
def _charge(turn, until, p, z, s, u, rand):  # type: ignore[no-untyped-def]
    """engine.charge: マナチャージ, instead of an attack: each awake character with one puts
    that many cards of the deck's top into play as nodes, while the pilot charges."""
    deck = z[0]
    for x in range(s[UNITS]):
        if not u[U_ALIVE, x] or u[U_MANA, x] == 0 or s[LEFT] == 0:
            continue
        if not (u[U_TURN, x] < turn or u[U_HASTE, x]):
            continue
        if not _charges(p[P_CHARGE], until, s[NODES]):
            break
        u[U_CHARGED, x] = turn
        n = min(u[U_MANA, x], s[LEFT])
        for k in range(n):
            _draw(deck, s[LEFT] - k, rand)
        s[LEFT] -= n
        s[NODES] += n
