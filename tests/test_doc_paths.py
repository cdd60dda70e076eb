"""Docstrings and comments point at files that exist (issue 20, item 7): every path-like
mention in the docstrings and comments of deckcheck/ and benchmarks/ (``deckcheck/x.py``,
``benchmarks/y.py``, ``tests/z.py``, ``formats/*.toml``, ``games/chaos/engine.py``, a sibling's
``encode.py``) names a file or folder of this checkout."""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "deckcheck"
SUFFIXES = "py|toml|csv|md|json|deck|txt|js|css|html"
# A relative file path (a leading "/" is a URL path such as /static/builder.js; "." before it
# is an attribute such as body.deck), or a folder under a top-level one of the checkout.
_FILE = re.compile(rf"(?<![\w/.:<{{*-])((?:[\w<>{{}}*.-]+/)*[\w<>{{}}*-]+\.(?:{SUFFIXES}))\b")
_FOLDER = re.compile(
    r"(?<![\w/.:-])((?:deckcheck|benchmarks|tests|formats|card_pool|examples|docs)"
    r"(?:/[\w<>{}*.-]+)*/)"
)
# Files of other projects, named as models, and what deckcheck writes (not in a checkout).
ELSEWHERE = {"chess/variant.py"}
WRITTEN = ("build/",)
# Placeholders a path may hold: {id}, <game>, GAME, *.
_PLACEHOLDER = re.compile(r"\{[^}]*\}|<[^>]*>|\bGAME\b|\*")


def _sources() -> list[Path]:
    files = [*PACKAGE.rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")]
    return sorted(f for f in files if "__pycache__" not in f.parts)


def _prose(source: Path) -> list[tuple[int, str]]:
    """(line, text) of every docstring and comment of a Python file."""
    text = source.read_text(encoding="utf-8")
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines = first.value.value.splitlines()
                found += [(first.lineno + i, line) for i, line in enumerate(lines)]
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            found.append((token.start[0], token.string))
    return found


def _exists(mention: str, source: Path) -> bool:
    pattern = _PLACEHOLDER.sub("*", mention.rstrip("/"))
    for base in (ROOT, PACKAGE, *[p for p in source.parents if ROOT in p.parents]):
        if "*" in pattern:
            if any(base.glob(pattern)):
                return True
        elif (base / pattern).exists():
            return True
    return False


@functools.cache  # both scans below read every source: parsed once a worker (issue 35)
def _mentions(source: Path) -> tuple[tuple[int, str], ...]:
    found: list[tuple[int, str]] = []
    for number, line in _prose(source):
        for match in (*_FILE.finditer(line), *_FOLDER.finditer(line)):
            mention = match.group(1)
            bare_glob = "/" not in mention and "*" in mention  # *.deck: a pattern, not a file
            if bare_glob or mention in ELSEWHERE or mention.startswith(WRITTEN):
                continue
            found.append((number, mention))
    return tuple(found)


def test_the_scan_finds_mentions() -> None:
    mentions = {m for source in _sources() for _, m in _mentions(source)}
    assert {"benchmarks/validate_bench.py", "formats/*.toml", "encode.py"} <= mentions
    assert {"deckcheck/checks/", "pool/columns.py"} <= mentions


def test_a_missing_file_is_found(tmp_path: Path) -> None:
    source = PACKAGE / "games" / "made_up.py"  # never written: only its folder matters
    assert _exists("games/chaos/engine.py", source) and _exists("engine.py", PACKAGE / "games" / "chaos" / "x.py")
    assert not _exists("games/chaos.py", source)
    assert _exists("formats/*.toml", source) and not _exists("formats/*.yaml", source)


def test_mentioned_paths_exist() -> None:
    missing = [
        f"{source.relative_to(ROOT)}:{n}: {m}"
        for source in _sources()
        for n, m in _mentions(source)
        if not _exists(m, source)
    ]
    assert not missing, "\n".join(missing)
