"""The board of the compiled VISION loop (fast_core.py): the per-card table's rows, and the
steps on characters, hosts, 冥界 and 連結 links that the loop takes (each the reference
engine's step of the same name in engine.py), on the game's state as fast_state.py names it.
Apart from fast_core.py to keep each module readable; the cache of both is keyed on every
module they import (goldfish/compiling.py).

Every step is compiled with ``_nrt=False``: it only reads and writes the loop's arrays, never
allocates or keeps one, so it needs no reference counts; with them, each call paid an atomic
increment and decrement per array argument, 84% of the loop's time in a perf profile (the
loop's own references keep the arrays alive). ``_playable`` alone is inlined into the main phase
instead: a call passes each array as its fields, about 35 of them pushed on the stack, and the
main phase asks it of every card in hand each time it picks (a perf profile of the loop put a
fifth of its time in that call; inlined, the real deck's 5,000 games took 10.9 ms, not 13.5).
Inlining more (``_host``, ``_draw``, ``_remove``) made the loop no faster and its compile
longer (issue 35)."""

from __future__ import annotations

import numpy as np

from deckcheck.games.vision.fast_state import (
    ACTIVE,
    E_ALIVE,
    E_CARD,
    E_HOST,
    E_UNIT,
    ENTRIES,
    FIELD_EQUIPPED,
    HELD,
    IN_GRAVE,
    LEADER_LIMIT,
    LEADERS,
    NODES,
    U_ALIVE,
    U_ATTACK,
    U_CARD,
    U_EQUIP,
    U_MANA,
    UNITS,
    WORLD_PLAYED,
)
from deckcheck.games.vision.layout import COLUMNS, MILESTONES
from deckcheck.sdk import njit

CHARACTER, CREATURE, SPELL, COMMAND = range(4)
# rows of the per-card table, as encode.COLUMNS orders them
(ROLE, NODE, COST, ATTACK, BONUS, ON_CHARACTER, LEADER, HASTE, NEVER, HAS_USER, NEEDS_USER,
 EQUIP, ON_FIELD, WORLD, FIELD_EQUIP, ONCE_A_TURN, UPKEEP, MANA, SURPRISE, DOLL,
 NAME_ID, DASH, NO_ATTACK, LEGEND, SACRED, LINKS, OVERDRIVE) = range(27)  # fmt: skip
assert len(COLUMNS) == 27
FIRST_CHARACTER = MILESTONES.index("first_character")
OPPONENT_AT_0 = MILESTONES.index("opponent_at_0")
NODE_1 = MILESTONES.index("node_1")  # … node_7 follow it
FIRST_FREE = MILESTONES.index("first_free_spell")
FIRST_LOSS = MILESTONES.index("first_upkeep_loss")


@njit(_nrt=False)
def _users(unit_card, users, user_ok, step):  # type: ignore[no-untyped-def]
    """A character of card ``unit_card`` enters (``step`` 1) or leaves (-1) the field:
    ``users[c]`` counts the characters on the field named after card ``c``'s 術者, so
    engine.user_on_field is one look-up, not a scan of the field each time it is asked."""
    for c in range(users.shape[0]):
        users[c] += step * user_ok[c, unit_card]


@njit(_nrt=False)
def _free(c, card, users):  # type: ignore[no-untyped-def]
    """engine.free: a spell (or 幻想生物) whose 術者 is on the field."""
    return (card[ROLE, c] == SPELL or card[ROLE, c] == CREATURE) and users[c] > 0


@njit(_nrt=False)
def _host(c, card, s, u, ok):  # type: ignore[no-untyped-def]
    """engine._host over the characters flagged in row ``ok`` of ``u``: the strongest that may
    take the card (an 装備 only one without, a 神器 only a 伝説 one), the first on a tie; -1
    if none."""
    best = -1
    for x in range(s[UNITS]):
        if not u[U_ALIVE, x] or not u[ok, x] or (card[EQUIP, c] and u[U_EQUIP, x] & 1):
            continue
        if card[SACRED, c] and not u[U_EQUIP, x] & 2:
            continue
        if best < 0 or u[U_ATTACK, x] > u[U_ATTACK, best]:
            best = x
    return best


@njit(inline="always")
def _playable(c, card, users, s, u, ok, name_turn, turn):  # type: ignore[no-untyped-def]
    """engine.playable for a deck without 連結, its host one of the characters flagged in row
    ``ok`` of ``u``."""
    if card[NEVER, c]:
        return False
    if not _free(c, card, users) and (
        card[DASH, c] or card[NODE, c] > s[NODES] or card[COST, c] > s[ACTIVE]
    ):
        return False
    if card[LEADER, c] and s[LEADERS] >= s[LEADER_LIMIT]:
        return False
    if card[NEEDS_USER, c] and users[c] == 0:
        return False
    if card[ON_CHARACTER, c] and _host(c, card, s, u, ok) < 0:
        return False
    if card[WORLD, c] and s[WORLD_PLAYED]:
        return False
    if card[FIELD_EQUIP, c] and s[FIELD_EQUIPPED]:
        return False
    return not (card[ONCE_A_TURN, c] and name_turn[card[NAME_ID, c]] == turn)


# The same step as a call, for the attack's commands: asked once a turn of a few cards, where
# the call costs little; a second inlined copy cost 0.4 CPU-s of the engine's compile and made
# the loop no faster (10.6-10.8 ms against 10.9 for the real deck's 5,000 games).
_playable_called = njit(_nrt=False)(_playable.py_func)


@njit(_nrt=False)
def _enter(c, x, h, e, s, card):  # type: ignore[no-untyped-def]
    """Card ``c`` comes onto the field (the next row of ``e``): as character ``x`` (or -1), set
    on character ``h`` (or -1)."""
    r = s[ENTRIES]
    e[E_CARD, r], e[E_UNIT, r], e[E_HOST, r], e[E_ALIVE, r] = c, x, h, 1
    if card[FIELD_EQUIP, c]:
        s[FIELD_EQUIPPED] = 1
    s[ENTRIES] = r + 1


@njit(_nrt=False)
def _set_on(c, card, s, u, ok, e):  # type: ignore[no-untyped-def]
    """engine._put for a card set on a character: the host _host picks (of row ``ok``) gets its
    +N and its マナチャージ."""
    h = _host(c, card, s, u, ok)
    u[U_ATTACK, h] += card[BONUS, c]
    u[U_MANA, h] += card[MANA, c]
    if card[EQUIP, c]:
        u[U_EQUIP, h] |= 1
    _enter(c, np.int64(-1), h, e, s, card)


@njit(_nrt=False)
def _charges(charge, node_until, nodes):  # type: ignore[no-untyped-def]
    """limits.charges: 0 never, 1 while nodes are fewer than node_until (-1: always), 2 always."""
    if charge == 1:
        return node_until < 0 or nodes < node_until
    return charge == 2


@njit(_nrt=False)
def _bury(c, grave, s):  # type: ignore[no-untyped-def]
    """Card ``c`` goes to 冥界 (engine.Board.grave, in order)."""
    grave[s[IN_GRAVE]] = c
    s[IN_GRAVE] += 1


@njit(_nrt=False)
def _unbury(c, grave, s):  # type: ignore[no-untyped-def]
    """The first card ``c`` in 冥界 leaves it (common.take)."""
    for i in range(s[IN_GRAVE]):
        if grave[i] == c:
            for k in range(i, s[IN_GRAVE] - 1):
                grave[k] = grave[k + 1]
            s[IN_GRAVE] -= 1
            return


@njit(_nrt=False)
def _leave(r, card, e, s, u, grave, users, user_ok):  # type: ignore[no-untyped-def]
    """engine._leave: field row ``r`` goes to 冥界, a character with what is set on it."""
    c = e[E_CARD, r]
    e[E_ALIVE, r] = 0
    _bury(c, grave, s)
    x = e[E_UNIT, r]
    if x >= 0:
        u[U_ALIVE, x] = 0
        _users(c, users, user_ok, np.int64(-1))
        s[LEADERS] -= card[LEADER, c]
        for k in range(s[ENTRIES]):
            if e[E_ALIVE, k] and e[E_HOST, k] == x:
                e[E_ALIVE, k] = 0
                _bury(e[E_CARD, k], grave, s)
    elif e[E_HOST, r] >= 0:
        h = e[E_HOST, r]
        u[U_ATTACK, h] -= card[BONUS, c]
        u[U_MANA, h] -= card[MANA, c]
        if card[EQUIP, c]:
            u[U_EQUIP, h] &= 2


@njit(_nrt=False)
def _links(c, card, link_ok, hand, grave, s, u, found):  # type: ignore[no-untyped-def]
    """engine._link_cards: for each 連結 part of card ``c``, in order, the first card that
    matches it in 冥界, then in hand (not a copy of ``c``), then on the field, none used
    twice (a card by its index, as the reference's identity: copies are one object). Fills
    ``found[p]`` = (place 0 冥界 / 1 hand / 2 field, card index or character row); False if
    a part has none."""
    for p in range(card[LINKS, c]):
        place = -1
        what = -1
        for i in range(s[IN_GRAVE]):
            x = grave[i]
            if link_ok[c, p, x] and not _used(found, p, np.int64(0), np.int64(x)):
                place, what = 0, x
                break
        if place < 0:
            for i in range(s[HELD]):
                x = hand[i]
                if x != c and link_ok[c, p, x] and not _used(found, p, np.int64(0), np.int64(x)):
                    place, what = 1, x
                    break
        if place < 0:
            for h in range(s[UNITS]):
                on = u[U_ALIVE, h] and link_ok[c, p, u[U_CARD, h]]
                if on and not _used(found, p, np.int64(2), h):
                    place, what = 2, h
                    break
        if place < 0:
            return False
        found[p, 0], found[p, 1] = place, what
    return True


@njit(_nrt=False)
def _fuel(c, fuel_ok, grave, s):  # type: ignore[no-untyped-def]
    """engine.fuels: the first card of 冥界 オーバードライブ card ``c`` may remove; -1 if none."""
    for i in range(s[IN_GRAVE]):
        if fuel_ok[c, grave[i]]:
            return grave[i]
    return -1


@njit(_nrt=False)
def _used(found, parts, place, what):  # type: ignore[no-untyped-def]
    """Whether the first ``parts`` links found take ``what``: a character row (place 2), or a
    card index in 冥界 or hand (places 0, 1: the same card either way)."""
    for p in range(parts):  # noqa: SIM110 (a loop numba compiles as it is)
        if (found[p, 0] == 2) == (place == 2) and found[p, 1] == what:
            return True
    return False
