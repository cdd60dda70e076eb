"""numba's on-disk cache of the batch engines cannot go stale (goldfish/compiling.py ``njit``).

numba keys a cached function on its own file, but compiles in the values of the constants it
reads from other modules: after an edit of ``chaos/layout.py`` (or ``encode.py`` before it), the
cached chaos engine would go on with the old card flags. ``njit`` keys the cache on the
function's module and every module of its package it imports, at any depth."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.goldfish import compiling
from tests.conftest import ROOT

RUN = (
    "from toyengine.core import score; "
    "print(score(1), sum(score.stats.cache_hits.values()), sum(score.stats.cache_misses.values()))"
)


def _package(tmp_path: Path, decorator: str) -> Path:
    """A toy engine: ``score`` reads LEVEL from values.py, computed from consts.py's BONUS."""
    package = tmp_path / decorator.split("(")[0].replace(".", "_") / "toyengine"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "consts.py").write_text("BONUS = 1\n", encoding="utf-8")
    (package / "values.py").write_text(
        "from toyengine.consts import BONUS\n\nLEVEL = 10 * BONUS\n", encoding="utf-8"
    )
    (package / "core.py").write_text(
        "import numba\n"
        "from deckcheck.goldfish.compiling import njit\n"
        "from toyengine.values import LEVEL\n\n\n"
        f"@{decorator}\n"
        "def score(x):\n"
        "    return x + LEVEL\n",
        encoding="utf-8",
    )
    return package


def _run(package: Path, cache: Path) -> tuple[int, int, int]:
    """``score(1)``, cache hits and misses, in a new process with the cache in ``cache``."""
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(cache),
        "PYTHONPATH": os.pathsep.join([str(package.parent), str(ROOT)]),
    }
    out = subprocess.run(
        [sys.executable, "-c", RUN], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    value, hits, misses = map(int, out)
    return value, hits, misses


def test_an_edited_constant_module_recompiles_the_engine(tmp_path: Path) -> None:
    package = _package(tmp_path, "njit()")
    cache = tmp_path / "cache"
    assert _run(package, cache) == (11, 0, 1)  # compiled and saved
    assert _run(package, cache) == (11, 1, 0)  # loaded from the cache
    (package / "consts.py").write_text("BONUS = 2\n", encoding="utf-8")
    assert _run(package, cache) == (21, 0, 1)  # the edit two imports away: compiled again
    assert _run(package, cache) == (21, 1, 0)


def test_numbas_own_key_misses_that_edit(tmp_path: Path) -> None:
    """Why ``njit`` exists: the same package under ``numba.njit(cache=True)`` keeps running
    the old constant after the edit (if numba ever keys on imports too, this fails and says
    so)."""
    package = _package(tmp_path, "numba.njit(cache=True)")
    cache = tmp_path / "cache"
    assert _run(package, cache) == (11, 0, 1)
    (package / "consts.py").write_text("BONUS = 2\n", encoding="utf-8")
    assert _run(package, cache) == (11, 1, 0)  # stale


ENGINES = {  # each compiled module, and modules whose constants or functions it compiles in
    "deckcheck.games.chaos.fast_core": ("games/chaos/layout.py", "goldfish/shuffles.py"),
    "deckcheck.games.rakuen.fast_core": ("games/rakuen/fast_deck.py", "goldfish/shuffles.py"),
    "deckcheck.games.vision.fast_core": (
        "games/vision/fast_hand.py",
        "games/vision/layout.py",
        "goldfish/shuffles.py",
    ),
    "deckcheck.games.iris.fast_core": ("goldfish/shuffles.py",),
    "deckcheck.goldfish.shuffles": ("goldfish/compiling.py",),
}


@pytest.mark.parametrize("module", sorted(ENGINES))
def test_each_engine_is_keyed_on_the_modules_it_reads(module: str) -> None:
    __import__(module)
    files = {str(p.relative_to(ROOT / "deckcheck")) for p in compiling.inputs(module)}
    own = module.removeprefix("deckcheck.").replace(".", "/") + ".py"
    assert {own, *ENGINES[module]} <= files
    assert "models.py" not in files  # the compiled modules import small modules only


def test_every_compiled_function_uses_that_key() -> None:
    """No ``numba.njit``/``numba.jit`` in deckcheck but compiling.py's: every compiled function
    of deckcheck is decorated by ``compiling.njit``."""
    for path in sorted((ROOT / "deckcheck").rglob("*.py")):
        if path.name == "compiling.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("njit", "jit"):
                assert not (isinstance(node.value, ast.Name) and node.value.id == "numba"), path
            if isinstance(node, ast.ImportFrom) and node.module == "numba":
                assert not {a.name for a in node.names} & {"njit", "jit"}, path


def test_a_plugin_engine_is_keyed_on_the_deckcheck_modules_it_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game package's engine (a plugin, another top-level package) compiles in deckcheck's
    shuffle through the SDK: an edit of goldfish/shuffles.py must recompile it too, so its key
    holds that file, reached through the SDK's lazy names, beside the plugin's own modules."""
    package = tmp_path / "sdkengine"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "values.py").write_text("LEVEL = 3\n", encoding="utf-8")
    (package / "core.py").write_text(
        "from deckcheck.sdk import batch_shuffle, njit\n"
        "from sdkengine.values import LEVEL\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "sdkengine", raising=False)
    __import__("sdkengine")
    files = {
        str(p.relative_to(ROOT / "deckcheck") if p.is_relative_to(ROOT) else p.relative_to(tmp_path))
        for p in compiling.inputs("sdkengine.core")
    }
    assert {"sdkengine/core.py", "sdkengine/values.py", "sdk/__init__.py"} <= files
    assert {"goldfish/shuffles.py", "goldfish/compiling.py"} <= files
    assert "models.py" not in files
    sys.modules.pop("sdkengine", None)


def test_numba_is_in_the_declared_range_with_the_private_names_njit_uses() -> None:
    """pyproject pins numba below the next minor: the installed one is in the range, and the
    private names ``njit`` relies on are where it looks for them."""
    import tomllib
    from importlib.metadata import version

    import numba
    from packaging.requirements import Requirement

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = [r for r in config["project"]["optional-dependencies"]["sim"] if "numba" in r]
    specifier = Requirement(declared[0]).specifier
    assert any(s.operator == "<" for s in specifier)  # an upper bound
    assert specifier.contains(version("numba")), (version("numba"), str(specifier))
    from numba.core.caching import CompileResultCacheImpl, FunctionCache

    assert callable(CompileResultCacheImpl) and callable(FunctionCache)
    assert hasattr(numba.njit(cache=True)(lambda x: x), "_cache")
