"""ChaosTCG goldfish for a whole chunk of games at once: the set-up encoded as arrays
(encode.py), played by the compiled loop of fast_core.py (numba), the same procedure as
``engine.play``. A production chunk draws numba's random numbers, seeded from the chunk's seed;
``play_tape`` plays given tapes instead (goldfish/shuffles.py), for the exact tests."""

from __future__ import annotations

from deckcheck.games.chaos.encode import encoded
from deckcheck.games.chaos.fast_core import _games
from deckcheck.games.chaos.fast_state import I_FIRST_ATTACK
from deckcheck.games.chaos.layout import INTS
from deckcheck.sdk import Result, Setup
from deckcheck.sdk import TapeArray as Tape
from deckcheck.sdk import batch_engines as entry_points


def _play(setup: Setup, seed: int, games: int, turns: int, on_play: bool, tape: Tape) -> Result:
    enc = encoded(setup)
    if enc is None:
        raise ValueError(
            "the batch engine does not play this set-up (see encode.batch_ok)"  # i18n: machine
        )
    assert len(INTS) == len(enc.ints) == I_FIRST_ATTACK + 1  # fast_state.py names each
    cards = (enc.flags, enc.names, enc.rank, enc.key)
    keep = (enc.sig, enc.bounds, enc.hall)
    extras = (enc.extra_card, enc.extra_count, enc.meets, enc.nparts)
    run = (seed, games, turns, on_play)
    out = _games(run, enc.deck, cards, keep, extras, enc.partner, enc.ints, tape)
    metrics, milestones, mulligans, loss, loss_turn = out
    return metrics, milestones, mulligans, loss, loss_turn


play_batch, play_tape = entry_points(_play)
