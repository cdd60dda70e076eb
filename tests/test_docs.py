"""The documentation site (docs/, mkdocs.yml; issue 34):

- every page exists in English (``page.md``) and Japanese (``page.ja.md``), by the check
  ``mkdocs_hooks.py`` also runs in ``make docs`` (tested on a folder of its own first);
- every ``$ deckcheck …`` line of a ```console block runs, from the top of the checkout on a
  card database of its own, and exits 0, or N when the line ends in ``# exit status N``; the
  output lines shown under it are lines the command prints (English pages with ``LANG=C.UTF-8``,
  Japanese ones with ``LANG=ja_JP.UTF-8``, 80 columns). These are the blocks that run: ```sh
  blocks are the reference of each command, run by tests/test_readme_commands.py;
- the ```sh blocks of a Japanese page hold the same ``deckcheck`` commands as its English twin;
- the site builds with ``mkdocs build --strict`` (every warning an error, broken links and
  anchors included).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from mkdocs_hooks import unpaired
from tests.conftest import ROOT
from tests.test_readme_commands import pool_env, run_deckcheck

DOCS = ROOT / "docs"
LANG = {"en": "C.UTF-8", "ja": "ja_JP.UTF-8"}
STATUS = re.compile(r"\s+#\s*exit status (\d+)\s*$")


def test_every_page_is_in_both_languages() -> None:
    assert unpaired(DOCS) == []
    assert len(list(DOCS.glob("*.ja.md"))) == len(list(DOCS.glob("*.md"))) // 2 >= 15


def test_a_page_in_one_language_is_found(tmp_path: Path) -> None:
    for name in ("index.md", "index.ja.md", "odds.md", "goldfish.ja.md", "sub/page.md"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("# x\n", encoding="utf-8")
    assert unpaired(tmp_path) == [
        "goldfish: missing in en",
        "odds: missing in ja",
        "sub/page: missing in ja",
    ]


@dataclass(frozen=True)
class Line:
    page: str  # the file, relative to docs/
    command: str  # after "$ ", with any "# exit status N" cut off
    status: int
    shown: tuple[str, ...]  # the output lines printed under it

    @property
    def language(self) -> str:
        return "ja" if self.page.endswith(".ja.md") else "en"


def console_lines(text: str, page: str) -> list[Line]:
    """The ``$ deckcheck`` lines of a page's ```console blocks, with the output shown after
    each (up to the next ``$`` line or the block's end)."""
    found: list[Line] = []
    for block in re.findall(r"^```console\n(.*?)^```", text, flags=re.S | re.M):
        for chunk in re.split(r"^(?=\$ )", block, flags=re.M):
            if not chunk.startswith("$ "):
                continue
            first, *shown = chunk.rstrip("\n").split("\n")
            status = STATUS.search(first)
            command = STATUS.sub("", first[2:]).strip()
            found.append(Line(page, command, int(status.group(1)) if status else 0, tuple(shown)))
    return found


def _all_lines() -> list[Line]:
    return [
        line
        for path in sorted(DOCS.glob("*.md"))
        for line in console_lines(path.read_text(encoding="utf-8"), path.name)
    ]


LINES = _all_lines()


def test_the_parser_reads_blocks_statuses_and_output() -> None:
    text = (
        "```console\n$ deckcheck validate a.deck   # exit status 1\n  x\n  y\n"
        "$ deckcheck formats\n```\n```sh\ndeckcheck odds b.deck\n```\n"
    )
    assert console_lines(text, "p.ja.md") == [
        Line("p.ja.md", "deckcheck validate a.deck", 1, ("  x", "  y")),
        Line("p.ja.md", "deckcheck formats", 0, ()),
    ]
    quick = [line for line in LINES if line.page.startswith("quickstart")]
    assert {line.language for line in quick} == {"en", "ja"}
    assert any(line.status == 1 for line in quick)
    assert all(line.command.startswith("deckcheck ") for line in LINES)


@pytest.fixture(scope="module")
def docs_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One card database for the module, the shipped one (``pool init``)."""
    return pool_env(tmp_path_factory.mktemp("docs-db") / "pool.sqlite3")


@pytest.mark.parametrize("line", LINES, ids=[f"{x.page}: {x.command}" for x in LINES])
def test_console_command_runs(line: Line, docs_env: dict[str, str]) -> None:
    env = {**docs_env, "LANG": LANG[line.language]}
    done, said = run_deckcheck(shlex.split(line.command)[1:], ROOT, env)
    assert done.returncode == line.status, said
    printed = {out.strip() for out in done.stdout.splitlines()}
    missing = [shown for shown in line.shown if shown.strip() not in printed]
    assert not missing, f"{line.page} shows lines the command no longer prints: {missing}\n{said}"


def _sh_commands(text: str) -> list[str]:
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip().startswith("deckcheck "):
                commands.append(shlex.join(shlex.split(line, comments=True)))
    return commands


def test_japanese_pages_give_the_english_commands() -> None:
    differ = {
        ja.name: (en_commands, ja_commands)
        for ja in sorted(DOCS.glob("*.ja.md"))
        if (en_commands := _sh_commands((DOCS / ja.name.replace(".ja.md", ".md")).read_text()))
        != (ja_commands := _sh_commands(ja.read_text(encoding="utf-8")))
    }
    assert differ == {}


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    for module in ("mkdocs", "material", "mkdocs_static_i18n"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (pip install -e '.[dev]')")
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "クイックスタート" in (site / "ja" / "quickstart" / "index.html").read_text()
    assert (site / "quickstart" / "index.html").exists()
