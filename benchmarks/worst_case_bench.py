"""Worst-case input, timed: the wall-clock goals the tests no longer hold (issue 20, item 6).
A script that prints figures, not a test.

    .venv/bin/python -m benchmarks.worst_case_bench [--texts 40] [--cards 20000]

1. Every regular expression of deckcheck and of the shipped formats on each pathological
   100 KB text of ``tests/pathological.py`` (match, search, sub): the slowest, goal 1 s
   (issue 13, item 1; tests/test_regex_time.py checks that the time grows linearly).
2. A deck-list header line of 100,000 characters that almost closes, parsed and edited: the
   slowest, goal 1 s.
3. Adversarial deck text up to 100 KB (repeated pieces of deck syntax, random mixes) through
   the parser and the service's ``/validate`` and ``/resolve`` (goal 2 s), and through
   ``deckcheck validate`` in-process (goal 3 s: the tests allowed one more for the pool's first
   build, which is done before timing here) (issue 13; tests/test_fuzz_hardening.py checks the
   answers).
4. 499 near-miss card names against a 20,000-card pool, ``/validate``: goal 2 s (issue 13,
   item 2; tests/test_suggest_scale.py checks the report). Beside it, the same names spelled
   right (no suggestions to look for).

The plain-Python reference of 1 to 3 is a loop over the same characters in Python (what any
per-character pass costs, timed in the same run); that of 4 is difflib, the standard library's
close-match search that deckcheck used before rapidfuzz, on 10 of the names, times 49.9.
"""

from __future__ import annotations

import argparse
import difflib
import random
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from benchmarks.common import machine, record
from deckcheck import decklist, edit
from deckcheck.cli import app as cli_app
from deckcheck.models import Card
from deckcheck.pool.store import Pool
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.pathological import HEADERS, SIZE, inputs, patterns

PIECES = ["[", "]", " ", "\t", "x", "4", "9" * 50, "#", "format:", "\n", "\u3000", "{", '"card"',
          "section,count,number,name\n", ",", "SAMPLE-C-001", "見本", "\x00", "<", "os:"]
NEAR_MISSES = 499


def wall(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def plain_pass(text: str) -> int:
    """The plain-Python reference: one pass over the characters."""
    lines = 0
    for ch in text:
        if ch == "\n" or ch == "[":
            lines += 1
    return lines


def regex_figures() -> None:
    texts = inputs()
    worst, where = 0.0, ""
    for name, pattern in sorted(patterns().items()):
        for text in texts:

            def work(p: re.Pattern[str] = pattern, t: str = text) -> object:
                return p.match(t), p.search(t), p.sub("", t)

            took = wall(work)
            if took > worst:
                worst, where = took, f"{name} on {text[:12]!r}"
    reference = max(wall(lambda t=t: plain_pass(t)) for t in texts)
    print(f"slowest regex: {where}")
    record("regex, slowest on 100 KB pathological text", worst * 1e3, "ms", 1000,
           reference * 1e3, lower_is_better=True)


def header_figures() -> None:
    def work(header: str) -> None:
        decklist.parse_text(header + "\n4 CH-001\n")
        edit.add_text(header + "\n", "main", 1, "CH-001", lambda ref: ref == "CH-001")

    lines = [line(SIZE) for line in HEADERS]
    worst = max(wall(lambda h=h: work(h)) for h in lines)
    reference = max(wall(lambda h=h: plain_pass(h)) for h in lines)
    record("deck-list header of 100,000 characters, parse + edit", worst * 1e3, "ms", 1000,
           reference * 1e3, lower_is_better=True)


def adversarial_texts(count: int, rng: random.Random) -> list[str]:
    """Each piece repeated to 100 KB, then random mixes of pieces up to 100 KB."""
    texts = [(piece * (SIZE // len(piece) + 1))[:SIZE] for piece in PIECES]
    while len(texts) < count:
        pieces = rng.choices(PIECES, k=rng.randrange(1, 400))
        texts.append(("".join(pieces) * rng.randrange(1, 200))[:SIZE])
    return texts


def adversarial_figures(count: int, folder: Path) -> None:
    texts = adversarial_texts(count, random.Random(20261201))
    app = create_app(Settings(db=folder / "fuzz.sqlite3"))
    worst_http = 0.0
    with TestClient(app, raise_server_exceptions=False) as http:
        for text in texts:

            def answer(t: str = text) -> None:
                decklist.parse(t)
                for path in ("/validate", "/resolve"):
                    http.post(path, json={"deck": t, "format": "chaos-standard"})

            worst_http = max(worst_http, wall(answer))
    reference = max(wall(lambda t=t: plain_pass(t)) for t in texts)
    record("adversarial 100 KB deck text: parse + /validate + /resolve, slowest",
           worst_http * 1e3, "ms", 2000, reference * 1e3, lower_is_better=True)

    runner, db = CliRunner(), str(folder / "cli.sqlite3")
    runner.invoke(cli_app, ["pool", "init", "--db", db])  # the pool's first build, untimed
    worst_cli = 0.0
    for i, text in enumerate(texts):
        deck = folder / f"fuzz{i}.deck"
        deck.write_text(text, encoding="utf-8", errors="replace")
        args = ["validate", str(deck), "--format", "chaos-standard", "--db", db]
        worst_cli = max(worst_cli, wall(lambda a=args: runner.invoke(cli_app, a)))
    record("adversarial 100 KB deck text: deckcheck validate in-process, slowest",
           worst_cli * 1e3, "ms", 3000, reference * 1e3, lower_is_better=True)


def _name(i: int) -> str:
    return f"大量試験キャラクター{i:05d} 見本"


def suggestion_figures(cards: int, folder: Path) -> None:
    db = folder / "big.sqlite3"
    with Pool(db) as pool, pool._transaction():
        pool._write(
            Card(game="chaos", number=f"BULK-{i:05d}", name=_name(i), type="chara")
            for i in range(cards)
        )
    step = max(1, cards // NEAR_MISSES)
    wrong = [_name(i * step % cards).replace("見本", "見木") for i in range(NEAR_MISSES)]
    right = [_name(i * step % cards) for i in range(NEAR_MISSES)]

    def deck(names: list[str]) -> str:
        return "format: chaos-standard\n" + "".join(f"1 {n}\n" for n in names)

    with TestClient(create_app(Settings(db=db))) as http:
        http.post("/validate", json={"deck": "format: chaos-standard\n"})  # the index, built
        near = wall(lambda: http.post("/validate", json={"deck": deck(wrong)}))
        exact = wall(lambda: http.post("/validate", json={"deck": deck(right)}))
    names = [_name(i) for i in range(cards)]
    sample = 10
    plain = wall(lambda: [difflib.get_close_matches(w, names, 3, 0.6) for w in wrong[:sample]])
    plain *= NEAR_MISSES / sample
    record(f"{NEAR_MISSES} near-miss names on {cards:,} cards: /validate", near, "s", 2,
           plain, lower_is_better=True)
    record(f"the same {NEAR_MISSES} names spelled right: /validate", exact, "s",
           lower_is_better=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--texts", type=int, default=40, help="adversarial deck texts")
    parser.add_argument("--cards", type=int, default=20_000, help="cards of the large pool")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    regex_figures()
    header_figures()
    with tempfile.TemporaryDirectory() as tmp:
        adversarial_figures(args.texts, Path(tmp))
        suggestion_figures(args.cards, Path(tmp))


if __name__ == "__main__":
    main()
