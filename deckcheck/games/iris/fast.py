"""あいりすミスティリア! goldfish for a whole chunk of games at once: the deal compiled
(fast_core.py), the turns in NumPy.

The same procedure as ``engine.play``: with no opponent and no card text, an iris game depends
only on how many cards of each type are where, so games become rows of counts once dealt. Units
are interchangeable for every statistic, which is why the pilot's unit order does not enter.
Given the same tape (``play_tape``, goldfish/shuffles.py) it plays the reference's games card
for card (tests/test_exact_iris.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np

from deckcheck.sdk import Result, Setup
from deckcheck.sdk import TapeArray as Tape
from deckcheck.sdk import batch_engines as entry_points

if TYPE_CHECKING:
    from deckcheck.games.iris import IrisPolicy

TYPES = ("unit", "strategy", "tactic", "enhancement")
UNIT, STRATEGY, TACTIC, ENHANCEMENT, OTHER = range(5)  # OTHER: a card never played (a blank)
MAX_REDRAW_ROUNDS = 100_000


def _code(card_type: str) -> int:
    return TYPES.index(card_type) if card_type in TYPES else OTHER


def _play(setup: Setup, seed: int, games: int, turns: int, on_play: bool, tape: Tape) -> Result:
    """The deal in numba (the reference's shuffles and redraws), then the turns in NumPy."""
    from deckcheck.games.iris.fast_core import deal  # numba: only when a batch runs

    main, hand_size = setup.drawable, setup.rules.hand
    standby_slots = setup.rules.param_int("standby_slots")
    policy = cast("IrisPolicy", setup.policy)
    codes = np.array([_code(c.type) for c, n in main for _ in range(n)], dtype=np.int8)
    size = len(codes)
    decks, mulligans = deal(codes, UNIT, hand_size, games, seed, tape, MAX_REDRAW_ROUNDS)
    deck = decks[:, ::-1]  # draw order: position 0 is the top
    hand = np.stack([(deck[:, :hand_size] == k).sum(axis=1) for k in range(OTHER + 1)], axis=1)
    hand[:, UNIT] -= 1  # one unit face down in the main area
    rows = np.arange(games)
    standby = np.zeros(games, dtype=np.int32)
    charges = np.zeros(games, dtype=np.int32)
    commands = np.zeros(games, dtype=np.int32)
    metrics = np.full((games, turns, 6), -1, dtype=np.int16)  # small counts: less to send
    milestones = np.zeros((games, 1), dtype=np.int16)
    loss = np.zeros(games, dtype=np.int8)
    loss_turn = np.zeros(games, dtype=np.int16)
    position = hand_size  # the next card drawn
    for turn in range(1, turns + 1):
        drawn = len(setup.rules.draws.before_main(turn, on_play))  # engine.play's draw
        if position + drawn > size:  # a draw the deck cannot give loses (every game alike)
            loss[:] = 1
            loss_turn[:] = turn
            break
        for _ in range(drawn):
            np.add.at(hand, (rows, deck[:, position]), 1)
            position += 1
        if policy.charge:
            charges += 1
        entered = np.minimum(hand[:, UNIT], standby_slots - standby)
        standby += entered
        hand[:, UNIT] -= entered
        full = (standby >= standby_slots) & (milestones[:, 0] == 0)
        milestones[full, 0] = turn
        if policy.use_commands:
            strategy = np.minimum(hand[:, STRATEGY], 1)  # one strategy a turn
            hand[:, STRATEGY] -= strategy
            commands += strategy + hand[:, TACTIC]  # any number of tactics
            hand[:, TACTIC] = 0
            if turn > 1:  # enhancements on units that did not enter this turn
                targets = 1 + standby - entered
                used = np.minimum(hand[:, ENHANCEMENT], targets)
                hand[:, ENHANCEMENT] -= used
                commands += used
        metrics[:, turn - 1] = np.stack(
            [
                hand.sum(axis=1),
                1 + standby,
                standby,
                charges,
                commands,
                np.full(games, size - position),
            ],
            axis=1,
        )
    return metrics, milestones, mulligans, loss, loss_turn


play_batch, play_tape = entry_points(_play)
