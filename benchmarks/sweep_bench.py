"""Sweep throughput, as users run it: ``deckcheck sweep`` in-process and with ``--cluster
local:2`` (a LocalCluster of two worker processes), as new processes, start-up included.
A script that prints figures, not a test.

    .venv/bin/python -m benchmarks.sweep_bench [--games 20000]

The sweep: the rakuen example deck's paradox mix (SAMPLE-R-P01 1..4 copies, SAMPLE-R-P02
filling the 8 paradox slots) — 4 variants × --games ten-turn goldfish games. Beside it: the
plain-Python goldfish loop of benchmarks/goldfish_bench.py, as games per second.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from benchmarks.common import ROOT, command_seconds, machine, record
from benchmarks.goldfish_bench import plain_games_per_second

DECK = ROOT / "examples" / "rakuen-standard-legal.deck"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20_000)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "pool.sqlite3")
        ask = [
            "sweep",
            str(DECK),
            "--vary",
            "name:SAMPLE-R-P01=1..4",
            "--fill",
            "SAMPLE-R-P02",
            "--games",
            str(args.games),
            "--turns",
            "10",
            "--json",
            "--db",
            db,
        ]
        command_seconds(["pool", "init", "--db", db], repeat=1)
        local = command_seconds(ask, repeat=1)
        cluster = command_seconds([*ask, "--cluster", "local:2"], repeat=1)
    games = 4 * args.games
    start = time.perf_counter()
    plain = plain_games_per_second(["member"] * 42 + ["paradox"] * 8, 20_000)
    _ = time.perf_counter() - start
    record("sweep in-process, 4 variants", games / local, "games/s", None, plain)
    record("sweep --cluster local:2", games / cluster, "games/s", None, plain)
    print(f"--cluster local:2 / in-process: {local / cluster:.2f}x")


if __name__ == "__main__":
    main()
