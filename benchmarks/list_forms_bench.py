"""What reading lists as players write them costs (issue 31): parsing a 62-line list in the
canonical form and the same size in player forms (counts after names, bracketed headings), and
the pool's index for a deck's references when every one is known and when one is a loose
spelling (博麗霊夢: the pool's names are scanned once for it). A script that prints figures.

    python -m benchmarks.list_forms_bench [--repeat 5] [--db PATH]
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from benchmarks.common import machine, record, seconds
from deckcheck import decklist
from deckcheck.pool.store import Pool

RUNS = 2000  # parses a timing


def _lists() -> dict[str, str]:
    random.seed(1)
    canonical = ["format: chaos-standard", "[main]"]
    canonical += [f"{random.randint(1, 4)} SAMPLE-C-{i:03d}" for i in range(50)]
    canonical += ["[extra]", *(f"2 SAMPLE-C-X{i:02d}" for i in range(10))]
    player = ["format: vision-standard", "キャラクター", *(f"カード{i} ×3" for i in range(25))]
    player += ["【スペル】6枚", *(f"×3 呪文{i}" for i in range(25))]
    player += ["サイドボード", *(f"札{i} 3枚" for i in range(10))]
    return {"canonical": "\n".join(canonical) + "\n", "player forms": "\n".join(player) + "\n"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    print(machine())
    for name, text in _lists().items():

        def parse(text: str = text) -> None:
            for _ in range(RUNS):
                decklist.parse_text(text)

        record(f"parse a 62-line list, {name}", seconds(parse, args.repeat) / RUNS * 1e6, "µs")
    with tempfile.TemporaryDirectory() as scratch:
        db = args.db or Path(scratch) / "pool.sqlite3"
        with Pool(db) as pool:
            for what, refs in (
                ("known names", ["霧雨 魔理沙", "チルノ", "N317"]),
                ("one loose spelling", ["霧雨 魔理沙", "チルノ", "博麗霊夢"]),
            ):
                took = seconds(lambda refs=refs: pool.index_for(refs), args.repeat * 4)
                record(f"pool index for 3 references, {what}", took * 1e3, "ms")


if __name__ == "__main__":
    main()
