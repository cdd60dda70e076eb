"""Validator throughput, import time and CLI latency. A script that prints figures, not a test.

    .venv/bin/python benchmarks/validate_bench.py [--cards 20000] [--decks 10000] [--cli-runs 10]

1. Writes a synthetic 20,000-card pool (5,000 cards per game) as CSV and imports it into a new
   SQLite pool: one transaction, every row checked.
2. Builds 10,000 random chaos decks of 50 main + 10 extra cards (a third of them illegal in
   some way) as deck-list text, then times parsing + validation in-process on one core, and
   validation alone on pre-parsed lists.
3. Times `deckcheck validate` on one deck as a user runs it (new process each time).
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deckcheck import decklist
from deckcheck.api import paused_gc, validate_decks
from deckcheck.formats import default_registry
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from deckcheck.validate import validate

COLUMNS = ["game", "number", "name", "type", "title", "append", "keywords", "gate_number", "level"]
TYPES = {
    "chaos": ["chara"] * 6 + ["partner", "set", "event", "extra", "extra"],
    "rakuen": ["member"] * 6 + ["tactics", "paradox", "gate"],
    "vision": ["character", "spell", "command"],
    "iris": ["unit", "unit", "strategy", "tactic", "enhancement"],
}
TITLES = ["STEINS;GATE", "CHAOS;HEAD", "ToHeart2", "CLANNAD", "ゆるゆり", "アマカノ"]


def write_pool(path: Path, per_game: int, rng: random.Random) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, COLUMNS)
        writer.writeheader()
        for game, types in TYPES.items():
            for i in range(per_game):
                writer.writerow({
                    "game": game,
                    "number": f"BENCH-{game[:2].upper()}-{i:05}",
                    "name": f"ベンチ{game}カード {i:05}",
                    "type": types[i % len(types)],
                    "title": TITLES[i % len(TITLES)] if game == "chaos" else "",
                    "append": "ソルラルチャージ" if game == "chaos" and i % 97 == 0 else "",
                    "keywords": "パートナーにできない" if i % 89 == 0 else "",
                    "gate_number": str(i % 8 + 1) if types[i % len(types)] == "gate" else "",
                    "level": str(i % 4),
                })  # fmt: skip


def chaos_deck(
    rng: random.Random, charas: list[str], extras: list[str], partners: list[str]
) -> str:
    lines = ["format: chaos-standard", "[main]", f"1 {rng.choice(partners)}"]
    chosen = rng.sample(charas, 13)
    counts = [4] * 12 + [1]
    if rng.random() < 0.33:  # some decks break a rule: a fifth copy or a card short
        counts[rng.randrange(13)] += rng.choice([1, -1])
    lines += [f"{n} {ref}" for n, ref in zip(counts, chosen, strict=True)]
    lines += ["[extra]"] + [f"2 {ref}" for ref in rng.sample(extras, 5)]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=20_000)
    parser.add_argument("--decks", type=int, default=10_000)
    parser.add_argument("--cli-runs", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(20261129)
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cards_csv = folder / "bench.csv"
        write_pool(cards_csv, args.cards // len(TYPES), rng)
        with Pool(folder / "bench.sqlite3", fill=False) as pool:
            start = time.perf_counter()
            result = pool.import_files([cards_csv])
            elapsed = time.perf_counter() - start
            print(
                f"import: {result.added} cards in {elapsed:.2f} s "
                f"({result.added / elapsed:,.0f} cards/s, one transaction)"
            )
            cards = pool.all_cards()
            start = time.perf_counter()
            index = CardIndex(cards)
            print(f"index: {len(index)} cards in {time.perf_counter() - start:.2f} s")
            chaos = [c for c in cards if c.game.value == "chaos"]
            charas = [c.number for c in chaos if c.type == "chara"]
            extras = [c.number for c in chaos if c.type == "extra" and not c.append]
            partners = [c.number for c in chaos if c.type == "partner" and not c.keywords]

        texts = [chaos_deck(rng, charas, extras, partners) for _ in range(args.decks)]
        fmt = default_registry().get("chaos-standard")
        n = len(texts)
        registry = default_registry()
        start = time.perf_counter()
        with paused_gc():  # as the CLI reads deck files
            parsed = [decklist.parse_text(t) for t in texts]
        parse_s = time.perf_counter() - start
        start = time.perf_counter()
        reports = validate_decks(parsed, registry, index)  # the batch API the CLI calls
        validate_s = time.perf_counter() - start
        start = time.perf_counter()
        fresh = CardIndex(cards)  # no memo from the run above
        plain = [validate(d, fmt, fresh) for d in parsed]  # one call a deck, collector on
        plain_s = time.perf_counter() - start
        assert [r.legal for r in plain] == [r.legal for r in reports]
        legal = sum(r.legal for r in reports)
        del parsed, reports, plain
        start = time.perf_counter()
        verdicts = [validate(decklist.parse_text(t), fmt, index).legal for t in texts]
        stream_s = time.perf_counter() - start
        assert sum(verdicts) == legal
        print(f"decks: {n} of 50+10 cards, {legal} legal, {n - legal} illegal")
        rows = [
            ("validate_decks (batch API, as the CLI)", validate_s),
            ("validate, one call a deck", plain_s),
            ("parse text deck lists", parse_s),
            ("parse + validate, one deck at a time", stream_s),
        ]
        for label, seconds in rows:
            print(f"{label + ':':<40} {n / seconds:>8,.0f} decks/s ({seconds:.2f} s)")

        if args.cli_runs:
            exe = Path(sys.executable).with_name("deckcheck")
            deck = Path(__file__).resolve().parent.parent / "examples" / "chaos-standard-legal.deck"
            db = folder / "cli.sqlite3"
            subprocess.run(
                [str(exe), "pool", "init", "--db", str(db)], check=True, capture_output=True
            )
            times = []
            for _ in range(args.cli_runs):
                start = time.perf_counter()
                subprocess.run(
                    [str(exe), "validate", str(deck), "--db", str(db)],
                    check=True,
                    capture_output=True,
                )
                times.append(time.perf_counter() - start)
            print(
                f"cli: `deckcheck validate` one deck, median {statistics.median(times):.3f} s, "
                f"max {max(times):.3f} s over {len(times)} runs"
            )


if __name__ == "__main__":
    main()
