"""The first ``deckcheck goldfish`` after ``make demo`` (issue 23): wall clock of
``deckcheck goldfish EXAMPLE --games 1000``, a new process, for each example deck, on a machine
whose numba cache holds only what ``make demo``'s warm step put there. Goal: under 3 s each.

    python -m benchmarks.first_goldfish_bench

An empty ``NUMBA_CACHE_DIR``, then the warm step as the Makefile runs it (timed too), then one
run per deck: each is the first goldfish of that deck. Beside each figure, a plain-Python
reference timed in the same run: a new Python process that reads the deck file and plays 1,000
games of the least a goldfish does (shuffle the listed cards, draw 5, then 1 a turn for 10
turns), so the ratio shows what deckcheck adds to the interpreter's own start-up.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import DECKCHECK, ROOT, machine, record

GOAL = 3.0  # seconds, each deck
PLAIN = """
import random, re, sys
cards = []
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"\\s*(\\d+)\\s*x?\\s+(\\S.*?)\\s*(#.*)?$", line)
    if m:
        cards += [m.group(2)] * int(m.group(1))
rng = random.Random(1)
for _ in range(1000):
    deck = cards[:]
    rng.shuffle(deck)
    hand = [deck.pop() for _ in range(5)]
    for _turn in range(10):
        if deck:
            hand.append(deck.pop())
"""


def deckcheck() -> list[str]:
    """The venv's ``deckcheck`` as a user runs it, else this interpreter's module."""
    return [DECKCHECK] if Path(DECKCHECK).exists() else [sys.executable, "-m", "deckcheck"]


def wall(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=False)
    return time.perf_counter() - start, done.returncode


def main() -> None:
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "demo.sqlite3")
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(tmp) / "numba")}  # empty
        subprocess.run([*deckcheck(), "pool", "init", "--db", db], env=env, check=True,
                       capture_output=True)  # fmt: skip
        warm = [sys.executable, "-m", "deckcheck.cli.warm", "--db", db]
        took, status = wall(warm, env)
        assert status == 0, "the warm step failed"
        record("make demo's warm step (compiles every engine)", took, "s", lower_is_better=True)
        for deck in sorted((ROOT / "examples").glob("*.deck")):
            command = [*deckcheck(), "goldfish", str(deck), "--games", "1000", "--db", db]
            took, status = wall(command, env)
            reference, _ = wall([sys.executable, "-c", PLAIN, str(deck)], env)
            note = "" if status == 0 else f" (exit {status})"
            record(
                f"first deckcheck goldfish {deck.name} --games 1000{note}",
                took, "s", GOAL, reference, lower_is_better=True,
            )  # fmt: skip


if __name__ == "__main__":
    main()
