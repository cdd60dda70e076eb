"""What the batch engines' entry points share: a run plays numba's random numbers from the
chunk's seed, a test plays a tape (goldfish/shuffles.py), through the same compiled function.

NumPy only: ``games/<game>/fast.py`` imports this before it needs numba."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from deckcheck.goldfish.setup import Setup, seed32

Tape = NDArray[np.uint32]  # (games, rows, width): one row of numbers per shuffle of a game
Result = tuple[
    NDArray[np.int16], NDArray[np.int16], NDArray[np.int32], NDArray[np.int8], NDArray[np.int16]
]
# (setup, 32-bit seed, games, turns, on_play, tape) → (metrics, milestones, mulligans, loss,
# loss_turn) as ``run.Chunk`` holds them
Play = Callable[[Setup, int, int, int, bool, Tape], Result]
BatchEngine = Callable[[Setup, int, int, int, bool], Result]  # the spec's play_batch
TapeEngine = Callable[[Setup, Tape, int, bool], Result]


def no_tape() -> Tape:
    """The tape of a run: none, numba's generator draws."""
    return np.zeros((0, 0, 0), dtype=np.uint32)


def entry_points(play: Play) -> tuple[BatchEngine, TapeEngine]:
    """(play_batch, play_tape) of a game's ``play``: ``play_batch(setup, seed, games, turns,
    on_play)``, the spec's batch engine, and ``play_tape(setup, tape, turns, on_play)``, one
    game per row of ``tape``, each reading its shuffles from it (the exact tests)."""

    def play_batch(setup: Setup, seed: int, games: int, turns: int, on_play: bool) -> Result:
        return play(setup, seed32(seed), games, turns, on_play, no_tape())

    def play_tape(setup: Setup, tape: Tape, turns: int, on_play: bool) -> Result:
        return play(setup, 0, tape.shape[0], turns, on_play, tape)

    return play_batch, play_tape
