"""Where numba spends the warm step's compile time, per game (issue 35, item 5). A script that
prints figures, not a test.

    .venv/bin/python -m benchmarks.compile_bench [--game vision] [--top 12]

Each game is warmed as ``python -m deckcheck.cli.warm`` warms it (goldfish/warm.py
``warm_game``), in a new process with an empty ``NUMBA_CACHE_DIR``, while numba's
``numba:compile`` events are recorded: per compiled function, how many specialisations were
compiled and the CPU seconds spent in its own compilation (its callees' compilations taken
off). The warm's wall and CPU seconds are both recorded: on a loaded machine (other jobs on
the cores) the wall time drifts, the process's CPU time much less.
A function compiled more than once was called with different argument types (numba's literal
ints count as types of their own): each one costs a compilation.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, machine, record

GAMES = ("chaos", "rakuen", "vision", "iris")


class Recorder:
    """numba's compile events as (function, CPU seconds in all, CPU seconds of its own)."""

    def __init__(self) -> None:
        self.stack: list[tuple[str, float, list[float]]] = []
        self.rows: list[tuple[str, float, float]] = []

    def start(self, event: Any) -> None:
        name = event.data["dispatcher"].py_func.__qualname__
        self.stack.append((name, time.process_time(), [0.0]))

    def end(self, _event: Any) -> None:
        name, start, callees = self.stack.pop()
        seconds = time.process_time() - start
        if self.stack:
            self.stack[-1][2][0] += seconds
        self.rows.append((name, seconds, seconds - callees[0]))


def child(game: str, top: int) -> None:
    """In the new process: warm ``game`` and print its compile profile."""
    from numba.core import event

    from deckcheck.goldfish.warm import warm_game
    from deckcheck.pool.store import Pool

    recorder = Recorder()
    listener = type(
        "Listener",
        (event.Listener,),
        {
            "on_start": lambda _self, ev: recorder.start(ev),
            "on_end": lambda _self, ev: recorder.end(ev),
        },
    )
    event.register("numba:compile", listener())  # type: ignore[no-untyped-call]
    start, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as tmp, Pool(Path(tmp) / "pool.sqlite3") as pool:
        line = warm_game(game, pool.index_for)
    total, cpu = time.perf_counter() - start, time.process_time() - cpu
    own: dict[str, list[float]] = {}
    for name, _seconds, mine in recorder.rows:
        row = own.setdefault(name, [0, 0.0])
        row[0] += 1
        row[1] += mine
    print(
        f"{game}: warm {total:.1f} s, {cpu:.1f} CPU-s ({line}); {len(recorder.rows)} compilations"
    )
    for name, (n, mine) in sorted(own.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"  {name[:48]:<48} {int(n):>3} compiled, own {mine:6.2f} CPU-s")
    print(f"TOTAL {total} {cpu}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.top)
        return
    print(f"machine: {machine()}")
    for game in args.game or GAMES:
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
            command = [sys.executable, "-m", "benchmarks.compile_bench", "--child", game]
            command += ["--top", str(args.top)]
            done = subprocess.run(
                command, cwd=ROOT, env=env, capture_output=True, text=True, check=False
            )
        lines = done.stdout.splitlines()
        print("\n".join(line for line in lines if not line.startswith("TOTAL ")))
        totals = [line.split()[1:] for line in lines if line.startswith("TOTAL ")]
        if done.returncode or not totals:
            print(f"{game}: failed\n{done.stderr[-2000:]}")
            continue
        record(f"warm step compile, {game}", float(totals[0][0]), "s", lower_is_better=True)
        record(f"warm step compile, {game}, CPU", float(totals[0][1]), "s", lower_is_better=True)


if __name__ == "__main__":
    main()
