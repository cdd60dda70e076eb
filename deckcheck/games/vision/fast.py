"""東方 Phantom Magic VISION goldfish for a whole chunk of games at once, compiled by numba.

The same procedure as ``engine.play`` (the reference engine, which the tests hold it to, turn by
turn, within sampling error), on card indices (encode.py): the hand is kept in draw order and
every choice takes the first card of the best score, as the reference's ``min``/``max`` take the
first of the best key. Draws take a uniform card of what is left of the deck (a shuffle drawn
lazily); a mulligan puts the hand back. ``batch_ok`` (encode.py) keeps out what this does not
model: 連結 (Union) cards.
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np
from numpy.typing import NDArray

from deckcheck.games.vision import METRICS, MILESTONES
from deckcheck.games.vision.encode import Encoded, encode
from deckcheck.goldfish.setup import Setup, per_setup, seed32

CHARACTER, CREATURE, SPELL, COMMAND = range(4)

_encoded: Callable[[Setup], Encoded] = per_setup(encode)


@numba.njit(cache=True)
def _draw(deck, left):  # type: ignore[no-untyped-def]
    """A uniform card of deck[:left], moved to deck[left - 1]."""
    j = np.random.randint(0, left)
    card = deck[j]
    deck[j] = deck[left - 1]
    deck[left - 1] = card
    return card


@numba.njit(cache=True)
def _meets(hand, held, sig, bound_bit, bound_k, subset_mask, subset_need):  # type: ignore[no-untyped-def]
    """Keep.meets: the bounds, then Hall's condition on every subset of the demands."""
    for b in range(bound_bit.shape[0]):
        n = 0
        for i in range(held):
            n += (sig[hand[i]] >> bound_bit[b]) & 1
        if n > bound_k[b]:
            return False
    for s in range(subset_mask.shape[0]):
        n = 0
        for i in range(held):
            if sig[hand[i]] & subset_mask[s]:
                n += 1
        if n < subset_need[s]:
            return False
    return True


@numba.njit(cache=True)
def _playable(c, card, nodes, active, units, u_card, leaders_in, leaders, user_ok):  # type: ignore[no-untyped-def]
    """engine.playable for a deck without 連結; ``card`` holds the per-card columns."""
    if card[8, c] or card[1, c] > nodes or card[2, c] > active:  # never, node, cost
        return False
    if card[6, c] and leaders_in >= leaders:
        return False
    if card[9, c]:  # ラストワード: its 術者 on the field
        found = False
        for u in range(units):
            if user_ok[c, u_card[u]]:
                found = True
                break
        if not found:
            return False
    return not (card[5, c] and units == 0)  # 装備 / 呪符: on a character of yours


@numba.njit(cache=True)
def _remove(hand, held, i):  # type: ignore[no-untyped-def]
    for k in range(i, held - 1):
        hand[k] = hand[k + 1]
    return held - 1


@numba.njit(cache=True)
def _games(  # type: ignore[no-untyped-def]
    seed, games, turns, on_play, deck, card, score, users, keep, params, out
):
    """Play ``games`` games into ``out`` = (metrics, milestones, mulligans, loss, loss_turn)."""
    metrics, milestones, mulligans, loss, loss_turn = out
    sig, bound_bit, bound_k, subset_mask, subset_need = keep
    np.random.seed(seed)
    hand_size, draw_per_turn, first_draws, mulligan = params[0], params[1], params[2], params[3]
    node_per_turn, node_until, per_turn, leaders, life = (
        params[4],
        params[5],
        params[6],
        params[7],
        params[8],
    )
    size = deck.shape[0]
    hand = np.empty(size, dtype=np.int32)
    snap = np.empty(size, dtype=np.int32)
    u_card = np.empty(size, dtype=np.int32)
    u_attack = np.empty(size, dtype=np.int32)
    u_turn = np.empty(size, dtype=np.int32)
    u_haste = np.empty(size, dtype=np.int32)
    node_score, play_score, rank_score = score[0], score[1], score[2]
    kind, cost, attack, bonus, haste, leader = card[0], card[2], card[3], card[4], card[7], card[6]
    on_character = card[5]
    for g in range(games):
        left = size
        held = min(hand_size, size)
        for i in range(held):
            hand[i] = _draw(deck, left)
            left -= 1
        if mulligan and not _meets(hand, held, sig, bound_bit, bound_k, subset_mask, subset_need):
            left = size  # the hand goes back; a new one from the whole deck
            for i in range(held):
                hand[i] = _draw(deck, left)
                left -= 1
            mulligans[g] = 1
        nodes = units = leaders_in = damage = 0
        for turn in range(1, turns + 1):
            if not (turn == 1 and on_play and not first_draws):
                out_of_cards = False
                for _ in range(draw_per_turn):
                    if left == 0:
                        out_of_cards = True
                        break
                    hand[held] = _draw(deck, left)
                    left -= 1
                    held += 1
                if out_of_cards:
                    loss[g] = 1  # deck-out
                    loss_turn[g] = turn
                    break
            active = nodes
            for _ in range(node_per_turn):
                if held == 0 or nodes >= node_until:
                    break
                best = 0
                for i in range(1, held):
                    if node_score[hand[i]] > node_score[hand[best]]:
                        best = i
                held = _remove(hand, held, best)
                nodes += 1
                active += 1
            for k in range(1, 8):
                if nodes >= k and milestones[g, 1 + k] == 0:
                    milestones[g, 1 + k] = turn
            ready = 0
            for i in range(held):
                if _playable(
                    hand[i], card, nodes, active, units, u_card, leaders_in, leaders, users
                ):
                    ready += 1
            played = characters = 0
            while True:  # main phase
                best = -1
                for i in range(held):
                    c = hand[i]
                    if kind[c] == COMMAND or (kind[c] == CHARACTER and characters >= per_turn):
                        continue
                    if best >= 0 and play_score[c] >= play_score[hand[best]]:
                        continue
                    if _playable(c, card, nodes, active, units, u_card, leaders_in, leaders, users):
                        best = i
                if best < 0:
                    break
                c = hand[best]
                held = _remove(hand, held, best)
                active -= cost[c]
                played += 1
                if kind[c] == CHARACTER or kind[c] == CREATURE:
                    if kind[c] == CHARACTER:
                        characters += 1
                    u_card[units] = c
                    u_attack[units] = attack[c]
                    u_turn[units] = turn
                    u_haste[units] = haste[c]
                    units += 1
                    leaders_in += leader[c]
                elif on_character[c]:
                    strongest = 0
                    for u in range(1, units):
                        if u_attack[u] > u_attack[strongest]:
                            strongest = u
                    u_attack[strongest] += bonus[c]
            if characters and milestones[g, 0] == 0:
                milestones[g, 0] = turn
            if not (turn == 1 and on_play):  # battle
                hit = attackers = 0
                for u in range(units):
                    if u_turn[u] < turn or u_haste[u]:
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
                        if kind[c] != COMMAND or bonus[c] <= 0:
                            continue
                        if not _playable(
                            c, card, nodes, active, units, u_card, leaders_in, leaders, users
                        ):
                            continue
                        for i in range(held):
                            if hand[i] == c:
                                held = _remove(hand, held, i)
                                break
                        active -= cost[c]
                        played += 1
                        hit += bonus[c]
                damage += hit
                if damage >= life and milestones[g, 1] == 0:
                    milestones[g, 1] = turn
            row = metrics[g, turn - 1]
            row[0], row[1], row[2], row[3] = held, nodes, units, ready
            row[4], row[5], row[6] = played, damage, left


COLUMNS = ("kind", "node", "cost", "attack", "bonus", "on_character", "leader", "haste", "never")


def play_batch(
    setup: Setup, seed: int, games: int, turns: int, on_play: bool
) -> tuple[
    NDArray[np.int16], NDArray[np.int16], NDArray[np.int32], NDArray[np.int8], NDArray[np.int16]
]:
    """(metrics, milestones, mulligans, loss, loss_turn) as ``run.Chunk`` holds them."""
    enc = _encoded(setup)
    card = np.stack([enc.cards[k] for k in (*COLUMNS, "has_user")]).astype(np.int32)
    score = np.stack([enc.cards[k] for k in ("node_score", "play_score", "rank_score")])
    metrics = np.full((games, turns, len(METRICS)), -1, dtype=np.int16)
    milestones = np.zeros((games, len(MILESTONES)), dtype=np.int16)
    mulligans = np.zeros(games, dtype=np.int32)
    loss = np.zeros(games, dtype=np.int8)
    loss_turn = np.zeros(games, dtype=np.int16)
    keep = (enc.sig, enc.bound_bit, enc.bound_k, enc.subset_mask, enc.subset_need)
    out = (metrics, milestones, mulligans, loss, loss_turn)
    _games(
        seed32(seed),
        games,
        turns,
        on_play,
        enc.deck.copy(),
        card,
        score.astype(np.int32),
        enc.user_ok,
        keep,
        enc.params,
        out,
    )
    return metrics, milestones, mulligans, loss, loss_turn
