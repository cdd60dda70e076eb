"""The tutorial "Write a game" (docs/write-a-game.md, docs/write-a-game.ja.md) builds a game
that works: its files are the page's code blocks titled with a file name (```python
title="lantern_night/__init__.py"), taken out of the page into a temporary folder and installed
there (tests/extra_game.py: the packages on ``PYTHONPATH`` beside a hand-written dist-info
with the entry point its pyproject.toml declares). Through the CLI (``pool init`` in a process
of its own, the further commands in this one with the folder on ``sys.path``: tests/cli_run.py),
the game's cards go into the pool, its legal example deck validates and its illegal one breaks
the rules the page shows, in English and Japanese, goldfish plays it, a game replays in its
words, and the package's own tests (the SDK's conformance suite) pass. A page edit that breaks
the game's code fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT, on_path
from tests.extra_game import deckcheck as in_process_of_its_own
from tests.extra_game import deckcheck_imports, install, package_tests
from tests.extra_game import in_this_process as deckcheck

PAGES = {"en": ROOT / "docs" / "write-a-game.md", "ja": ROOT / "docs" / "write-a-game.ja.md"}
FILE_BLOCK = re.compile(r'^```[\w-]+ title="([^"]+)"\n(.*?)^```$', flags=re.S | re.M)
LEGAL = "lantern_night/data/examples/lantern-standard-legal.deck"
ILLEGAL = "lantern_night/data/examples/lantern-standard-illegal.deck"


def tutorial_files(text: str) -> dict[str, str]:
    """The files a page gives: path → content, from its code blocks titled with a path."""
    found: dict[str, str] = {}
    for path, body in FILE_BLOCK.findall(text):
        assert path not in found, f"{path} is given twice"
        found[path] = body
    return found


def shown_violations(text: str) -> list[str]:
    """The violation lines (``✗ rule …``) the page's ```text blocks show."""
    blocks = re.findall(r"^```text\n(.*?)^```$", text, flags=re.S | re.M)
    return [line for block in blocks for line in block.splitlines() if line.startswith("✗ ")]


def test_the_reader_takes_titled_blocks_only() -> None:
    page = (
        '```python title="pkg/__init__.py"\nX = 1\n```\n\n```bash\npip install .\n```\n'
        '```csv title="pkg/data/cards.csv"\na,b\n1,2\n```\n'
    )
    assert tutorial_files(page) == {
        "pkg/__init__.py": "X = 1\n",
        "pkg/data/cards.csv": "a,b\n1,2\n",
    }


def test_both_pages_give_the_same_files() -> None:
    en, ja = (tutorial_files(p.read_text(encoding="utf-8")) for p in PAGES.values())
    assert en == ja
    assert {"pyproject.toml", "lantern_night/__init__.py", "tests/test_conformance.py"} <= set(en)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the package written out of the English page, the folder it is installed in)."""
    base = tmp_path_factory.mktemp("tutorial")
    source, site = base / "lantern-night", base / "site"
    for path, body in tutorial_files(PAGES["en"].read_text(encoding="utf-8")).items():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_text(body, encoding="utf-8")
    assert install(source, site) == ["lantern"]
    return source, site


def test_the_game_imports_nothing_of_deckcheck_but_the_sdk(game: tuple[Path, Path]) -> None:
    assert deckcheck_imports(game[1] / "lantern_night") == {"deckcheck.sdk"}


def test_validate_goldfish_and_replay(
    game: tuple[Path, Path], tmp_path: Path, plugin_path: list[Path]
) -> None:
    source, site = game
    db = tmp_path / "pool.sqlite3"
    legal, illegal = str(source / LEGAL), str(source / ILLEGAL)
    assert in_process_of_its_own(site, db, "pool", "init", "--force").returncode == 0
    on_path(plugin_path, site)
    cards = json.loads(deckcheck(site, db, "pool", "search", "--game", "lantern", "--json").stdout)
    assert len(cards) == 10 and {c["type"] for c in cards} == {"lamp", "spark"}
    assert (
        "no more spark cards than lamp cards"
        in deckcheck(site, db, "formats", "show", "lantern-standard").stdout
    )

    ok = deckcheck(site, db, "validate", "--json", legal)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert json.loads(ok.stdout)["counts"] == {"main": 30}
    bad = deckcheck(site, db, "validate", "--json", illegal)
    assert bad.returncode == 1, bad.stderr
    rules = [v["rule"] for v in json.loads(bad.stdout)["violations"]]
    assert rules == ["lantern/main-size", "lantern/copies", "lantern/balance"]
    for lang, page in PAGES.items():  # the lines the page shows are lines validate prints
        printed = deckcheck(site, db, "validate", "--lang", lang, illegal).stdout
        shown = shown_violations(page.read_text(encoding="utf-8"))
        assert len(shown) == 3 and all(line in printed for line in shown), printed

    fish = deckcheck(site, db, "goldfish", legal, "--games", "500", "--turns", "12", "--json")
    assert fish.returncode == 0, fish.stderr
    result = json.loads(fish.stdout)
    assert (result["game"], result["engine"]) == ("lantern", "reference")
    assert result["milestones"]["festival"]["rate"] > 0.9
    first, last = result["per_turn"][0], result["per_turn"][-1]
    assert first["lit_p10"] >= 1  # the hung lamp is lit before the first turn
    assert last["deck_mean"] == 30 - 1 - 5 - 11  # hung, dealt, drawn (not on the first turn)

    named = deckcheck(site, db, "hand", legal, "--aside", "提灯")
    assert "hung lamp: 提灯 (LN-L01)" in named.stdout, named.stdout + named.stderr
    spark = deckcheck(site, db, "hand", legal, "--aside", "火打石")  # a spark is not hung
    assert spark.returncode == 2 and "not a lamp of the main deck" in spark.stderr
    assert "Traceback" not in spark.stderr

    replay = deckcheck(site, db, "goldfish", legal, "--turns", "3", "--replay", "1")
    assert replay.returncode == 0, replay.stderr
    assert "lights “" in replay.stdout and "lamps lit" in replay.stdout
    replay_ja = deckcheck(
        site, db, "goldfish", legal, "--turns", "3", "--replay", "1", "--lang", "ja"
    )
    assert "」に火を灯す" in replay_ja.stdout and "が点灯中" in replay_ja.stdout


def test_the_game_passes_the_conformance_suite(game: tuple[Path, Path], tmp_path: Path) -> None:
    source, site = game
    run = package_tests(source, site, tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "4 passed, 1 skipped" in run.stdout  # the tape test: the game has no batch engine
