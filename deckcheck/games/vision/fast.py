"""東方 Phantom Magic VISION goldfish for a whole chunk of games at once: the set-up encoded as
arrays (encode.py), played by the compiled loop of fast_core.py. ``batch_ok`` (encode.py) keeps
out what this does not model: a 連結 (Union) command (none is printed). A production chunk
draws numba's random numbers, seeded from the chunk's seed; ``play_tape`` plays given tapes instead
(goldfish/shuffles.py), for the exact tests."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from deckcheck.games.vision.encode import PARAMS, Encoded, encode
from deckcheck.games.vision.fast_core import _games
from deckcheck.games.vision.fast_state import PARAM_COUNT
from deckcheck.games.vision.layout import COLUMNS, METRICS, MILESTONES
from deckcheck.sdk import Result, Setup, per_setup
from deckcheck.sdk import TapeArray as Tape
from deckcheck.sdk import batch_engines as entry_points

_encoded: Callable[[Setup], Encoded] = per_setup(encode)
assert len(PARAMS) == PARAM_COUNT  # fast_state.py names each number of encode.PARAMS


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
    tables = (card, score.astype(np.int32), enc.user_ok, enc.link_ok, enc.fuel_ok)
    _games(seed, on_play, enc.deck, tables, keep, enc.params, out, tape)
    return metrics, milestones, mulligans, loss, loss_turn


play_batch, play_tape = entry_points(_play)
