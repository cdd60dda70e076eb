"""An exact ``deckcheck tune`` over a pool search, as a user runs it. A script that prints
figures, not a test.

    .venv/bin/python -m benchmarks.tune_search_bench [--runs 3]

The deck: tune_bench's VISION deck (4 characters × 2 and 14 commands × 3, real cards). The
question: 霧雨 魔理沙 by turn 1, from every character of the shipped pool (``--from
type:character``), at most 2 copies changed, odds only (``--games 0``): the class of the other
characters is hundreds of cards wide. Each run is a new process (the fastest of ``--runs``),
beside the same question without the search (``deckcheck odds``: the start-up, the pool and
one count). Until issue 35 the concrete changes of that wide class were walked by a recursion
over every branch: 6.58 s for 19c4f13's command, against 0.94 s for the question alone.
Beside them, the plain-Python shuffle-and-draw loop of benchmarks/goldfish_bench.py, as games
per second.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

from benchmarks.common import DECKCHECK, command_seconds, machine, record
from benchmarks.goldfish_bench import plain_games_per_second
from benchmarks.tune_bench import ISSUE_DECK


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "issue.deck"
        deck.write_text(ISSUE_DECK + "\n", encoding="utf-8")
        db = str(Path(tmp) / "pool.sqlite3")
        subprocess.run([DECKCHECK, "pool", "init", "--db", db], check=True, capture_output=True)
        question = [str(deck), "--want", "name:霧雨 魔理沙>=1", "--turn", "1", "--games", "0"]
        question += ["--from", "name:霧雨 魔理沙", "--from", "type:character", "--db", db]
        alone = [str(deck), "-w", "name:霧雨 魔理沙>=1", "--turns", "1", "--db", db]
        search = ["tune", *question, "--max-changes", "2"]
        subprocess.run([DECKCHECK, *search], check=True, capture_output=True)  # it answers
        start_up = command_seconds(["odds", *alone], args.runs)
        took = command_seconds(search, args.runs)
    plain = plain_games_per_second(["character"] * 8 + ["command"] * 42, 20_000)
    print(f"plain Python shuffle-and-draw: {plain:,.0f} games/s")
    print(f"deckcheck odds, the same question (start-up): {start_up:.2f} s")
    record(
        "deckcheck tune --from type:character --max-changes 2, odds only (deckcheck odds of "
        f"the question {start_up:.2f} s)",
        took,
        "s",
        lower_is_better=True,
    )


if __name__ == "__main__":
    main()
