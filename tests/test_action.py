"""The composite GitHub Action (action.yml) runs: its ``run`` steps, parsed from the YAML and
executed as GitHub executes them (bash -eo pipefail, the inputs as the step's environment) on
a folder of lists. The install step is the one step left out: deckcheck comes from this
checkout, run by the current interpreter, instead of a fresh ``pip install``."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES, ROOT

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
_INPUT = re.compile(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}")


def run_action(inputs: dict[str, str], cwd: Path, tmp: Path) -> tuple[int, str]:
    """Every ``run`` step but the install, in order, as the runner would; the status of the
    first step that fails (or 0) and the steps' stdout."""
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    values.update(inputs)
    shim = tmp / "bin"
    shim.mkdir(exist_ok=True)
    (shim / "deckcheck").write_text(
        f'#!/bin/sh\nexec "{sys.executable}" -m deckcheck "$@"\n', encoding="utf-8"
    )
    (shim / "deckcheck").chmod(0o755)
    base = {
        **os.environ,
        "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "DECKCHECK_DB": str(tmp / "action.sqlite3"),
        "GITHUB_ACTION_PATH": str(ROOT),
    }
    out = []
    assert ACTION["runs"]["using"] == "composite"
    for step in ACTION["runs"]["steps"]:
        if "run" not in step or step.get("id") == "install":
            continue
        env = {k: _INPUT.sub(lambda m: values[m[1]], str(v)) for k, v in step["env"].items()}
        assert "${{" not in step["run"]  # inputs reach the script only through env
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=cwd,
            env={**base, **env},
            capture_output=True,
            text=True,
            check=False,
        )
        out.append(done.stdout)
        if done.returncode:
            return done.returncode, "".join(out)
    return 0, "".join(out)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository's checkout with a folder of lists: two legal decks and an illegal one."""
    work = tmp_path / "repo"
    (work / "decks").mkdir(parents=True)
    for name in ("chaos-standard-legal", "vision-standard-legal", "iris-standard-illegal"):
        shutil.copy(EXAMPLES / f"{name}.deck", work / "decks" / f"{name}.deck")
    return work


def test_the_install_step_installs_this_checkout_without_extras() -> None:
    (install,) = [s for s in ACTION["runs"]["steps"] if s.get("id") == "install"]
    assert install["run"].strip() == 'python -m pip install --quiet "$GITHUB_ACTION_PATH"'


def test_an_illegal_deck_fails_the_job_with_annotations_and_every_file(
    repo: Path, tmp_path: Path
) -> None:
    inputs = {"junit": "junit.xml", "sarif": "deckcheck.sarif", "summary": "decks.csv"}
    code, out = run_action(inputs, repo, tmp_path)
    assert code == 1
    assert "::error file=decks/iris-standard-illegal.deck,line=" in out
    assert "::notice title=deckcheck::3 decks: 2 legal, 1 illegal (" in out
    suites = ET.parse(repo / "junit.xml").getroot()
    assert (suites.get("tests"), suites.get("failures")) == ("3", "1")
    sarif: dict[str, Any] = json.loads((repo / "deckcheck.sarif").read_text(encoding="utf-8"))
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"iris/main-size"}
    rows = list(csv.DictReader(io.StringIO((repo / "decks.csv").read_text(encoding="utf-8-sig"))))
    assert [(Path(r["file"]).name, r["verdict"]) for r in rows] == [
        ("chaos-standard-legal.deck", "legal"),
        ("iris-standard-illegal.deck", "illegal"),
        ("vision-standard-legal.deck", "legal"),
    ]


def test_legal_decks_pass_and_two_folders_are_read(repo: Path, tmp_path: Path) -> None:
    (repo / "decks" / "iris-standard-illegal.deck").unlink()
    (repo / "more").mkdir()
    shutil.copy(EXAMPLES / "rakuen-standard-legal.deck", repo / "more")
    code, out = run_action({"paths": "decks more"}, repo, tmp_path)
    assert code == 0 and "::error" not in out
    assert "::notice title=deckcheck::3 decks: 3 legal, 0 illegal (0 errors, 0 warnings)" in out


def test_a_usage_error_is_exit_2(repo: Path, tmp_path: Path) -> None:
    code, _out = run_action({"paths": "no-such-folder", "junit": "junit.xml"}, repo, tmp_path)
    assert code == 2
