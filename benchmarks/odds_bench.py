"""Odds engine speed. A script that prints figures, not a test.

    .venv/bin/python benchmarks/odds_bench.py [--runs 30] [--hands 2000000]

1. An exact three-condition, ten-turn question on the rakuen example deck with the rakuen
   bottom mulligan, timed cold (every memo cleared before each run) and warm, in-process.
2. Monte Carlo opening hands per second (NumPy, the engine's simulator) beside a plain-Python
   `random.sample` loop dealing the same hands, timed in the same run.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path

from deckcheck import decks
from deckcheck.formats import default_registry
from deckcheck.odds import exact
from deckcheck.odds.api import deck_cards
from deckcheck.odds.conditions import parse_conditions
from deckcheck.odds.setup import drawable, problem_of, rules_of, timeline
from deckcheck.odds.simulate import Simulator
from deckcheck.pool.store import Pool

ROOT = Path(__file__).resolve().parent.parent
WANT = ["type:paradox>=1", "kind:合理体>=1", "level<=1>=2"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--hands", type=int, default=2_000_000)
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )

    deck = decks.read(ROOT / "examples" / "rakuen-standard-legal.deck")
    fmt = default_registry().get("rakuen-standard")
    with tempfile.TemporaryDirectory() as tmp, Pool(Path(tmp) / "pool.sqlite3") as pool:
        index = pool.index_for([e.ref for e in deck.entries])
    rules = rules_of(fmt)
    cards, _ = drawable(deck_cards(deck, fmt, index), fmt, None)
    problem = problem_of(cards, parse_conditions(WANT, fmt.game), None)
    line = timeline(rules, 10, True, False)

    cold, warm = [], []
    for _ in range(args.runs):
        exact.clear_caches()
        start = time.perf_counter()
        answer = exact.exact_rows(problem, line, "bottom-once", False)
        cold.append(time.perf_counter() - start)
        start = time.perf_counter()
        exact.exact_rows(problem, line, "bottom-once", False)
        warm.append(time.perf_counter() - start)
    print(
        f"exact: {' & '.join(WANT)}, 10 turns, rakuen bottom mulligan "
        f"({len(problem.sizes)} groups + rest)"
    )
    print(f"  turn 10: {answer[-1]:.6f}; turn 0: {answer[0]:.6f}")
    print(
        f"  cold: median {statistics.median(cold) * 1e3:.2f} ms, "
        f"min {min(cold) * 1e3:.2f} ms over {args.runs} runs"
    )
    print(f"  warm: median {statistics.median(warm) * 1e3:.2f} ms")

    sim = Simulator(problem, rules, seed=1)
    sim.opening_hands(1000)
    start = time.perf_counter()
    hands = sim.opening_hands(args.hands)
    numpy_s = time.perf_counter() - start
    assert hands.sum(axis=1).max() == rules.hand

    labels = [g for g, n in enumerate([*problem.sizes, problem.rest]) for _ in range(n)]
    groups = len(problem.sizes) + 1
    rng = random.Random(1)
    plain_n = max(args.hands // 20, 10_000)
    start = time.perf_counter()
    for _ in range(plain_n):
        counts = [0] * groups
        for card in rng.sample(labels, rules.hand):
            counts[card] += 1
    plain_s = time.perf_counter() - start
    fast, slow = args.hands / numpy_s, plain_n / plain_s
    print(f"monte carlo opening hands: {fast:,.0f} hands/s (NumPy, {args.hands:,} hands)")
    print(f"plain Python random.sample loop: {slow:,.0f} hands/s ({plain_n:,} hands)")
    print(f"ratio: {fast / slow:.1f}x")


if __name__ == "__main__":
    main()
