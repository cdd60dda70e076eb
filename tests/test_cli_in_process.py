"""tests/cli_run.py's in-process ``deckcheck`` answers as the real process does: the same
exit status, standard output and standard error, in English and Japanese, for a legal and an
illegal list, a bad option and a bad ``--lang`` (issue 35: the CLI tests run in process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_run import deckcheck
from tests.conftest import EXAMPLES, ROOT


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("in-process") / "pool.sqlite3"
    assert deckcheck(["pool", "init", "--db", str(path)]).returncode == 0
    return path


CASES = {
    "legal, Japanese": (["validate", "{vision-standard-legal}"], "ja_JP.UTF-8"),
    "illegal, English json": (["validate", "{rakuen-standard-illegal}", "-o", "json"], "C"),
    "illegal, --lang ja after the command": (
        ["validate", "{chaos-standard-illegal}", "--lang", "ja"], "C"
    ),
    "odds table at 80 columns": (
        ["odds", "{iris-standard-legal}", "-w", "type:unit>=1", "-t", "2"], "ja_JP.UTF-8"
    ),
    "an unknown option": (["validate", "--no-such-option"], "C"),
    "a bad --lang": (["formats", "--lang", "xx"], "C"),
    "a missing file": (["validate", "no-such.deck"], "ja_JP.UTF-8"),
}


@pytest.mark.parametrize("case", CASES)
def test_in_process_answers_as_the_process(case: str, db: Path) -> None:
    template, lang = CASES[case]
    args = [
        str(EXAMPLES / f"{a[1:-1]}.deck") if a.startswith("{") else a for a in template
    ]
    if args[0] != "formats":
        args += ["--db", str(db)]
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "DECKCHECK_LANG")}
    env |= {"LANG": lang, "COLUMNS": "80"}
    real = subprocess.run(
        [sys.executable, "-m", "deckcheck", *args], capture_output=True, text=True, env=env,
        cwd=ROOT, check=False,
    )  # fmt: skip
    here = deckcheck(args, env=env, cwd=ROOT)
    assert (here.returncode, here.stdout, here.stderr) == (real.returncode, real.stdout, real.stderr)
    assert real.stdout or real.stderr  # each case says something
