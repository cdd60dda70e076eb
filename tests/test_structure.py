"""Size and shape limits that keep the code readable: short modules, short functions in the
shells (CLI and service), no import cycle among deckcheck's modules, and one meaning of the
word "kind"."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "deckcheck"
FORMATS = PACKAGE.parent / "formats"
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


# --- "kind" is a card's kind column, and nothing else ----------------------------------------
#
# The word means a card's ``kind`` column (rakuen's 定理者 / 使者 / 合理体): ``Card.kind``, the
# kinds a game allows (``GameSpec.cards.kinds``), the ``kind:`` condition atom and filter. Anything
# else (check tables, a parameter's type, a column's type, mulligan rules, a job's task, ...)
# has a name of its own. The guard below reads every file of deckcheck/ and formats/ and
# reports each use of the word (whole, or a part of an identifier: ``kinds``, ``KIND``,
# ``check_kinds``, ``CheckKind``) that is not one of these:
#
# - code (Python's syntax tree): reading ``.kind`` / ``.kinds`` anywhere (only Card and GameSpec
#   may define such a field: any other class field, or assigning ``x.kind``, is reported); a
#   ``kind=`` / ``kinds=`` argument to ``Card`` / ``Cards``, or one listed by module; every
#   other identifier (a name, a parameter, a function, an import, a module) only in the modules
#   and names listed, each of which holds a card's kind; a string that is one word (a key:
#   ``"kind"``) likewise;
# - prose (comments, docstrings, messages, the builder's script, format files): one of the
#   phrases that name the card column (``kind``, kind:合理体, a card's kind, a sub-kind, ...);
# - what old files and databases still say (``LEGACY``).
#
# A new second meaning therefore needs a new name in an allowlist below, which a reviewer sees.

# "kind" as a word or a part of an identifier (snake_case, CamelCase, UPPER), not "kindly"
KIND_WORD = re.compile(r"(?:(?<![A-Za-z])[Kk]ind|(?<=[a-z])Kind|(?<![A-Za-z])KIND)[sS]?(?![a-z])")
# the only classes with such a field: (module, class, field)
CARD_KIND_FIELDS = {("models.py", "Card", "kind"), ("plugins/contract.py", "Cards", "kinds")}
CARD_KIND_KEYWORDS = {("Card", "kind"), ("Cards", "kinds")}  # (callee, keyword)
# other identifiers and one-word strings, by module; each holds a card's kind (or kinds)
CARD_KIND_NAMES: dict[str, set[str]] = {
    "odds/conditions.py": {"kind"},  # the condition atom's word
    "games/rakuen/__init__.py": {"KINDS", "kind"},  # ch.1 §2's kinds; an imported row's kind
    "games/rakuen/fast.py": {"KINDS"},  # a kind → its code in the card table
    "games/rakuen/fast_core.py": {"KIND", "kind"},  # the table's kind row; a kind's code
    "games/rakuen/fast_field.py": {"KIND"},  # the table's kind row
    "pool/template.py": {"kind", "kinds"},  # the kind column's help line, the game's kinds
}
# keyword arguments in one module: (module, callee, keyword)
MODULE_KEYWORDS = {
    ("pool/template.py", "_", "kinds"),  # the help line's placeholder: the game's kinds
    ("games/rakuen/fast_core.py", "argsort", "kind"),  # numpy's word: its sort algorithm
}
CARD_KIND_PHRASES = re.compile(
    r"[`\"']kinds?[`\"']"  # the column's name, quoted
    r"|--kind\b|\bkind:(?:KIND\b)?"  # the search filter, the atom (kind:合理体, kind:KIND)
    r"|\b(?:card|member)s?'s? kinds?\b|\b(?:card|member) kinds?\b|\bsub-kind\b"
    r"|\b(?:type|member), kind, (?:level|cost)\b"  # a list of card columns
    r"|\{kinds\}"  # the card template's placeholder for the game's kinds
    r"|\bunknown kind\b"  # the importer's word on a kind the game does not have
    r"|\bcard\.kind\b"  # the builder reads the card's field
)
# what old format files and job tables still say: a restriction's form under its old key,
# the jobs table's task column under its old name
LEGACY = {
    ("checks/restrictions.py", "kind"),  # AliasChoices("form", "kind")
    ("service/jobstore.py", "ALTER TABLE jobs RENAME COLUMN kind TO task"),
}


def _words(text: str) -> list[re.Match[str]]:
    return list(KIND_WORD.finditer(text))


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _identifiers(tree: ast.AST) -> Iterator[tuple[int, str, str, str]]:
    """(line, what, name, context) for every identifier: a class field (context: the class),
    an attribute read or write, a keyword argument (context: the callee), any other name."""
    fields: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                targets = (
                    [item.target]
                    if isinstance(item, ast.AnnAssign)
                    else (item.targets if isinstance(item, ast.Assign) else [])
                )
                for target in targets:
                    if isinstance(target, ast.Name):
                        fields.add(id(target))
                        yield target.lineno, "field", target.id, node.name
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg is not None:
                    yield kw.value.lineno, "keyword", kw.arg, _callee(node)
        if isinstance(node, ast.Name) and id(node) not in fields:
            yield node.lineno, "name", node.id, ""
        elif isinstance(node, ast.Attribute):
            read = isinstance(node.ctx, ast.Load)
            yield node.lineno, "read" if read else "write", node.attr, ""
        elif isinstance(node, ast.arg):
            yield node.lineno, "name", node.arg, ""
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, "name", node.name, ""
        elif isinstance(node, ast.alias):
            yield node.lineno, "name", node.asname or node.name, ""
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, "name", node.module or "", ""
        elif isinstance(node, ast.Global | ast.Nonlocal):
            yield from ((node.lineno, "name", n, "") for n in node.names)


def _code_allows(module: str, what: str, name: str, context: str) -> bool:
    if what == "read":
        return name in ("kind", "kinds")  # Card.kind, GameSpec.cards.kinds (the only such fields)
    if what == "field":
        return (module, context, name) in CARD_KIND_FIELDS
    if what == "keyword":
        return (context, name) in CARD_KIND_KEYWORDS or (module, context, name) in MODULE_KEYWORDS
    return what == "name" and name in CARD_KIND_NAMES.get(module, set())


def _prose_allows(module: str, text: str, at: re.Match[str]) -> bool:
    spans = [m.span() for m in CARD_KIND_PHRASES.finditer(text)]
    for legacy_module, snippet in LEGACY:
        if legacy_module == module:
            spans += [(m.start(), m.end()) for m in re.finditer(re.escape(snippet), text)]
    return any(start <= at.start() and at.end() <= end for start, end in spans)


_STRING = re.compile(
    r"^(?P<prefix>[A-Za-z]*)(?P<quote>\"\"\"|'''|\"|')(?P<body>.*)(?P=quote)$", re.S
)


def _string_body(token: str) -> tuple[str, bool]:
    """A string token's text (an f-string's fields blanked: the syntax tree checks them) and
    whether it is one word, a key like ``"kind"``."""
    found = _STRING.match(token)
    if found is None:
        return token, False
    body = found["body"]
    if "f" in found["prefix"].lower():
        body = re.sub(r"\{[^{}]*\}", lambda m: " " * len(m.group()), body.replace("{{", "  "))
    return body, re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", body) is not None


def kind_misuses(module: str, text: str) -> list[str]:
    """Every use of the word in ``text`` (the file ``module``, relative to deckcheck/) that is
    not the card column's, as ``module:line: the use``."""
    out = [f"{module}: the file's name" for _ in _words(Path(module).as_posix())]
    if not module.endswith(".py"):
        for number, row in enumerate(text.splitlines(), 1):
            out += [
                f"{module}:{number}: {row.strip()}"
                for at in _words(row)
                if not _prose_allows(module, row, at)
            ]
        return out
    for line, what, name, context in _identifiers(ast.parse(text)):
        if _words(name) and not _code_allows(module, what, name, context):
            out.append(f"{module}:{line}: {what} {name}" + (f" ({context})" if context else ""))
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            body, key = token.string, False
        elif token.type == tokenize.STRING:
            body, key = _string_body(token.string)
        else:
            continue
        for at in _words(body):
            if key:  # a key names a thing like an identifier does
                ok = body in CARD_KIND_NAMES.get(module, set()) or (module, body) in LEGACY
            else:
                ok = _prose_allows(module, body, at)
            if not ok:
                out.append(f"{module}:{token.start[0]}: {token.string.strip()[:80]}")
    return out


def checked_files() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".js", ".html", ".css", ".toml", ".md", ".txt"):
            yield path.relative_to(PACKAGE).as_posix(), path
    for path in sorted(FORMATS.glob("*.toml")):
        yield f"../formats/{path.name}", path


def test_kind_means_a_cards_kind_column_only() -> None:
    found = [
        problem
        for module, path in checked_files()
        for problem in kind_misuses(module, path.read_text(encoding="utf-8"))
    ]
    assert not found, (
        "'kind' used for something else than a card's kind column (rename it, or, if it is "
        "the card's kind, list it above):\n" + "\n".join(found)
    )


def test_the_kind_guard_can_fail() -> None:
    """Each way a second meaning could come back is reported; the card's kind is not."""
    second = {  # module → (its text, how many uses are reported)
        "checks/table.py": ("class CheckKind:\n    pass\n", 1),  # a class
        "plugins/contract.py": ("class Param:\n    kind: type\n", 1),  # a field of another class
        # a parameter, an attribute written, the parameter read
        "service/problems.py": ("def f(self, kind: str) -> None:\n    self.kind = kind\n", 3),
        "service/jobstore.py": ('row = {"kind": task}\n', 1),  # a key
        "odds/mulligan.py": ("x = 1  # the format's mulligan kind\n", 1),  # a comment
        "sweep/run.py": ('raise ValueError(f"a bad {what} kind")\n', 1),  # a message
        # a module and a name imported
        "checks/__init__.py": ("from deckcheck.checks.kind import kinds\n", 2),
        "service/jobs.py": ('start(1, task, kind="sweep")\n', 1),  # a keyword argument
        "checks/kind.py": ("", 1),  # a module's file
        "web/static/builder.js": ("function exportAs(kind) {}\n", 1),
        "../formats/x.toml": ("# the two kinds the heading names\n", 1),
        # a card's kind word in a module that may use it, for something else
        "games/rakuen/fast_core.py": ('np.sort(keys, kind="stable")\nKIND.kind = 1\n', 2),
    }
    for module, (text, uses) in second.items():
        assert len(kind_misuses(module, text)) == uses, (module, kind_misuses(module, text))
    card = {
        "odds/conditions.py": 'if f == "kind":\n    ok = card.kind == value  # kind:合理体\n',
        "games/x/__init__.py": 'spec = Cards(kinds=("a",))\ncard = Card(kind="a")\n',
        "resolve.py": '"""A card\'s kind, a ``kind`` filter."""\nkey = (card.type, card.kind)\n',
        "web/static/builder.js": "// type, kind, level\nconst out = [card.type, card.kind];\n",
    }
    for module, text in card.items():
        assert kind_misuses(module, text) == [], module
