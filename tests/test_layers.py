"""The architecture, as import-linter contracts (``[tool.importlinter]`` in pyproject.toml):
the shipped games import from deckcheck only ``deckcheck.sdk``, no game imports another, the
core imports no game and no SDK name, the registry sits over the contract, and every module of
deckcheck is placed in a layer (deckcheck/games/ holds the games only)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from tests.conftest import ROOT

LINT = Path(sys.executable).with_name("lint-imports")


def _contracts() -> dict[str, dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports on the deckcheck tree at ``root`` (it reads the sources; nothing runs)."""
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "200"}
    return subprocess.run(
        [str(LINT), "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip


def _broken(output: str, contracts: dict[str, dict[str, Any]]) -> set[str]:
    return {key for key, c in contracts.items() if f"{c['name']} BROKEN" in output}


def test_every_contract_is_kept() -> None:
    run = _lint(ROOT)
    contracts = _contracts()
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"Contracts: {len(contracts)} kept, 0 broken." in run.stdout


def test_a_game_importing_the_core_and_the_core_importing_a_game_break_them(
    tmp_path: Path,
) -> None:
    """The contracts can fail: a game that imports a core module past the SDK, and a core
    module that imports a game (so reaching the SDK through it), each break the contract that
    forbids it, and no other contract breaks."""
    tree = tmp_path / "tree"
    shutil.copytree(
        ROOT / "deckcheck", tree / "deckcheck", ignore=shutil.ignore_patterns("locale", "static")
    )
    shutil.copy(ROOT / "pyproject.toml", tree)
    game = tree / "deckcheck" / "games" / "iris" / "telling.py"
    game.write_text(game.read_text(encoding="utf-8") + "\nfrom deckcheck.models import Card\n")
    core = tree / "deckcheck" / "validate.py"
    core.write_text(core.read_text(encoding="utf-8") + "\nimport deckcheck.games.iris\n")
    run = _lint(tree)
    assert run.returncode == 1
    broken = {"games-through-sdk", "core-imports-no-game", "sdk-over-core"}  # via the game
    assert _broken(run.stdout, _contracts()) == broken
    assert "deckcheck.games.iris.telling -> deckcheck.models" in run.stdout


def test_the_contracts_name_the_same_core() -> None:
    """Every list of the core's modules is the exhaustive layer's (which fails on a module in
    no layer), so a new module cannot slip past the other contracts; the games' lists are the
    games' layer's, which places every module of deckcheck/games/."""
    contracts = _contracts()
    games_layer, sdk_layer, layer = contracts["sdk-over-core"]["layers"]
    assert (games_layer, sdk_layer) == ("games", "sdk")
    core = {f"deckcheck.{m.strip()}" for m in layer.split(":")}
    assert "deckcheck.plugins" in core  # the contract and the registry: the core's
    forbidden = {m.removesuffix(".**") for m in contracts["games-through-sdk"]["forbidden_modules"]}
    assert forbidden == core | {"deckcheck.games"}
    assert set(contracts["core-imports-no-game"]["source_modules"]) == core | {"deckcheck.sdk"}
    (games,) = contracts["games-independent"]["layers"]
    shipped = {f"deckcheck.games.{m.strip()}" for m in games.split("|")}
    sources = {m.removesuffix(".**") for m in contracts["games-through-sdk"]["source_modules"]}
    assert sources == shipped
    assert set(contracts["core-imports-no-game"]["forbidden_modules"]) == shipped
