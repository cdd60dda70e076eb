"""Compiling the batch engines: the notice of a slow first chunk, the engines a warm-up is still
compiling (``warm.py``), and the cache key.

A loaded batch engine plays its first chunk in well under a second; one that takes longer is
being compiled (numba, on the engine's first run on a machine: up to a minute), and the user is
told so rather than left before a silent terminal. Timed, not predicted: whatever the reason
for the wait, the notice only comes when there is one.

Every compiled function of deckcheck is decorated by ``njit`` below, whose on-disk cache is
keyed on the function's module and the modules of its package it imports (see there), so an
edit of any of them recompiles it (tests/test_jit_cache.py).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

NOTICE_AFTER = 2.0  # seconds
_STARTED: set[str] = set()  # the games whose batch engine has played a chunk in this process


@contextmanager
def first_chunk(
    game: str, batch: bool, notice: Callable[[str], None] | None, message: str
) -> Iterator[None]:
    """Around the wait for a run's first chunk: ``notice`` hears ``message`` if the wait is long
    the first time this process runs ``game``'s batch engine (``batch``: that engine runs). The
    caller words the message (in its language: the timer's thread does not inherit it, and
    this module keeps the catalogue out of the compiled engines' cache key)."""
    if notice is None or not batch or game in _STARTED:
        yield
        return
    timer = threading.Timer(NOTICE_AFTER, notice, [message])
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
    _STARTED.add(game)


# --- engines still being compiled by a warm-up (``deckcheck serve``) -------------------------
#
# While a game's batch engine is compiled in the background, a goldfish of that game is set up
# for the reference engine (``run.prepare``) instead of waiting for the compile; the result's
# ``engine`` says which played. Decided once per set-up, so every chunk of a run, in any
# process, plays the same engine.

_PENDING: set[str] = set()
_PENDING_LOCK = threading.Lock()


def compiling(games: Iterable[str]) -> None:
    """Mark ``games``' batch engines as being compiled: set-ups choose the reference engine."""
    with _PENDING_LOCK:
        _PENDING.update(games)


def compiled(game: str) -> None:
    """``game``'s batch engine is compiled (or its warm-up gave up): set-ups use it again."""
    with _PENDING_LOCK:
        _PENDING.discard(game)


def pending(game: str) -> bool:
    """Whether ``game``'s batch engine is still being compiled by a warm-up."""
    with _PENDING_LOCK:
        return game in _PENDING


# --- numba's on-disk cache, keyed on every module an engine reads ---------------------------
#
# numba keys a cached function on the file it is written in (a hash of that file's bytes), but
# compiles in the values of the globals it reads: a constant imported from another module
# (the card flags of a game's ``games/<game>/encode.py``, its milestones) or another module's
# compiled helper is frozen into the cache, and an edit there leaves the cached engine running
# the old value. ``njit`` below keys the cache on the function's module and every module of its
# package that module imports, directly or not (``inputs``), so any such edit recompiles it.


def njit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(**options)`` with an on-disk cache that goes stale when any module the
    function's module imports from its own package changes (numba is imported here, on the
    first decoration, not when this module is)."""

    def decorate(function: Callable[..., Any]) -> Any:
        import numba
        from numba.core import config

        dispatcher = numba.njit(**options)(function)
        if getattr(config, "DISABLE_JIT", False):  # NUMBA_DISABLE_JIT=1: the Python function itself
            return dispatcher
        # numba's Dispatcher.enable_caching sets this very attribute to its FunctionCache
        dispatcher._cache = _cache_class()(dispatcher.py_func)
        return dispatcher

    return decorate


# deckcheck's own package: a game package's engine (a plugin) imports deckcheck's compiled
# helpers (the SDK's shuffle), whose edits must recompile it too
_CORE = __name__.partition(".")[0]


def _root(top: str) -> Path | None:
    file = getattr(sys.modules.get(top), "__file__", None)
    return Path(file).parent if file else None


def _inputs(module: str) -> dict[str, Path]:
    """``inputs`` by label: a file's path in its package, prefixed ``<package>:`` for a file
    of deckcheck's package when ``module`` is another's (a plugin's engine)."""
    top = module.partition(".")[0]
    roots = {t: r for t in (top, _CORE) if (r := _root(t)) is not None}
    if top not in roots:
        return {}
    found: dict[str, Path] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        at = name.partition(".")[0]
        if name in found or at not in roots:
            continue
        path = _source(name, at, roots[at])
        if path is None:
            continue
        found[name] = path
        todo.extend(_imported(name, path, roots))
    labels = {}
    for name, path in found.items():
        at = name.partition(".")[0]
        label = str(path.relative_to(roots[at]))
        labels[label if at == top else f"{at}:{label}"] = path
    return labels


def inputs(module: str) -> tuple[Path, ...]:
    """The source files whose bytes key ``module``'s compiled functions: the module and every
    module of its top-level package or of deckcheck's it imports, at any depth (through the
    SDK's lazy names too), deferred imports included and ``if TYPE_CHECKING:`` blocks left
    out (they never run)."""
    return tuple(sorted(set(_inputs(module).values())))


def stamp(module: str) -> str:
    """A hash of ``inputs(module)``: their paths in their package and their bytes."""
    files = _inputs(module)
    if not files:
        return ""
    digest = hashlib.sha256()
    for label, path in sorted(files.items(), key=lambda item: item[1]):
        digest.update(label.encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _source(name: str, top: str, root: Path) -> Path | None:
    """The file of module ``name`` of package ``top`` (at ``root``), or None if none is."""
    parts = name.split(".")[1:]
    where = root.joinpath(*parts)
    candidates = [where.with_suffix(".py")] if parts else []
    return next((p for p in [*candidates, where / "__init__.py"] if p.is_file()), None)


def _imported(name: str, path: Path, roots: dict[str, Path]) -> list[str]:
    """The modules of the packages ``roots`` holds (package → its folder) that module ``name``
    (file ``path``) imports: for
    ``from a import b``, both ``a`` and ``a.b`` (``_source`` drops ``a.b`` if not a module),
    and the module ``a`` loads ``b`` from on first use when ``a`` declares it lazy (``_lazy``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[str] = []
    for node in _import_nodes(path):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            out += [base, *(f"{base}.{a.name}" for a in node.names)]
            top = base.partition(".")[0]
            lazy = _lazy(base, roots[top]) if top in roots else {}
            out += [lazy[a.name] for a in node.names if a.name in lazy]
    return [m for m in out if m.partition(".")[0] in roots]


@functools.cache
def _lazy(module: str, root: Path) -> dict[str, str]:
    """The names ``module`` (of the package at ``root``) loads on first use (PEP 562), from its
    literal ``_LAZY`` table (name → "module" or "module:attribute", as ``deckcheck.sdk``
    declares them) → the module each comes from; empty when it has none. Read from the
    source: nothing is imported."""
    path = _source(module, module.partition(".")[0], root)
    if path is None:
        return {}
    for node in ast.parse(path.read_bytes(), str(path)).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_LAZY" for t in node.targets
        ):
            table: dict[str, str] = ast.literal_eval(node.value)
            return {k: v.partition(":")[0] for k, v in table.items()}
    return {}


@functools.cache
def _import_nodes(path: Path) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """The import statements of file ``path`` that run, once a process: the modules of one
    engine share most of their imports, and each process stamps several (issue 35)."""
    tree = ast.parse(path.read_bytes(), str(path))
    return tuple(n for n in _runtime_nodes(tree) if isinstance(n, ast.Import | ast.ImportFrom))


# what can hold an import statement: statements, and the clauses of try and match
_HOLDERS = (ast.stmt, ast.excepthandler, ast.match_case)


def _runtime_nodes(tree: ast.Module) -> Iterator[ast.AST]:
    """Every statement of ``tree`` but those in the bodies of ``if TYPE_CHECKING:``. An import
    is a statement, so expressions are not walked (most of a module's nodes)."""
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, _HOLDERS))


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


_STAMPS: dict[str, str] = {}  # per module, computed once a process (on its first decoration)


@functools.cache
def _cache_class() -> type[Any]:
    """numba's FunctionCache whose source stamp is ``stamp`` of the function's module (with
    numba's own stamp of the function's file, for a module ``stamp`` cannot read)."""
    from numba.core.caching import CompileResultCacheImpl, FunctionCache

    class Locator:
        """numba's locator for the function (where the cache lives), with another stamp."""

        def __init__(self, inner: Any, extra: str) -> None:
            self._inner, self._extra = inner, extra

        def ensure_cache_path(self) -> None:
            self._inner.ensure_cache_path()

        def get_cache_path(self) -> str:
            return str(self._inner.get_cache_path())

        def get_source_stamp(self) -> Any:
            return (self._inner.get_source_stamp(), self._extra)

        def get_disambiguator(self) -> str:
            return str(self._inner.get_disambiguator())

    class Impl(CompileResultCacheImpl):
        def __init__(self, py_func: Callable[..., Any]) -> None:
            super().__init__(py_func)  # type: ignore[no-untyped-call]
            module = py_func.__module__
            if module not in _STAMPS:
                _STAMPS[module] = stamp(module)
            self._locator = Locator(self._locator, _STAMPS[module])

    class Cache(FunctionCache):
        _impl_class = Impl

    return Cache
