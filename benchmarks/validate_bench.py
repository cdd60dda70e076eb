"""Validator throughput, import time and CLI latency. A script that prints figures, not a test.

    .venv/bin/python -m benchmarks.validate_bench [--cards 20000] [--decks 10000] [--cli-runs 10]

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
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import ROOT, machine, record
from deckcheck import decklist, decks
from deckcheck.api import paused_gc, validate_decks
from deckcheck.formats.registry import default_registry
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from deckcheck.slots import format_facts
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
                writer.writerow(
                    {
                        "game": game,
                        "number": f"BENCH-{game[:2].upper()}-{i:05}",
                        "name": f"ベンチ{game}カード {i:05}",
                        "type": types[i % len(types)],
                        "title": TITLES[i % len(TITLES)] if game == "chaos" else "",
                        "append": "ソルラルチャージ" if game == "chaos" and i % 97 == 0 else "",
                        "keywords": "パートナーにできない" if i % 89 == 0 else "",
                        "gate_number": str(i % 8 + 1) if types[i % len(types)] == "gate" else "",
                        "level": str(i % 4),
                    }
                )


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


def seconds_of(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=20_000)
    parser.add_argument("--decks", type=int, default=10_000)
    parser.add_argument("--cli-runs", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of each measurement")
    args = parser.parse_args()
    rng = random.Random(20261129)
    print(f"machine: {machine()}")

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cards_csv = folder / "bench.csv"
        write_pool(cards_csv, args.cards // len(TYPES), rng)
        with Pool(folder / "bench.sqlite3", fill=False) as pool:
            start = time.perf_counter()
            result = pool.import_files([cards_csv])
            elapsed = time.perf_counter() - start
            print(f"import: {result.added} cards ({result.added / elapsed:,.0f} cards/s)")
            record(f"pool import, {result.added:,} cards", elapsed, "s", 2, lower_is_better=True)
            cards = pool.all_cards()
            start = time.perf_counter()
            index = CardIndex(cards)
            print(f"index: {len(index)} cards in {time.perf_counter() - start:.2f} s")
            chaos = [c for c in cards if c.game == "chaos"]
            charas = [c.number for c in chaos if c.type == "chara"]
            extras = [c.number for c in chaos if c.type == "extra" and not c.items_of("append")]
            partners = [c.number for c in chaos if c.type == "partner" and not c.keywords]

        texts = [chaos_deck(rng, charas, extras, partners) for _ in range(args.decks)]
        registry = default_registry()
        fmt = registry.get("chaos-standard")
        n = len(texts)
        with paused_gc():  # as the CLI reads deck files
            parsed = [decklist.parse_text(t) for t in texts]
        legal = sum(r.legal for r in validate_decks(parsed, registry, CardIndex(cards)))
        print(f"decks: {n} of 50+10 cards, {legal} legal, {n - legal} illegal")

        def cold() -> CardIndex:
            """A new index and no memo: every run resolves and studies each card afresh."""
            format_facts(fmt).cards.clear()
            return CardIndex(cards)

        def parse_all() -> object:
            with paused_gc():
                return [decklist.parse_text(t) for t in texts]

        def one_by_one() -> object:
            index = cold()
            return [validate(decklist.parse_text(t), fmt, index).legal for t in texts]

        rows = [
            (
                "validate_decks (batch API, as the CLI)",
                lambda: validate_decks(parsed, registry, cold()),
            ),
            ("validate, one call a deck", lambda: [validate(d, fmt, cold_index) for d in parsed]),
            ("parse text deck lists", parse_all),
            ("parse + validate, one deck at a time", one_by_one),
        ]

        def plain() -> object:
            """The least a validator does, in plain Python: resolve each line in a dict,
            add up the sections and count copies by name."""
            by_ref = {c.number: c for c in cards}
            out = []
            for deck in parsed:
                sizes: dict[str, int] = {}
                copies: dict[str, int] = {}
                for entry in deck.entries:
                    card = by_ref.get(entry.ref)
                    sizes[entry.section] = sizes.get(entry.section, 0) + entry.count
                    if card is not None:
                        copies[card.name] = copies.get(card.name, 0) + entry.count
                out.append(sizes.get("main") == 50 and max(copies.values(), default=0) <= 4)
            return out

        reference = n / statistics.median(seconds_of(plain) for _ in range(args.repeats))
        print(f"{'':<40} {'first run':>15} {'median of ' + str(args.repeats):>17}")
        for label, run in rows:
            seconds = []
            for _ in range(args.repeats):
                cold_index = cold()
                start = time.perf_counter()
                run()
                seconds.append(time.perf_counter() - start)
            first, middle = n / seconds[0], n / statistics.median(seconds)
            print(f"{label + ':':<40} {first:>8,.0f} decks/s {middle:>10,.0f} decks/s")
            if label.startswith("validate_decks"):
                record("validate_decks (median)", middle, "decks/s", 20_000, reference)

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
            print(f"cli: `deckcheck validate` one deck, max {max(times):.3f} s")
            record(
                "deckcheck validate, one deck (median)",
                statistics.median(times),
                "s",
                0.5,
                lower_is_better=True,
            )

        vision_notes(folder, args.repeats)


def vision_notes(folder: Path, repeats: int) -> None:
    """examples/vision-standard-legal.deck on the shipped cards: ten of its names stand for
    printings legality treats alike, each a ``deck/printing`` note (issue 31). One deck's
    check with the notes' memo emptied first (each note built: about 7 us) and kept."""
    deck = decks.read(ROOT / "examples" / "vision-standard-legal.deck")
    fmt = default_registry().get("vision-standard")
    with Pool(folder / "shipped.sqlite3") as pool:
        index = pool.index_for([e.ref for e in deck.entries])
    memo = format_facts(fmt)
    assert len(validate(deck, fmt, index).notes) == 10

    def checks(fresh: bool) -> float:
        runs = 2_000
        start = time.perf_counter()
        for _ in range(runs):
            if fresh:
                memo.notes.clear()
            validate(deck, fmt, index)
        return (time.perf_counter() - start) / runs * 1e6

    for fresh, label in ((True, "notes built"), (False, "notes memoised")):
        best = min(checks(fresh) for _ in range(repeats))
        record(f"validate vision example deck, {label}", best, "us", lower_is_better=True)


if __name__ == "__main__":
    main()
