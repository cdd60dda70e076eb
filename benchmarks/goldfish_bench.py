"""Goldfish speed: 10-turn games per second for each game, one worker and two. A script that
prints figures, not a test.

    .venv/bin/python benchmarks/goldfish_bench.py [--games 20000]

Each game plays the legal example deck of its format with the default pilot.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from deckcheck import decks
from deckcheck.formats import default_registry
from deckcheck.goldfish.policy import default_policy
from deckcheck.goldfish.run import GoldfishRequest, prepare, simulate
from deckcheck.pool.store import Pool

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ("chaos-standard", "rakuen-standard", "vision-standard", "iris-standard")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20_000)
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )
    registry = default_registry()
    with tempfile.TemporaryDirectory() as tmp, Pool(Path(tmp) / "pool.sqlite3") as pool:
        for fmt_id in FORMATS:
            deck = decks.read(ROOT / "examples" / f"{fmt_id}-legal.deck")
            fmt = registry.get(fmt_id)
            index = pool.index_for([e.ref for e in deck.entries])
            setup = prepare(deck, fmt, index, default_policy(fmt.game))
            # iris plays whole chunks in NumPy: give it enough games to time two workers too
            games = args.games * 25 if str(fmt.game) == "iris" else args.games
            rates = []
            for workers in (1, 2):
                req = GoldfishRequest(games=games, turns=10, seed=1, workers=workers)
                start = time.perf_counter()
                tallies, _ = simulate(setup, req)
                seconds = time.perf_counter() - start
                assert sum(t.games for t in tallies) == games
                rates.append(games / seconds)
            print(
                f"{fmt.game!s:<7} 10-turn games/s: 1 worker {rates[0]:>9,.0f}   "
                f"2 workers {rates[1]:>9,.0f}   ({rates[1] / rates[0]:.2f}x, {games:,} games)"
            )


if __name__ == "__main__":
    main()
