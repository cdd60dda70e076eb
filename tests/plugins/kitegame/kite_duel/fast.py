"""Kite Duel's batch engine: the shuffles compiled (fast_core.py), the turns in NumPy, the same
games as the reference (engine.py) given the same tape."""

from __future__ import annotations

import numpy as np

from deckcheck.sdk import Result, Setup, TapeArray, batch_engines

GLIDER, OTHER = 0, 1


def _play(
    setup: Setup, seed: int, games: int, turns: int, on_play: bool, tape: TapeArray
) -> Result:
    from kite_duel.fast_core import deal  # numba: only when a batch runs

    rules = setup.rules
    launch = bool(getattr(setup.policy, "launch", True))
    gust = rules.param_int("gust")
    codes = np.array(
        [GLIDER if c.type == "glider" else OTHER for c, n in setup.drawable for _ in range(n)],
        dtype=np.int8,
    )
    deck = deal(codes, games, seed, tape)[:, ::-1]  # position 0: the top
    size, position = len(codes), rules.hand
    ready = (deck[:, :position] == GLIDER).sum(axis=1)
    hand = np.full(games, position)
    gliders = np.zeros(games, dtype=np.int32)
    metrics = np.full((games, turns, 3), -1, dtype=np.int16)
    milestones = np.zeros((games, 1), dtype=np.int16)
    loss = np.zeros(games, dtype=np.int8)
    loss_turn = np.zeros(games, dtype=np.int16)
    for turn in range(1, turns + 1):
        draws = len(rules.draws.before_main(turn, on_play))
        if position + draws > size:  # every game's deck holds as many cards
            loss[:], loss_turn[:] = 1, turn
            break
        for _ in range(draws):
            ready += deck[:, position] == GLIDER
            position += 1
        hand += draws
        go = (ready > 0) & (gliders < gust) if launch else np.zeros(games, dtype=bool)
        ready -= go
        hand -= go
        gliders += go
        milestones[go & (milestones[:, 0] == 0), 0] = turn
        metrics[:, turn - 1] = np.stack([hand, gliders, np.full(games, size - position)], axis=1)
    return metrics, milestones, np.zeros(games, dtype=np.int32), loss, loss_turn


play_batch, play_tape = batch_engines(_play)
