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

# Runs deckcheck's CLI in this process, once for each command line (the arguments, commands
# separated by NEXT), and after each prints the extras' packages imported so far: one process
# for several commands, each of which would have started its own (issue 35). A command that
# imports an extra shows it on its own line, the commands before it none.
NEXT = "--next-command--"
_PROBE = """
import sys, runpy
commands = [[]]
for arg in sys.argv[1:]:
    if arg == NEXT:
        commands.append([])
    else:
        commands[-1].append(arg)
for args in commands:
    sys.argv = ["deckcheck", *args]
    code = None
    try:
        runpy.run_module("deckcheck", run_name="__main__")
    except SystemExit as exc:
        code = exc.code
    heavy = sorted({m.split(".")[0] for m in sys.modules} & set(EXTRAS))
    print("HEAVY", heavy, "EXIT", code, file=sys.stderr, flush=True)
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
    code = f"EXTRAS = {sorted(EXTRA_OF)!r}\nNEXT = {NEXT!r}\n" + (_BLOCK if block else "") + _PROBE
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=tmp,
        env={**os.environ, "PYTHONPATH": str(ROOT), "DECKCHECK_DB": str(tmp / "light.sqlite3")},
        capture_output=True,
        text=True,
        check=False,
    )


def probes(commands: list[list[str]], tmp: Path) -> list[str]:
    """Each command's ``HEAVY [...] EXIT n`` line, the commands run in one process."""
    args = [arg for command in commands for arg in (NEXT, *command)][1:]
    done = probe(args, tmp)
    lines = [line for line in done.stderr.splitlines() if line.startswith("HEAVY ")]
    assert len(lines) == len(commands), done.stderr[-2000:]
    return lines


OUTPUTS = ["text", "json", "junit", "sarif", "github"]


def test_validating_a_folder_imports_no_extra(tmp_path: Path) -> None:
    summaries = [tmp_path / f"{output}.csv" for output in OUTPUTS]
    lines = probes(
        [
            ["validate", str(EXAMPLES), "-o", output, "--summary", str(summary)]
            for output, summary in zip(OUTPUTS, summaries, strict=True)
        ],
        tmp_path,
    )
    assert lines == ["HEAVY [] EXIT 1"] * len(OUTPUTS), list(zip(OUTPUTS, lines, strict=True))
    assert all(summary.is_file() for summary in summaries)


def test_sheets_pool_and_formats_import_no_extra(tmp_path: Path) -> None:
    deck = str(EXAMPLES / "vision-standard-legal.deck")
    commands = [
        ["sheet", deck, "--out", str(tmp_path / "sheets")],
        ["pool", "stats"],
        ["formats"],
        ["fix", deck],
    ]
    lines = probes(commands, tmp_path)
    assert lines == ["HEAVY [] EXIT 0"] * len(commands), list(zip(commands, lines, strict=True))


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
