"""What speaking Japanese costs a user: ``deckcheck validate examples`` (every example deck, the
command a user runs) in English and in Japanese, each the fastest of several runs, beside a
plain-Python reference timed in the same run (a Python process that reads each example file
and counts its lines: the interpreter's start-up and the reading, nothing of deckcheck).

    python -m benchmarks.i18n_bench [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.common import DECKCHECK, ROOT, machine, record, seconds

PLAIN = (
    "import pathlib\n"
    "n = sum(len(p.read_text(encoding='utf-8').splitlines())"
    " for p in sorted(pathlib.Path('examples').glob('*.deck')))\n"
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "pool.sqlite3")
        subprocess.run([DECKCHECK, "pool", "init", "--db", db], check=True, capture_output=True)
        base = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
        base.pop("DECKCHECK_LANG", None)

        def validate(lang: str) -> None:
            env = {**base, "LANG": lang}
            command = [DECKCHECK, "validate", "examples", "--db", db]
            subprocess.run(command, cwd=ROOT, env=env, check=False, capture_output=True)

        def plain() -> None:
            subprocess.run([sys.executable, "-c", PLAIN], cwd=ROOT, check=True)

        reference = seconds(plain, args.repeat)
        english = seconds(lambda: validate("C.UTF-8"), args.repeat)
        japanese = seconds(lambda: validate("ja_JP.UTF-8"), args.repeat)
    print(f"plain Python, read the example decks: {reference * 1000:.0f} ms")
    print(f"deckcheck validate examples, English:  {english * 1000:.0f} ms")
    print(f"deckcheck validate examples, Japanese: {japanese * 1000:.0f} ms")
    record("validate examples, English", english, "s", reference=reference, lower_is_better=True)
    record("validate examples, Japanese", japanese, "s", reference=reference, lower_is_better=True)


if __name__ == "__main__":
    main()
