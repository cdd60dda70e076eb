"""ChaosTCG goldfish for a whole chunk of games at once: the set-up encoded as arrays
(encode.py), played by the compiled loop of fast_core.py (numba), the same procedure as
``engine.play``. A production chunk draws numba's random numbers, seeded from the chunk's seed;
``play_tape`` plays given tapes instead (goldfish/shuffles.py), for the exact tests."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from deckcheck.games.chaos.encode import encoded
from deckcheck.games.chaos.fast_core import _games
from deckcheck.games.chaos.layout import INTS
from deckcheck.goldfish.setup import Setup, seed32
from deckcheck.goldfish.shuffles import Tape, no_tape

Result = tuple[
    NDArray[np.int16], NDArray[np.int16], NDArray[np.int32], NDArray[np.int8], NDArray[np.int16]
]


def play_batch(setup: Setup, seed: int, games: int, turns: int, on_play: bool) -> Result:
    """(metrics, milestones, mulligans, loss, loss_turn) as ``run.Chunk`` holds them."""
    return _play(setup, seed32(seed), games, turns, on_play, no_tape())


def play_tape(setup: Setup, tape: Tape, turns: int, on_play: bool) -> Result:
    """``play_batch`` of one game per row of ``tape`` (games, rows, width), each reading its
    shuffles from it (the exact tests)."""
    return _play(setup, 0, tape.shape[0], turns, on_play, tape)


def _play(setup: Setup, seed: int, games: int, turns: int, on_play: bool, tape: Tape) -> Result:
    enc = encoded(setup)
    if enc is None:
        raise ValueError("the batch engine does not play this set-up (see encode.batch_ok)")
    assert len(INTS) == len(enc.ints)
    out = _games(
        seed, games, turns, on_play, enc.deck, enc.flags, enc.names, enc.rank, enc.key,
        enc.sig, enc.bounds, enc.hall, enc.extra_card, enc.extra_count, enc.meets, enc.nparts,
        enc.partner, enc.ints, tape,
    )  # fmt: skip
    metrics, milestones, mulligans, loss, loss_turn = out
    return metrics, milestones, mulligans, loss, loss_turn
