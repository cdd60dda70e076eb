"""The shuffle of every batch engine, and where its random numbers come from (numba).

Every batch engine shuffles with ``shuffle`` (VISION draws lazily, one ``below`` a card, which
is the same Fisher–Yates one step at a time), and every random number it uses is a ``below``.
``rand`` is a pair (tape, at): with an empty tape (``batch.no_tape()``, every run) the
numbers come from numba's generator, seeded per chunk; with a tape they come from it, one row
per shuffle of a game, read exactly as ``common.Tape`` reads them for the reference engine. The
exact tests (tests/test_exact_*.py) give both engines the same tapes, so the game logic of the
two must produce the same records game by game, and this shuffle is checked against the
reference's Fisher–Yates on the same numbers.

``at`` = (game, row, step): the game read, the row of the shuffle under way, the next number.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from deckcheck.goldfish.compiling import njit


def cursor() -> NDArray[np.int64]:
    """A fresh ``at``: no game, no shuffle yet."""
    return np.array([0, -1, 0], dtype=np.int64)


@njit()
def below(k: int, rand: Any) -> int:
    """A uniform integer in [0, k): numba's, or the tape's next number ``u`` as
    ``u * k >> 32`` (common.Tape's rule)."""
    tape, at = rand
    if tape.shape[0] == 0:
        return np.random.randint(0, k)
    if at[2] >= tape.shape[2]:
        # compiled code cannot call the catalogue; only a test's tape reaches this line
        raise IndexError("the tape's row is shorter than the shuffle")  # i18n: machine
    u = np.int64(tape[at[0], at[1], at[2]])
    at[2] += 1
    return int((u * k) >> 32)


@njit()
def begin(game: int, rand: Any) -> None:
    """Game ``game`` starts: its first shuffle will read row 0."""
    at = rand[1]
    at[0], at[1], at[2] = game, -1, 0


@njit()
def start(rand: Any) -> None:
    """A shuffle starts: it reads the game's next row from its first number."""
    tape, at = rand
    at[1] += 1
    at[2] = 0
    if tape.shape[0] != 0 and at[1] >= tape.shape[1]:
        raise IndexError("the tape has no row left for this shuffle")  # i18n: machine


@njit()
def shuffle(a: Any, n: int, rand: Any) -> None:
    """Fisher–Yates of a[:n] from the top (the end): position i, from n - 1 down to 1, swaps
    with a uniform j in [0, i]."""
    start(rand)
    for i in range(n - 1, 0, -1):
        j = below(i + 1, rand)
        a[i], a[j] = a[j], a[i]
