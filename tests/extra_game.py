"""A game package made importable and found as an installed distribution, without pip and
without touching the venv: its packages are copied into a folder, beside a hand-written
``<name>-<version>.dist-info`` whose ``entry_points.txt`` is the one its ``pyproject.toml``
declares. ``importlib.metadata`` finds distributions on ``sys.path``, so with the folder on
``PYTHONPATH`` deckcheck's registry loads the game as it loads an installed one.

Used by tests/test_tutorial.py (the tutorial's game, taken out of docs/write-a-game.md) and by
``make test-extra-game``, which runs the suite with the test plugin that is a whole game package
(under tests/plugins/) installed this way::

    python -m tests.extra_game tests/plugins/PACKAGE build/extra-game
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def install(source: Path, site: Path) -> list[str]:
    """Make the package at ``source`` (a folder with ``pyproject.toml``) importable from
    ``site``; the ids of the games it declares (its ``deckcheck.games`` entry points)."""
    project = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))
    meta = project["project"]
    hatch = project.get("tool", {}).get("hatch", {}).get("build", {}).get("targets", {})
    packages = hatch.get("wheel", {}).get("packages") or [
        p.name for p in source.iterdir() if (p / "__init__.py").is_file()
    ]
    site.mkdir(parents=True, exist_ok=True)
    for package in packages:
        target = site / Path(package).name
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source / package, target, ignore=shutil.ignore_patterns("__pycache__"))
    dist = re.sub(r"[-_.]+", "_", meta["name"]).lower()
    info = site / f"{dist}-{meta['version']}.dist-info"
    shutil.rmtree(info, ignore_errors=True)
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n",
        encoding="utf-8",
    )
    groups = meta.get("entry-points", {})
    lines = []
    for group, points in groups.items():
        lines.append(f"[{group}]")
        lines += [f"{name} = {target}" for name, target in points.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sorted(groups.get("deckcheck.games", {}))


def deckcheck_imports(package: Path) -> set[str]:
    """The modules of deckcheck the package's Python files import (a game: ``deckcheck.sdk``)."""
    modules: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules.add(node.module)
            elif isinstance(node, ast.Import):
                modules.update(alias.name for alias in node.names)
    return {m for m in modules if m.split(".")[0] == "deckcheck"}


def env(site: Path, db: Path) -> dict[str, str]:
    """The environment of a process that sees the game in ``site``, this checkout's deckcheck
    and a card database of its own. numba caches where it does for a user: the game's engine
    beside its sources in ``site`` (the test's own folder), so that a later process (its
    conformance suite) loads what an earlier one compiled, 5 CPU-s a compile (issue 35)."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]),
        "DECKCHECK_DB": str(db),
    }


def deckcheck(site: Path, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``deckcheck ARGS`` in a process of its own, run in ``db``'s folder (``env``)."""
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", *args],
        cwd=db.parent, env=env(site, db), capture_output=True, text=True, check=False,
    )  # fmt: skip


def in_this_process(site: Path, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``deckcheck`` as ``deckcheck()`` runs it, answered in this process (tests/cli_run.py):
    a new interpreter cost 0.4 CPU-s of imports a command, and a goldfish command loaded the
    game's engine again (issue 35). The caller puts ``site`` on ``sys.path``
    (tests/conftest.py ``on_path``), as ``PYTHONPATH`` puts it for a process."""
    from tests.cli_run import deckcheck as run

    return run(args, env=env(site, db), cwd=db.parent)


def package_tests(source: Path, site: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The package's own tests (``source/tests``: the SDK's conformance suite) run by pytest in
    a process of its own, against the package installed in ``site``."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(source / "tests")],
        cwd=cwd, env=env(site, cwd / "pool.sqlite3"), capture_output=True, text=True, check=False,
    )  # fmt: skip


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m tests.extra_game PACKAGE_FOLDER SITE_FOLDER", file=sys.stderr)
        return 2
    ids = install(Path(argv[0]), Path(argv[1]))
    print(f"{argv[0]} -> {argv[1]}: game {', '.join(ids)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
