"""Size and shape limits that keep the code readable: short modules, short functions in the
shells (CLI and service), and no import cycle among deckcheck's modules."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "deckcheck"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60

# Modules over the limit today, each being split by its owner's branch (issue 10). Remove an
# entry when its module is short enough; never add one.
TOO_LONG_FOR_NOW: set[str] = set()  # modules allowed over the limit while they are split


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def test_no_module_over_400_lines() -> None:
    long = {
        name(p): n
        for p in modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert set(long) <= TOO_LONG_FOR_NOW, f"over {MAX_MODULE_LINES} lines: {long}"


def test_allow_list_names_existing_modules() -> None:
    """An entry for a module that was split, renamed or shortened must go."""
    stale = TOO_LONG_FOR_NOW - {
        name(p)
        for p in modules()
        if len(p.read_text(encoding="utf-8").splitlines()) > MAX_MODULE_LINES
    }
    assert not stale, f"remove from TOO_LONG_FOR_NOW: {sorted(stale)}"


def test_no_function_over_60_lines_in_cli_or_service() -> None:
    long = []
    for folder in ("cli", "service"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    assert node.end_lineno is not None
                    lines = node.end_lineno - node.lineno + 1
                    if lines > MAX_FUNCTION_LINES:
                        long.append(f"{name(path)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, f"over {MAX_FUNCTION_LINES} lines: {long}"


def imports_at_load(path: Path) -> set[str]:
    """The deckcheck modules ``path`` imports when it is loaded: top-level imports, not those
    inside functions (deferred on purpose) nor under ``TYPE_CHECKING``."""
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            # ``from deckcheck.cli import files`` imports the submodule deckcheck.cli.files
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return {m for m in found if m.split(".")[0] == "deckcheck"}


def module_name(path: Path) -> str:
    parts = ["deckcheck", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_import_cycle_in_cli_or_service() -> None:
    graph = {module_name(p): imports_at_load(p) for p in modules()}
    graph = {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}

    def parents(module: str) -> set[str]:
        # a package's __init__ runs before its submodules: importing it is not a cycle
        parts = module.split(".")
        return {".".join(parts[:i]) for i in range(1, len(parts))}

    seen: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(module: str, path: list[str]) -> None:
        seen[module] = 1
        for dep in graph[module] - parents(module):
            if seen.get(dep) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*path, module, dep]))
            if dep not in seen:
                visit(dep, [*path, module])
        seen[module] = 2

    for module in graph:
        if module.startswith(("deckcheck.cli", "deckcheck.service")) and module not in seen:
            visit(module, [])
