"""Goldfish speed: 10-turn games per second for each game through the public call
``goldfish.run.goldfish``, one worker and two. A script that prints figures, not a test.

    .venv/bin/python -m benchmarks.goldfish_bench [--games 20000]

Each game plays the legal example deck of its format with the default pilot. Beside each
figure: a plain-Python reference timed in the same run, the least a goldfish does (shuffle the
deck with random.shuffle, draw the opening hand and one card a turn for 10 turns, count the
cards of one type in hand), as games per second. The output says which engine ran.

Then the time of one batch chunk (``GameSpec.play.batch_size`` games) of ``MAX_TURNS`` turns: a
cancelled job stops at the end of its chunk, so this bounds how long it plays on.

Then, unless ``--no-compile``, ``deckcheck goldfish`` of 1,000 games as a user runs it (a new
process) for each numba engine, with an empty numba cache (what the first run on a machine
waits for: the engine's compilation) and again with the cache that run filled.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks.common import DECKCHECK, ROOT, machine, record
from deckcheck import decks, plugins
from deckcheck.formats.registry import default_registry
from deckcheck.goldfish.run import MAX_TURNS, GoldfishRequest, chunks, goldfish, play_chunk, prepare
from deckcheck.goldfish.setup import Setup
from deckcheck.pool.store import Pool

FORMATS = ("chaos-standard", "rakuen-standard", "vision-standard", "iris-standard")
GOALS = {
    "chaos-standard": 50_000,
    "rakuen-standard": 20_000,
    "vision-standard": 50_000,
    "iris-standard": 50_000,
}


def plain_games_per_second(types: list[str], games: int) -> float:
    rng = random.Random(1)
    first = types[0]
    start = time.perf_counter()
    for _ in range(games):
        deck = types[:]
        rng.shuffle(deck)
        hand = [deck.pop() for _ in range(5)]
        for _turn in range(10):
            hand.append(deck.pop())
            sum(1 for t in hand if t == first)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--no-compile", action="store_true", help="skip the compile timing")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    registry = default_registry()
    with tempfile.TemporaryDirectory() as tmp, Pool(Path(tmp) / "pool.sqlite3") as pool:
        for fmt_id in FORMATS:
            deck = decks.read(ROOT / "examples" / f"{fmt_id}-legal.deck")
            fmt = registry.get(fmt_id)
            index = pool.index_for([e.ref for e in deck.entries])
            spec = plugins.get(fmt.game)
            policy = spec.play.default_policy
            setup = prepare(deck, fmt, index, policy)
            n = args.games * 25 if spec.play.play_batch is not None else args.games
            # the first batch call loads (or, in a new checkout, compiles) the numba engine:
            # a one-time cost, timed and reported apart from the games per second
            start = time.perf_counter()
            goldfish(deck, fmt, index, policy, GoldfishRequest(games=200, turns=10), setup=setup)
            record(
                f"goldfish {fmt.game}: first call (engine load)",
                time.perf_counter() - start,
                "s",
                lower_is_better=True,
            )
            rates = []
            engine = ""
            for workers in (1, 2):
                req = GoldfishRequest(games=n, turns=10, seed=1, workers=workers)
                start = time.perf_counter()
                result = goldfish(deck, fmt, index, policy, req, setup=setup)
                rates.append(n / (time.perf_counter() - start))
                assert result.games == n
                engine = getattr(result, "engine", "") or engine
            types = [c.type for c, k in setup.drawable for _ in range(k)]
            plain = plain_games_per_second(types, max(args.games, 20_000))
            label = f"goldfish {fmt.game}" + (f" ({engine})" if engine else "")
            record(f"{label}, 1 worker", rates[0], "games/s", GOALS[fmt_id], plain)
            record(f"{label}, 2 workers", rates[1], "games/s", None, plain)
            if spec.play.play_batch is not None:
                chunk_time(fmt.game, setup)
        if not args.no_compile:
            compile_times(Path(tmp))


def chunk_time(game: str, setup: Setup) -> None:
    """One batch chunk of ``MAX_TURNS`` turns, best of three: what a cancel may wait for."""
    start, seeds = chunks(setup, setup.spec.play.batch_size, 1)[0]
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        play_chunk(setup, start, seeds, MAX_TURNS, True)
        best = min(best, time.perf_counter() - began)
    label = f"goldfish {game}: one chunk of {len(seeds):,} games, {MAX_TURNS} turns"
    record(label, best, "s", lower_is_better=True)


def compile_times(folder: Path) -> None:
    """``deckcheck goldfish`` with an empty numba cache, then with the cache it filled."""
    db = folder / "cli.sqlite3"
    subprocess.run([DECKCHECK, "pool", "init", "--db", str(db)], check=True, capture_output=True)
    for fmt_id in FORMATS:  # every batch engine compiles (iris: its deal)
        env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / f"numba-{fmt_id}")}
        deck = ROOT / "examples" / f"{fmt_id}-legal.deck"
        command = [DECKCHECK, "goldfish", str(deck), "--games", "1000", "--db", str(db)]
        times = []
        for _ in range(2):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, env=env)
            times.append(time.perf_counter() - start)
        game = fmt_id.split("-")[0]
        record(
            f"deckcheck goldfish {game}, first run (compiles)", times[0], "s", lower_is_better=True
        )
        record(f"deckcheck goldfish {game}, later runs", times[1], "s", lower_is_better=True)


if __name__ == "__main__":
    main()
