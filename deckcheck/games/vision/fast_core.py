"""The numba half of the VISION batch engine (fast.py), with the board's steps in fast_board.py
and the hand's helpers in fast_hand.py (the cache of all three is keyed on every module they
import: goldfish/compiling.py).

The same procedure as ``engine.play`` (the reference engine, which tests/test_exact_vision.py
holds it to game by game on shared tapes), on card indices (encode.py): the hand is kept in
draw order and every choice takes the first card of the best score, as the reference's
``min``/``max`` take the first of the best key. The field is two tables kept in order of entry,
characters and the cards on the field (characters included, for 維持コスト), whose rows are
flagged dead rather than removed, so their order is the reference's lists'. Draws take a
uniform card of what is left of the deck: goldfish/shuffles.py's Fisher–Yates one step a card,
so with a tape (the exact tests) the cards drawn are the reference's shuffled deck's, top
first. A mulligan finishes that shuffle, puts the hand back under the top as the reference does
(``common.redeal``) and shuffles again."""

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
    FIRST_FREE,
    FIRST_LOSS,
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
    UPKEEP,
    WORLD,
    _bury,
    _charges,
    _enter,
    _free,
    _fuel,
    _leave,
    _links,
    _playable,
    _set_on,
    _unbury,
    _users,
)
from deckcheck.games.vision.fast_hand import _draw, _meets, _remove
from deckcheck.sdk import batch_begin as begin
from deckcheck.sdk import batch_start as start
from deckcheck.sdk import njit


@njit()
def _games(  # type: ignore[no-untyped-def]
    seed, games, turns, on_play, base, card, score, user_ok, link_ok, fuel_ok, keep, params, out,
    tape,
):
    """Play ``games`` games into ``out`` = (metrics, milestones, mulligans, loss, loss_turn),
    each dealt from ``base`` (the deck as card indices) with numba's numbers seeded by ``seed``,
    or with ``tape``'s (goldfish/shuffles.py)."""
    metrics, milestones, mulligans, loss, loss_turn = out
    sig, bound_bit, bound_k, subset_mask, subset_need = keep
    np.random.seed(seed)
    rand = (tape, np.zeros(3, dtype=np.int64))
    hand_size, draw_per_turn, first_draws, mulligan = params[0], params[1], params[2], params[3]
    node_per_turn, node_until, per_turn = params[4], params[5], params[6]
    leaders, life, dolls_per_turn, hand_limit = params[7], params[8], params[9], params[10]
    ready_nodes, free_first, charge = params[11], params[12], params[13]
    first_attack, field_commands, upkeep_nodes = params[14], params[15], params[16]
    size = base.shape[0]
    deck = np.empty(size, dtype=np.int32)
    hand = np.empty(size, dtype=np.int32)
    snap = np.empty(size, dtype=np.int32)
    # characters, in order of entry
    u_attack = np.empty(size, dtype=np.int32)
    u_turn = np.empty(size, dtype=np.int32)
    u_haste = np.empty(size, dtype=np.int32)
    u_equip = np.empty(size, dtype=np.int32)
    u_attack_ok = np.empty(size, dtype=np.int32)  # not 人形
    u_card = np.empty(size, dtype=np.int32)  # the card of each character row
    grave = np.empty(size, dtype=np.int32)  # 冥界, in order (st[5] cards)
    found = np.zeros((max(link_ok.shape[1], 1), 2), dtype=np.int32)  # _links
    u_mana = np.empty(size, dtype=np.int32)  # マナチャージ(X), with the cards set on it
    u_charged = np.empty(size, dtype=np.int32)  # the turn it last slept for マナチャージ
    u_alive = np.empty(size, dtype=np.int32)
    u_all = np.ones(size, dtype=np.int32)  # every character may host
    u_attacker = np.empty(size, dtype=np.int32)
    # the field, in order of entry: the card, its character row (or -1), its host (or -1), alive
    e = np.empty((4, size), dtype=np.int32)
    e_card, e_unit, e_alive = e[0], e[1], e[3]
    name_turn = np.zeros(size, dtype=np.int32)
    # leaders in play, the leader limit, a 世界呪符 played this turn, an 装備/場 on the field,
    # rows of the field table, cards in 冥界
    st = np.zeros(6, dtype=np.int32)
    st[1] = leaders
    users = np.zeros(user_ok.shape[0], dtype=np.int32)  # _users: the 術者 on the field
    u_all_rows = (u_attack, u_mana, u_equip, u_alive)
    node_score, play_score, rank_score = score[0], score[1], score[2]
    role = card[ROLE]
    # typed int64, not numba's literal -1 and 0: each literal argument would compile the
    # step it is passed to once more (python -m deckcheck.cli.warm)
    none = np.int64(-1)
    for g in range(games):
        begin(g, rand)
        start(rand)
        deck[:] = base
        left = size
        held = min(hand_size, size)
        for i in range(held):
            hand[i] = _draw(deck, left, rand)
            left -= 1
        if mulligan and not _meets(hand, held, sig, bound_bit, bound_k, subset_mask, subset_need):
            for i in range(left - 1, 0, -1):  # the rest of the shuffle (engine: shuffled)
                _draw(deck, i + 1, rand)
            for i in range(held):  # the hand goes back on top, in draw order (redeal)
                deck[left + i] = hand[i]
            start(rand)
            left = size
            for i in range(held):
                hand[i] = _draw(deck, left, rand)
                left -= 1
            mulligans[g] = 1
        nodes = active = units = damage = np.int64(0)
        st[0] = st[3] = st[4] = st[5] = 0
        name_turn[:] = 0
        users[:] = 0
        for turn in range(1, turns + 1):
            if ready_nodes:  # maintenance: nodes, then 維持コスト in order of entry
                active = nodes
            lost = 0
            for r in range(st[4]):
                c = e_card[r]
                if not e_alive[r] or card[UPKEEP, c] == 0:
                    continue
                if users[c] > 0:  # its 術者 is on the field
                    continue
                if active >= card[UPKEEP, c]:
                    active -= card[UPKEEP, c]
                    continue
                lost += 1  # 破棄: it leaves, with what is set on it
                _leave(r, card, e, st, u_all_rows, grave, users, user_ok)
            st[3] = 0  # an 装備/場 still on the field
            for r in range(st[4]):
                if e_alive[r] and card[FIELD_EQUIP, e_card[r]]:
                    st[3] = 1
            if lost and milestones[g, FIRST_LOSS] == 0:
                milestones[g, FIRST_LOSS] = turn
            if not (turn == 1 and on_play and not first_draws):
                if left < draw_per_turn:
                    loss[g] = 1  # deck-out
                    loss_turn[g] = turn
                    break
                for _ in range(draw_per_turn):
                    hand[held] = _draw(deck, left, rand)
                    left -= 1
                    held += 1
            until = np.int64(node_until)  # engine.upkeep_due on top of it, by default
            if until >= 0 and upkeep_nodes:
                for r in range(st[4]):
                    c = e_card[r]
                    if e_alive[r] and users[c] == 0:
                        until += card[UPKEEP, c]
            for _ in range(node_per_turn):
                if held == 0 or (until >= 0 and nodes >= until):
                    break
                best = 0
                for i in range(1, held):
                    if node_score[hand[i]] > node_score[hand[best]]:
                        best = i
                held = _remove(hand, held, best)
                nodes += 1
                active += 1
            main_active, main_asleep = active, nodes - active
            for u in range(units):  # engine.charge: マナチャージ, instead of an attack
                if not u_alive[u] or u_mana[u] == 0 or left == 0:
                    continue
                if not (u_turn[u] < turn or u_haste[u]):
                    continue
                if not _charges(charge, until, nodes):
                    break
                u_charged[u] = turn
                n = min(u_mana[u], left)
                for k in range(n):
                    _draw(deck, left - k, rand)
                left -= n
                nodes += n
            st[2] = 0  # no 世界呪符 played yet this turn
            ready = 0
            for i in range(held):
                if _playable(
                    hand[i], card, users, nodes, active, st, units, u_attack, u_equip, u_alive,
                    u_all, name_turn, turn,
                ) and (
                    card[LINKS, hand[i]] == 0
                    or _links(
                        hand[i], card, link_ok, hand, held, grave, st, units, u_card, u_alive,
                        found,
                    )
                ) and (card[OVERDRIVE, hand[i]] == 0 or _fuel(hand[i], fuel_ok, grave, st) >= 0):
                    ready += 1
            played = free = characters = dolls = 0
            while True:  # main phase
                best = -1
                best_free = 0
                for i in range(held):
                    c = hand[i]
                    if role[c] == COMMAND and not (field_commands and card[FIELD_EQUIP, c]):
                        continue
                    if role[c] == CHARACTER and not card[SURPRISE, c]:
                        if card[DOLL, c]:
                            if dolls >= dolls_per_turn:
                                continue
                        elif characters >= per_turn:
                            continue
                    if not _playable(
                        c, card, users, nodes, active, st, units, u_attack, u_equip, u_alive,
                        u_all, name_turn, turn,
                    ):
                        continue
                    if card[LINKS, c] and not _links(
                        c, card, link_ok, hand, held, grave, st, units, u_card, u_alive, found
                    ):
                        continue
                    if card[OVERDRIVE, c] and _fuel(c, fuel_ok, grave, st) < 0:
                        continue
                    is_free = 0
                    if free_first and _free(c, card, users):
                        is_free = 1
                    if best >= 0 and (
                        best_free > is_free
                        or (best_free == is_free and play_score[c] >= play_score[hand[best]])
                    ):
                        continue
                    best, best_free = i, is_free
                if best < 0:
                    break
                c = hand[best]
                if role[c] == CHARACTER:
                    if not card[SURPRISE, c]:
                        if card[DOLL, c]:
                            dolls += 1
                        else:
                            characters += 1
                    if milestones[g, 0] == 0:
                        milestones[g, 0] = turn
                gratis = _free(c, card, users)
                if card[LINKS, c]:  # engine._put: one card per part removed from the game
                    _links(c, card, link_ok, hand, held, grave, st, units, u_card, u_alive, found)
                    for p in range(card[LINKS, c]):
                        x = found[p, 1]
                        if found[p, 0] == 2:  # a character: to 冥界 with its cards, then out
                            for r in range(st[4]):
                                if e_alive[r] and e_unit[r] == x:
                                    _leave(r, card, e, st, u_all_rows, grave, users, user_ok)
                                    break
                            _unbury(u_card[x], grave, st)
                            continue
                        at = -1
                        for i in range(held):
                            if hand[i] == x:
                                at = i
                                break
                        if at >= 0:  # the reference takes it from hand if a copy is there
                            held = _remove(hand, held, at)
                        else:
                            _unbury(x, grave, st)
                    for i in range(held):  # the card itself, its first copy
                        if hand[i] == c:
                            best = i
                            break
                if card[OVERDRIVE, c]:  # engine._put: the first card of 冥界 it may remove
                    _unbury(_fuel(c, fuel_ok, grave, st), grave, st)
                held = _remove(hand, held, best)
                if gratis:
                    free += 1
                else:
                    active -= card[COST, c]
                played += 1
                if card[WORLD, c]:
                    st[2] = 1
                if card[ONCE_A_TURN, c]:
                    name_turn[card[NAME_ID, c]] = turn
                if role[c] == CHARACTER or role[c] == CREATURE:
                    u_attack[units] = card[ATTACK, c]
                    u_turn[units] = turn
                    u_haste[units] = card[HASTE, c]
                    u_attack_ok[units] = 1 - card[NO_ATTACK, c]
                    u_mana[units] = card[MANA, c]
                    u_charged[units] = 0
                    u_equip[units] = 2 * card[LEGEND, c]
                    u_alive[units] = 1
                    u_card[units] = c
                    _users(c, users, user_ok, np.int64(1))
                    _enter(c, units, none, e, st, card)
                    units += 1
                    st[0] += card[LEADER, c]
                elif card[ON_CHARACTER, c]:
                    _set_on(c, card, units, u_attack, u_equip, u_alive, u_all, e, st, u_mana)
                elif card[ON_FIELD, c]:
                    _enter(c, none, none, e, st, card)
                else:
                    _bury(c, grave, st)
            for k in range(1, 8):
                if nodes >= k and milestones[g, 1 + k] == 0:
                    milestones[g, 1 + k] = turn
            if free and milestones[g, FIRST_FREE] == 0:
                milestones[g, FIRST_FREE] = turn
            if not (turn == 1 and on_play and not first_attack):  # attacks
                hit = attackers = 0
                for u in range(units):
                    u_attacker[u] = (
                        u_alive[u]
                        and u_attack_ok[u]
                        and u_charged[u] != turn
                        and (u_turn[u] < turn or u_haste[u])
                    )
                    if u_attacker[u]:
                        attackers += 1
                        hit += u_attack[u]
                if attackers:  # commands that add attack, in the pilot's order
                    n = 0
                    for i in range(held):  # a stable insertion sort by rank
                        c = hand[i]
                        k = n
                        while k > 0 and rank_score[snap[k - 1]] > rank_score[c]:
                            snap[k] = snap[k - 1]
                            k -= 1
                        snap[k] = c
                        n += 1
                    for s in range(n):
                        c = snap[s]
                        if role[c] != COMMAND or card[BONUS, c] <= 0:
                            continue
                        if not _playable(
                            c, card, users, nodes, active, st, units, u_attack, u_equip,
                            u_alive, u_attacker, name_turn, turn,
                        ):
                            continue
                        for i in range(held):
                            if hand[i] == c:
                                held = _remove(hand, held, i)
                                break
                        active -= card[COST, c]
                        played += 1
                        if card[ONCE_A_TURN, c]:
                            name_turn[card[NAME_ID, c]] = turn
                        if card[ON_CHARACTER, c]:
                            _set_on(
                                c, card, units, u_attack, u_equip, u_alive, u_attacker, e, st,
                                u_mana,
                            )
                            hit += card[BONUS, c]
                        elif card[ON_FIELD, c]:
                            _enter(c, none, none, e, st, card)
                        else:
                            hit += card[BONUS, c]
                            _bury(c, grave, st)
                damage += hit
                if damage >= life and milestones[g, 1] == 0:
                    milestones[g, 1] = turn
            while held > hand_limit:  # discard phase: the card the pilot would set as a node
                best = 0
                for i in range(1, held):
                    if node_score[hand[i]] > node_score[hand[best]]:
                        best = i
                _bury(hand[best], grave, st)
                held = _remove(hand, held, best)
            alive = 0
            for u in range(units):
                alive += u_alive[u]
            row = metrics[g, turn - 1]
            row[0], row[1], row[2], row[3], row[4] = held, nodes, main_active, main_asleep, alive
            row[5], row[6], row[7], row[8] = ready, played, free, lost
            row[9], row[10] = damage, left
