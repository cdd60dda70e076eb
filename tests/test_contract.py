"""The game contract holds: no import cycle anywhere in deckcheck (deferred and TYPE_CHECKING
imports included), and no game's words outside its own package (deckcheck/games/<id>/)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

from deckcheck import plugins
from deckcheck.goldfish.policy import Policy
from deckcheck.models import SECTIONS
from tests.conftest import ROOT, SHIPPED

PACKAGE = ROOT / "deckcheck"

# --- the import graph -------------------------------------------------------------------------


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, module: str, known: set[str]) -> set[str]:
    """Every deckcheck module ``path`` imports anywhere: at the top, inside functions, under
    ``if TYPE_CHECKING``. ``from a.b import c`` is an import of ``a.b.c`` when that is a module,
    else of ``a.b``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    out = set()
    for target in found:
        while target not in known and "." in target:
            target = target.rpartition(".")[0]
        if target in known and target != module:
            out.add(target)
    return out


def import_graph() -> dict[str, set[str]]:
    paths = {_module(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    known = set(paths)
    return {m: _imports(p, m, known) for m, p in paths.items()}


def find_cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for dep in sorted(graph[node]):
            if state.get(dep) == 1:
                return [*path[path.index(dep) :], dep]
            if dep not in state and (found := visit(dep)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_import_graph_has_no_cycle() -> None:
    graph = import_graph()
    assert "deckcheck.plugins.contract" in graph and len(graph) > 100
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_deferred_and_a_type_checking_import(tmp_path: Path) -> None:
    """The check above can fail: a cycle closed by a TYPE_CHECKING import, or by one inside a
    function, is found and named."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a.py").write_text("from pkg import b\n", encoding="utf-8")
    (pkg / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.c import C\n",
        encoding="utf-8",
    )
    (pkg / "c.py").write_text("def f():\n    from . import a\n", encoding="utf-8")
    paths = {
        ".".join(p.relative_to(tmp_path).with_suffix("").parts).removesuffix(".__init__"): p
        for p in pkg.rglob("*.py")
    }
    graph = {m: _imports(p, m, set(paths)) for m, p in paths.items()}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]
    (pkg / "c.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    graph = {m: _imports(p, m, set(paths)) for m, p in paths.items()}
    assert find_cycle(graph) is None


def test_contract_and_registry_import_only_the_bottom() -> None:
    """The contract and the registry import the standard library, errors, normalize and the
    contract's own parts (the deal's types) only; those parts import nothing of deckcheck but
    the message catalogue (deckcheck.i18n, which imports nothing of deckcheck: issue 21)."""
    graph = import_graph()
    assert graph["deckcheck.i18n"] == set()
    parts = {
        "deckcheck.plugins.deal",
        "deckcheck.plugins.columns",
        "deckcheck.plugins.playtest",  # issue 32: the playtester's zones and steps
    }
    for part in parts:
        assert graph[part] <= {"deckcheck.i18n"}, part
    allowed = {
        "deckcheck.errors", "deckcheck.normalize", "deckcheck.i18n", "deckcheck.plugins.contract",
        *parts,
    }
    assert graph["deckcheck.plugins.contract"] <= allowed
    assert graph["deckcheck.plugins.registry"] <= allowed
    for low in ("deckcheck.models", "deckcheck.normalize", "deckcheck.errors"):
        # the contract's parts import nothing of deckcheck: models may use them (Search)
        games_used = {d for d in graph[low] if d.startswith("deckcheck.games")} - parts
        assert not games_used, (low, games_used)


# --- game words outside each game's package ------------------------------------------------------

# Files other branches of issue 20 are moving game words out of, with the words they hold
# today: being moved by i20-columns / i20-deal. Empty it as their branches are merged (an entry
# that no longer matches fails the test below, so it cannot go stale).
KNOWN_ELSEWHERE: dict[str, set[str]] = {
}
# Words that are a game's but mean something else in these files.
NOT_GAME_WORDS: dict[str, set[str]] = {
    "deckcheck/client.py": {"title"},  # an RFC 9457 problem document's title
    "deckcheck/service/problems.py": {"title"},
    "deckcheck/cli/options.py": {"command"},  # click's Context.command, the command tree
    "deckcheck/sheet.py": {"event", "title"},  # the tournament an organiser runs; the page's title
    # a registration form's 「イベント名：」 / "event name:" line: the tournament's name
    "deckcheck/decklist/headers.py": {"event", "イベント"},
    "deckcheck/service/edge.py": {"title"},  # an RFC 9457 problem document's title
    # a saved deck's visibility "link": readable by whoever has its link (issue 37)
    "deckcheck/service/schemas.py": {"link"},
    "deckcheck/service/store.py": {"link"},
    "deckcheck/web/templates/builder.html": {"link"},
    "deckcheck/sdk/testing.py": {"class"},  # pytest's fixture scope "class"
}

# Columns deckcheck's core reads for every game: identity, the types, the words copy-limit
# overrides match (keywords), the pilot's ranking (level, cost), the card kinds a
# spec allows (kind), aliases and provenance. Any other column only one game's cards use is a game's.
CORE_COLUMNS = frozenset(
    {"game", "number", "name", "type", "kind", "aliases", "keywords", "level", "cost"}
    | {"source", "rarity"}
)
# Rule words the issue names that no spec field carries yet.
NAMED_BY_THE_ISSUE = {"main_unit": "iris", "メインユニット": "iris", "refresh-penalty": "rakuen"}


def _card_columns() -> dict[str, set[str]]:
    """Column → the shipped games whose cards (card_pool/) give it a value."""
    from deckcheck.pool.importer import card_files, check_import

    used: dict[str, set[str]] = {}
    for checked in check_import(card_files(ROOT / "card_pool")):
        for card in checked.cards:
            for column, value in card.model_dump(by_alias=True).items():
                if value not in (None, "", ()):
                    used.setdefault(column, set()).add(card.game)
    return used


@cache
def game_words() -> dict[str, str]:
    """Every shipped game's words → the game: its id and name; its card type words and section
    words; its rule words (check tables, parameters and pilot keys only it has, member kinds,
    copy keys); its columns no other game's cards use."""
    specs = [s for s in plugins.specs() if s.id in SHIPPED]
    assert [s.id for s in specs] == list(SHIPPED)
    words: dict[str, str] = {}

    def only_one(per_game: dict[str, set[str]]) -> Iterator[tuple[str, str]]:
        owners: dict[str, set[str]] = {}
        for game, names in per_game.items():
            for name in names:
                owners.setdefault(name, set()).add(game)
        yield from ((n, g.pop()) for n, g in owners.items() if len(g) == 1)

    for spec in specs:
        words[spec.id] = spec.id
        words.update((w, spec.id) for w in re.findall(r"[^\x00-\x7f]+", spec.words.name))
        for canonical, typed in spec.cards.card_types.items():
            words.update((w, spec.id) for w in (canonical, *typed) if w not in SECTIONS)
        words.update((w, spec.id) for w in spec.construction.section_aliases if w not in SECTIONS)
        tables = spec.construction.check_tables() if spec.construction.check_tables is not None else ()
        words.update((t.name, spec.id) for t in tables)
        words.update((w, spec.id) for w in (*spec.cards.kinds, *spec.cards.copy_keys))
    words.update(
        only_one({s.id: {*s.construction.params, *s.play.policy.model_fields} - {*Policy.model_fields} for s in specs})
    )
    columns = {c: g for c, g in _card_columns().items() if c not in CORE_COLUMNS}
    words.update((c, g.pop()) for c, g in columns.items() if len(g) == 1)
    words.update(NAMED_BY_THE_ISSUE)
    return words


def _pattern(word: str, ids: set[str]) -> re.Pattern[str]:
    """Where ``word`` counts as used. Japanese words: anywhere. Game ids: as a word or a part of
    an identifier, any case (``ChaosTCG``, ``vision_copy_name``, a comment). Other words, which
    are English too (a type ``set``, a column ``title``): only where code names them, quoted, as
    an attribute, or in a selector (``type:paradox``)."""
    if not word.isascii():
        return re.compile(re.escape(word))
    w = re.escape(word)
    if word in ids:
        return re.compile(rf"(?<![a-z]){w}(?![a-z])|(?<![A-Za-z]){w.capitalize()}(?![a-z])")
    return re.compile(
        rf"[\"'`]{w}[\"'`]|(?<=[\w)\]])\.{w}\b(?!\s*\()|\b(?:type|kind):{w}\b"
    )


def scanned() -> list[Path]:
    """deckcheck's code outside each shipped game's own package (deckcheck/games/<id>/: no other
    folder is exempt, deckcheck/games/__init__.py and the contract neither), and the web
    builder's scripts and pages."""
    web = PACKAGE / "web"
    own = [PACKAGE / "games" / game for game in SHIPPED]
    files = [p for p in PACKAGE.rglob("*.py") if not any(p.is_relative_to(d) for d in own)]
    files += [p for p in web.rglob("*") if p.suffix in (".js", ".html", ".css")]
    return sorted(files)


def game_words_outside_games() -> dict[str, set[str]]:
    """File (relative to the repository) → the game words found in it."""
    words = game_words()
    ids = {g for g in words.values()}
    patterns = {w: _pattern(w, ids) for w in words}
    found: dict[str, set[str]] = {}
    for path in scanned():
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        # every pattern holds its word as written (an id also capitalised): a plain substring
        # test first skips the regex for the words a file never mentions (4.2 of 4.8 s)
        hits = {
            w
            for w, p in patterns.items()
            if (w in text or (w in ids and w.capitalize() in text)) and p.search(text)
        } - NOT_GAME_WORDS.get(name, set())
        if hits:
            found[name] = hits
    return found


def test_no_game_word_outside_games() -> None:
    """The README's contributing check: a game is its package under deckcheck/games/."""
    files = set(scanned())
    assert {PACKAGE / "games" / "__init__.py", PACKAGE / "plugins" / "registry.py"} <= files
    assert not {p for p in files if p.is_relative_to(PACKAGE / "games" / "chaos")}
    found = game_words_outside_games()
    new = {
        f: sorted(w - KNOWN_ELSEWHERE.get(f, set()))
        for f, w in found.items()
        if w - KNOWN_ELSEWHERE.get(f, set())
    }
    assert new == {}, f"game words outside their game's package (file: words): {new}"
    stale = {
        f: sorted(w - found.get(f, set()))
        for f, w in KNOWN_ELSEWHERE.items()
        if w - found.get(f, set())
    }
    assert stale == {}, f"gone from these files: remove them from KNOWN_ELSEWHERE: {stale}"


def test_the_guard_knows_every_sort_of_game_word() -> None:
    """The guard above can fail: each sort of word is in its list, and is found in a line of
    code that names it."""
    words = game_words()
    for word, game in [
        ("chaos", "chaos"),  # an id
        ("ラクエンロジック", "rakuen"),  # a name
        ("paradox", "rakuen"),  # a card type
        ("パートナー", "chaos"),  # a card type word
        ("ゲートデッキ", "rakuen"),  # a section word
        ("spell_break", "vision"),  # a check table
        ("stock_per_turn", "rakuen"),  # a parameter only one game has
        ("solral_charge", "chaos"),  # a pilot key
        ("合理体", "rakuen"),  # a member kind
        ("vision-name", "vision"),  # a copy key
        ("os", "chaos"),  # a column only one game's cards have
        ("node", "vision"),
        ("main_unit", "iris"),
    ]:
        assert words.get(word) == game, word
    ids = set(SHIPPED)
    hits = {
        "chaos": "from deckcheck.games.chaos import x",
        "vision": "def vision_copy_name(name): ...",
        "iris": "# the Iris pilot",
        "paradox": 'want = "type:paradox>=1"',
        "os": "key = card.os",
        "node": 'filters["node"] = 3',
        "stock_per_turn": "rules.stock_per_turn",
        "パートナー": "# パートナーカード",
    }
    for word, line in hits.items():
        assert _pattern(word, ids).search(line), (word, line)
    for word, line in {
        "os": "import os; os.environ",
        "iris": "irises = 1",
        "set": "found = set()",
        "node": "# a node of the graph",
        "title": "name.title()",
    }.items():
        assert not _pattern(word, ids).search(line), (word, line)
