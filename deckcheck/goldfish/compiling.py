"""Why a run's first chunk can be slow: a batch engine's first run on a machine compiles it.

A loaded batch engine plays its first chunk in well under a second; one that takes longer is
being compiled (numba, on the engine's first run on a machine: up to a minute), and the user is
told so rather than left before a silent terminal. Timed, not predicted: numba's cache is its
own business, and whatever the reason for the wait, the notice only comes when there is one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

NOTICE_AFTER = 2.0  # seconds
_STARTED: set[str] = set()  # the games whose batch engine has played a chunk in this process


@contextmanager
def first_chunk(game: str, batch: bool, notice: Callable[[str], None] | None) -> Iterator[None]:
    """Around the wait for a run's first chunk: ``notice`` is called if the wait is long the
    first time this process runs ``game``'s batch engine (``batch``: that engine runs)."""
    if notice is None or not batch or game in _STARTED:
        yield
        return
    message = (
        f"the {game} goldfish engine is compiled on its first run on a machine "
        "(once, up to a minute; later runs load it at once)…"
    )
    timer = threading.Timer(NOTICE_AFTER, notice, [message])
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
    _STARTED.add(game)
