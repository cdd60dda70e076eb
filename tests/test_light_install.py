"""The light install (issue 31, item 7): ``pip install deckcheck`` with no extras validates.
The validate path, in every output form, with the summary CSV and registration sheets, imports
none of the extras' packages; a command that needs an extra that is not installed says which
one to install and exits 2, never a traceback. (benchmarks/light_install.py builds a real light
venv and measures it.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.errors import EXTRA_OF
from tests.conftest import EXAMPLES, ROOT

# Runs deckcheck's CLI in this process, then prints the extras' packages it imported.
_PROBE = """
import sys, runpy
sys.argv = ["deckcheck", *sys.argv[1:]]
try:
    runpy.run_module("deckcheck", run_name="__main__")
except SystemExit as exc:
    code = exc.code
heavy = sorted({m.split(".")[0] for m in sys.modules} & set(EXTRAS))
print("HEAVY", heavy, "EXIT", code, file=sys.stderr)
"""

# Makes the extras' packages impossible to import, as in a light venv.
_BLOCK = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in EXTRAS:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Block())
"""


def probe(args: list[str], tmp: Path, block: bool = False) -> subprocess.CompletedProcess[str]:
    code = f"EXTRAS = {sorted(EXTRA_OF)!r}\n" + (_BLOCK if block else "") + _PROBE
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=tmp,
        env={**os.environ, "PYTHONPATH": str(ROOT), "DECKCHECK_DB": str(tmp / "light.sqlite3")},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("output", ["text", "json", "junit", "sarif", "github"])
def test_validating_a_folder_imports_no_extra(tmp_path: Path, output: str) -> None:
    done = probe(
        ["validate", str(EXAMPLES), "-o", output, "--summary", str(tmp_path / "s.csv")], tmp_path
    )
    assert "HEAVY [] EXIT 1" in done.stderr, done.stderr[-2000:]
    assert (tmp_path / "s.csv").is_file()


def test_sheets_pool_and_formats_import_no_extra(tmp_path: Path) -> None:
    deck = str(EXAMPLES / "vision-standard-legal.deck")
    for args in (
        ["sheet", deck, "--out", str(tmp_path / "sheets")],
        ["pool", "stats"],
        ["formats"],
        ["fix", deck],
    ):
        done = probe(args, tmp_path)
        assert "HEAVY [] EXIT 0" in done.stderr, (args, done.stderr[-2000:])


def test_with_the_extras_missing_validate_still_works(tmp_path: Path) -> None:
    done = probe(["validate", str(EXAMPLES), "-o", "junit"], tmp_path, block=True)
    assert "EXIT 1" in done.stderr and "<testsuites" in done.stdout, done.stderr[-2000:]


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["odds", str(EXAMPLES / "chaos-standard-legal.deck"), "-w", "type:chara>=1"], "sim"),
        (["goldfish", str(EXAMPLES / "chaos-standard-legal.deck")], "sim"),
        (["serve"], "service"),
    ],
)
def test_a_missing_extra_says_what_to_install(tmp_path: Path, args: list[str], extra: str) -> None:
    done = probe(args, tmp_path, block=True)
    assert "EXIT 2" in done.stderr, done.stderr[-2000:]
    assert f"pip install 'deckcheck[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr
