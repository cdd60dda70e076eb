"""Warming the goldfish batch engines: each game's engine plays one game of an example deck of
the game, which compiles it into numba's on-disk cache (``compiling.njit``) or loads it from
there, so a user's first ``deckcheck goldfish`` after ``make demo`` starts at once.

The compile is the one a user's first run would do: the same ``play_batch`` through
``run.goldfish``; numba compiles a function for its argument types, which every deck of a game
shares, so one deck warms the engine for all. ``deckcheck serve`` runs this in a child process
per game (``background``) and meanwhile sets up goldfish for the reference engine
(``compiling.pending``, read by ``run.prepare``).
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from deckcheck import decks, plugins
from deckcheck.data import examples_dir
from deckcheck.formats.registry import FormatRegistry, default_registry
from deckcheck.goldfish import compiling
from deckcheck.goldfish.common import GoldfishError
from deckcheck.goldfish.policy import default_policy
from deckcheck.goldfish.run import GoldfishRequest, goldfish, prepare
from deckcheck.i18n import _
from deckcheck.models import DeckList
from deckcheck.resolve import CardIndex

# The command that warms engines in a child process (deckcheck/cli/warm.py).
COMMAND = (sys.executable, "-m", "deckcheck.cli.warm")


def batch_games() -> list[str]:
    """The games installed that have a batch engine, in the registry's order."""
    return [game for game in plugins.ids() if plugins.get(game).play.play_batch is not None]


def example_deck(game: str, registry: FormatRegistry) -> DeckList | None:
    """The first legal example deck (``examples/*-legal.deck``) of a format of ``game``."""
    folder = examples_dir()
    for path in sorted(folder.glob("*-legal.deck")) if folder.is_dir() else []:
        deck = decks.read(path)
        if deck.format in registry.ids() and registry.get(deck.format).game == game:
            return deck
    return None


def warm_game(game: str, index_for: Callable[[list[str]], CardIndex]) -> str:
    """Play one game of ``game``'s example deck on its batch engine (compiling it, or loading
    it from the cache); returns the engine that played ("batch" when warmed). A game with no
    example deck or one its batch engine does not play is a ``GoldfishError``."""
    registry = default_registry()
    deck = example_deck(game, registry)
    if deck is None or deck.format is None:
        raise GoldfishError(_("no example deck of {game} to warm its engine with", game=game))
    fmt = registry.get(deck.format)
    index = index_for([entry.ref for entry in deck.entries])
    policy = default_policy(game)
    # the batch engine, even while a warm-up marks the game pending: this is that warm-up
    setup = dataclasses.replace(prepare(deck, fmt, index, policy), fast=True)
    return goldfish(deck, fmt, index, policy, GoldfishRequest(games=1, turns=2), setup=setup).engine


def warm(
    games_: Sequence[str],
    index_for: Callable[[list[str]], CardIndex],
    report: Callable[[str], None],
) -> bool:
    """Warm each game's engine in this process, reporting one line per game; whether all
    warmed."""
    ok = True
    for game in games_:
        start = time.perf_counter()
        try:
            engine = warm_game(game, index_for)
        except GoldfishError as exc:
            report(_("{game}: goldfish engine not warmed: {error}", game=game, error=exc))
            ok = False
            continue
        seconds = time.perf_counter() - start
        if engine == "batch":
            report(_("{game}: goldfish engine ready ({seconds:.1f} s)", game=game, seconds=seconds))
        else:
            report(_("{game}: the example deck plays on the reference engine", game=game))
            ok = False
    return ok


def _child(game: str, db: Path | None) -> subprocess.CompletedProcess[str]:
    command = [*COMMAND, "--game", game, *(["--db", str(db)] if db is not None else [])]
    return subprocess.run(command, capture_output=True, text=True, env=os.environ.copy())


def in_child(game: str, db: Path | None) -> bool:
    """Warm ``game``'s engine in a child process (``COMMAND``): the compile holds neither this
    process's GIL nor, were it to fork later, numba's locks. Whether it warmed."""
    return _child(game, db).returncode == 0


def warm_apart(
    games_: Sequence[str], db: Path | None, processes: int, report: Callable[[str], None]
) -> bool:
    """Warm ``games_`` in child processes, ``processes`` at once, in the registry's order
    (``make test`` warms on both cores: a game's compile is one process's work), reporting
    each child's lines as it ends; whether all warmed."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    ok = True
    with ThreadPoolExecutor(max_workers=processes) as pool:
        for child in as_completed([pool.submit(_child, game, db) for game in games_]):
            done = child.result()
            for line in (done.stdout + done.stderr).splitlines():
                report(line)
            ok = ok and done.returncode == 0
    return ok


def background(games_: Iterable[str], db: Path | None) -> threading.Thread:
    """Start warming ``games_`` one by one in a daemon thread, each in a child process; each
    game is ``compiling.pending`` until its warm-up ends, however it ends (a failed warm-up
    leaves the engine to compile on its first run, as without one)."""
    todo = list(games_)
    compiling.compiling(todo)

    def run() -> None:
        for game in todo:
            try:
                in_child(game, db)
            finally:
                compiling.compiled(game)

    thread = threading.Thread(target=run, name="deckcheck-warm", daemon=True)
    thread.start()
    return thread
