"""東方 Phantom Magic VISION goldfish for a whole chunk of games at once: the set-up encoded as
arrays (encode.py), played by the compiled loop of fast_core.py. ``batch_ok`` (encode.py) keeps
out what this does not model: 連結 (Union) cards. A production chunk draws numba's random
numbers, seeded from the chunk's seed; ``play_tape`` plays given tapes instead
(goldfish/shuffles.py), for the exact tests."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from deckcheck.games.vision.encode import Encoded, encode
from deckcheck.games.vision.fast_core import _games
from deckcheck.games.vision.layout import COLUMNS, METRICS, MILESTONES
from deckcheck.goldfish.setup import Setup, per_setup, seed32
from deckcheck.goldfish.shuffles import Tape, no_tape

_encoded: Callable[[Setup], Encoded] = per_setup(encode)

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
    enc = _encoded(setup)
    card = np.stack([enc.cards[k] for k in COLUMNS]).astype(np.int32)
    score = np.stack([enc.cards[k] for k in ("node_score", "play_score", "rank_score")])
    metrics = np.full((games, turns, len(METRICS)), -1, dtype=np.int16)
    milestones = np.zeros((games, len(MILESTONES)), dtype=np.int16)
    mulligans = np.zeros(games, dtype=np.int32)
    loss = np.zeros(games, dtype=np.int8)
    loss_turn = np.zeros(games, dtype=np.int16)
    keep = (enc.sig, enc.bound_bit, enc.bound_k, enc.subset_mask, enc.subset_need)
    out = (metrics, milestones, mulligans, loss, loss_turn)
    _games(
        seed,
        games,
        turns,
        on_play,
        enc.deck,
        card,
        score.astype(np.int32),
        enc.user_ok,
        keep,
        enc.params,
        out,
        tape,
    )
    return metrics, milestones, mulligans, loss, loss_turn
