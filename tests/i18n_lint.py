"""Finds user-facing strings in deckcheck's code that are not marked for translation.

A string is user-facing where deckcheck hands it to a person: a violation's ``message`` or
``fix``, a CLI ``help``, a problem's ``title``/``detail``, an exception raised for the user, a
line echoed or written to the terminal, a table header, a plot's title, axis label or legend.
It needs marking when its literal text holds a word (two letters in a row). Marked means the
string is the first argument of ``_``, ``_n``, ``_p`` (second) or ``N_``.

A line may opt out with the comment ``# i18n: machine`` (text for a program, such as a CSV
header or a log line, that must not change with the language).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "deckcheck"

MARKERS = {"_", "_n", "_p", "N_"}
# keyword arguments whose text a person reads
PROSE_KEYWORDS = {
    "message", "fix", "help", "short_help", "epilog", "title", "detail", "label", "xlabel",
    "ylabel", "prompt", "summary", "description", "reason", "what", "warning", "note", "hint",
}
# calls whose positional text arguments a person reads (by the called name's last part)
PROSE_CALLS = {
    "echo", "secho", "print", "write", "add_column", "set_title", "set_xlabel", "set_ylabel",
    "suptitle", "title", "xlabel", "ylabel", "text", "warn", "Problem", "over_limit",
    "problem_response", "BadParameter", "Exit", "add_row", "Table", "Panel", "Text",
}
WORD = re.compile(r"[A-Za-z]{2,}")
OPT_OUT = "# i18n: machine"


@dataclass(frozen=True)
class Unmarked:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}"


def _literal_text(node: ast.expr) -> str | None:
    """The literal text of a string or f-string node (f-string fields dropped); None for
    anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal_text(node.left), _literal_text(node.right)
        if left is not None or right is not None:
            return (left or "") + (right or "")
    if isinstance(node, ast.IfExp):
        body, other = _literal_text(node.body), _literal_text(node.orelse)
        if body is not None or other is not None:
            return (body or "") + " " + (other or "")
    return None


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _is_error_class(name: str) -> bool:
    return name.endswith(("Error", "Problem", "Exception")) or name in {"UnknownGame"}


class _Finder(ast.NodeVisitor):
    def __init__(self, path: str, lines: list[str]) -> None:
        self.path, self.lines = path, lines
        self.found: list[Unmarked] = []
        self.marked: set[int] = set()

    def _check(self, node: ast.expr) -> None:
        if id(node) in self.marked:
            return
        text = _literal_text(node)
        if text is None or not WORD.search(text):
            return
        line = self.lines[node.lineno - 1] if node.lineno <= len(self.lines) else ""
        end = getattr(node, "end_lineno", node.lineno) or node.lineno
        span = self.lines[node.lineno - 1 : end]
        if any(OPT_OUT in part for part in span) or OPT_OUT in line:
            return
        self.found.append(Unmarked(self.path, node.lineno, text[:80]))

    def visit_Call(self, node: ast.Call) -> None:
        name = _name(node.func)
        if name in MARKERS:
            for arg in node.args:
                self._mark(arg)
        else:
            if name in PROSE_CALLS or _is_error_class(name):
                for arg in node.args:
                    self._check(arg)
            for keyword in node.keywords:
                if keyword.arg in PROSE_KEYWORDS:
                    self._check(keyword.value)
        self.generic_visit(node)

    def _mark(self, node: ast.expr) -> None:
        for sub in ast.walk(node):
            self.marked.add(id(sub))


def unmarked(paths: list[Path] | None = None) -> Iterator[Unmarked]:
    """Every unmarked user-facing string of the package (or of ``paths``)."""
    files = paths if paths is not None else sorted(PACKAGE.rglob("*.py"))
    for path in files:
        source = path.read_text(encoding="utf-8")
        finder = _Finder(str(path.relative_to(ROOT)), source.splitlines())
        tree = ast.parse(source)
        # marks first, so a marked string inside a checked call is known as marked
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in MARKERS:
                finder._mark(node)
        finder.visit(tree)
        yield from finder.found


if __name__ == "__main__":
    import collections
    import sys

    found = list(unmarked())
    by_file = collections.Counter(f.path for f in found)
    for item in found if "-v" in sys.argv else []:
        print(item)
    for path, n in sorted(by_file.items()):
        print(f"{n:4} {path}")
    print(len(found), "unmarked")
