"""Every ``deckcheck …`` command of the ```sh blocks of the documentation's English pages
(``docs/*.md``, where README.md's content moved in issue 34; the Japanese pages give the same
commands: tests/test_docs.py) runs as printed (issue 23), with
``COLUMNS=80``, in a scratch folder holding the files the commands name, and:

- exits with the documented status: 0, or 1 when the deck it leaves or names is illegal (the
  verdict of ``deckcheck validate`` on the same files afterwards);
- cuts no table header with "…";
- prints "wrote PATH (what)" for each file it writes.

A line's ``[optional]`` parts run both left out and put in, and its alternatives (``--to
json|csv|text``, ``--json | --csv t.csv``) each once. The placeholders are files made from
``examples/`` for the game the command is about (``my.deck``, ``decks/``, ``a.deck``,
``b.json``, ``event.toml``, ``pilot.toml``, ``cards.csv``, ``more.jsonl``, ``old.deck``,
``new.deck``); the folder is a git repository with an ``origin/main`` for ``--changed-since``.
Commands run through ``python -m deckcheck`` with the repository on PYTHONPATH, against one
card database built for the session (``DECKCHECK_DB``), so they work in CI's venv.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli_run import deckcheck
from tests.conftest import ROOT

# the English pages (page.md; page.ja.md is the Japanese twin)
PAGES = sorted(p for p in (ROOT / "docs").glob("*.md") if not p.name.endswith(".ja.md"))

# What cannot run offline or in a test, with why: a command containing one of these is skipped.
SKIP = {
    "deckcheck serve": "starts a server that runs until stopped",
    "--server": "needs a running deckcheck service",
    "--scheduler tcp://": "needs a Dask scheduler",
}
# A block that sets these up runs against a service or database the test does not have.
SKIP_BLOCKS = {"DECKCHECK_DATABASE_URL=postgresql": "needs a PostgreSQL server"}

# The game a command is about, from words only that game's conditions and cards use; else rakuen
# (the running example of the pages that were the README).
HINTS = {
    "vision": ("type:spell", "--game vision", "vision-"),
    "chaos": ("見本キャラ", "--optional-draws", "type:set", "--game chaos", "chaos-"),
}
DEFAULT_FORMAT = {
    "rakuen": "rakuen-standard",
    "chaos": "chaos-standard",
    "vision": "vision-standard",
}
CONDITION = {"rakuen": "type:paradox>=1", "chaos": "type:chara>=2", "vision": "type:spell>=1"}
# commands whose documented status is the verdict of the decks they name or leave (README:
# validate's exit status; "fix … exits 0 when the deck is (or becomes …) legal, 1 if not");
# the others exit 0 when they succeed (add and remove print the verdict, and succeed)
VERDICT = {"validate", "fix"}
# a word cut by rich to fit the width: "hand_…", "kind:合理体>…" (headers, and cells too)
CUT = re.compile(r"\S…(?=\s|[│┃|]|$)")
ASSIGNMENT = re.compile(r"^[A-Z_]+=\S*\s+")  # ``VAR=value deckcheck …``


@dataclass(frozen=True)
class Command:
    line: str  # as printed on the page
    args: tuple[str, ...]  # after ``deckcheck``, one variant of the line
    skip: str | None = None

    @property
    def game(self) -> str:
        text = " ".join(self.args)
        return next((g for g, words in HINTS.items() if any(w in text for w in words)), "rakuen")


def _blocks(text: str) -> Iterator[list[str]]:
    """The ```sh blocks' logical lines (``\\`` continuations joined)."""
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
        yield block.replace("\\\n", " ").splitlines()


def _alternatives(tokens: list[str]) -> list[list[str]]:
    """``a | b | c`` (an option group, then ``|``-separated ones) and ``--to json|csv`` as one
    token list each."""
    if "|" in tokens:
        parts = " ".join(tokens).split(" | ")
        head = parts[0].split(" ")
        last = max(i for i, t in enumerate(head) if t.startswith("--"))
        first, rest = head[:last], [head[last:], *(p.split(" ") for p in parts[1:])]
        return [first + alt for alt in rest]
    for i, token in enumerate(tokens):
        if i and tokens[i - 1].startswith("--") and re.fullmatch(r"[\w-]+(\|[\w-]+)+", token):
            return [[*tokens[:i], alt, *tokens[i + 1 :]] for alt in token.split("|")]
    return [tokens]


def _optional(tokens: list[str], keep: bool) -> list[str]:
    """``[...]`` groups kept (brackets dropped, COND and FILE filled in later) or left out."""
    out, inside = [], False
    for token in tokens:
        opens, closes = token.startswith("["), token.endswith("]")
        inside = inside or opens
        if not inside or keep:
            out.append(token.strip("[]"))
        inside = inside and not closes
    return out


def _variants(line: str) -> list[tuple[str, ...]]:
    tokens = shlex.split(line, comments=True)[1:]
    seen: dict[tuple[str, ...], None] = {}
    for alt in _alternatives(tokens):
        for keep in (True, False):
            seen[tuple(_optional(alt, keep))] = None
    return list(seen)


def readme_commands() -> list[Command]:
    commands = []
    for lines in (b for page in PAGES for b in _blocks(page.read_text(encoding="utf-8"))):
        block = "\n".join(lines)
        skip_block = next((why for key, why in SKIP_BLOCKS.items() if key in block), None)
        for line in (s.strip() for s in lines):
            while ASSIGNMENT.match(line):
                line = ASSIGNMENT.sub("", line, count=1)
            if not line.startswith("deckcheck "):
                continue
            skip = skip_block or next((why for key, why in SKIP.items() if key in line), None)
            variants = [()] if skip else _variants(line)
            commands += [Command(line, args, skip) for args in variants]
    return commands


COMMANDS = readme_commands()


@pytest.fixture(scope="session")
def readme_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of every command: one card database for the session (``pool init``),
    English, 80 columns, the repository importable."""
    return pool_env(tmp_path_factory.mktemp("readme-db") / "pool.sqlite3")


def pool_env(db: Path) -> dict[str, str]:
    """This process's environment without any language or deckcheck setting, the repository
    importable, 80 columns, English, and a card database at ``db`` built by ``pool init``."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "DECKCHECK_"))}
    env.update(PYTHONPATH=path, DECKCHECK_DB=str(db), COLUMNS="80", LANG="C.UTF-8")
    assert deckcheck(["pool", "init", "--db", str(db)], env=env).returncode == 0
    return env


def run_deckcheck(
    args: list[str], cwd: Path, env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], str]:
    """``deckcheck ARGS`` (in this process, as the process answers: tests/cli_run.py), and
    the whole exchange as a user saw it (for assertion messages); it never prints a traceback."""
    done = deckcheck(args, env=env, cwd=cwd)
    shown = f"$ deckcheck {shlex.join(args)}\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr, shown
    return done, shown


def _format_of(command: Command) -> str:
    named = [b for a, b in zip(command.args, command.args[1:], strict=False) if a == "--format"]
    if named and (ROOT / "examples" / f"{named[0]}-legal.deck").exists():
        return named[0]
    return DEFAULT_FORMAT[command.game]


@pytest.fixture(scope="session")
def scratch_templates(
    tmp_path_factory: pytest.TempPathFactory, readme_env: dict[str, str]
) -> Callable[[str, str], Path]:
    """One scratch folder per format, made at its first use and copied for each command: making
    one runs ``deckcheck convert`` and four git commands, which cost more than most of the
    commands tested (issue 35)."""
    made: dict[str, Path] = {}

    def template(fmt: str, game: str) -> Path:
        key = f"{fmt}-{game}"
        if key not in made:
            made[key] = tmp_path_factory.mktemp(f"scratch-{key}")
            _make_scratch(made[key], fmt, game, readme_env)
        return made[key]

    return template


def _scratch(folder: Path, command: Command, templates: Callable[[str, str], Path]) -> None:
    """The files the README's commands name, for the command's game: a copy of the format's
    template (a git repository with an ``origin/main``, so ``.git`` is copied too)."""
    template = templates(_format_of(command), command.game)
    shutil.copytree(template, folder, dirs_exist_ok=True, symlinks=True)
    if command.args[0] == "new":
        (folder / "my.deck").unlink()  # ``new`` makes it


def _make_scratch(folder: Path, fmt: str, game: str, env: dict[str, str]) -> None:
    legal = ROOT / "examples" / f"{fmt}-legal.deck"
    shutil.copytree(ROOT / "examples", folder / "examples")
    (folder / "docs").mkdir()
    (folder / "decks").mkdir()
    for name in ("my.deck", "a.deck", "old.deck", "new.deck", "decks/one.deck"):
        shutil.copy(legal, folder / name)
    (folder / "event.toml").write_text(
        f'extends = "{fmt}"\nid = "readme-event"\nname = "README event"\n'
        'sources = ["outside the rulebooks: a test event"]\n',
        encoding="utf-8",
    )
    (folder / "pilot.toml").write_text('name = "README pilot"\n', encoding="utf-8")
    _cards(folder, game)
    done = deckcheck(["convert", "a.deck", "--to", "json"], env=env, cwd=folder)
    assert done.returncode == 0, done.stderr
    (folder / "b.json").write_text(done.stdout, encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "scratch"],
                 ["update-ref", "refs/remotes/origin/main", "HEAD"]):  # fmt: skip
        subprocess.run([*git, *step], cwd=folder, check=True, capture_output=True)


def _cards(folder: Path, game: str) -> None:
    """cards.csv and more.jsonl: rows of the game's sample cards, as the pool has them."""
    source = ROOT / "card_pool" / game / "sample.csv"
    lines = source.read_text(encoding="utf-8").splitlines()
    (folder / "cards.csv").write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")
    rows = list(csv.DictReader(lines))[3:5]
    jsonl = [json.dumps({k: v for k, v in r.items() if v}, ensure_ascii=False) for r in rows]
    (folder / "more.jsonl").write_text("\n".join(jsonl) + "\n", encoding="utf-8")


def _filled(command: Command) -> list[str]:
    fill = {"COND": CONDITION[command.game], "FILE": "out-file"}
    return [fill.get(a, a) for a in command.args]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and ".git" not in p.parts
    }


def _verdict(folder: Path, files: list[str], env: dict[str, str]) -> int:
    """``deckcheck validate``'s status for ``files`` (0 legal, 1 illegal)."""
    return deckcheck(["validate", *files], env=env, cwd=folder).returncode


def _expected(command: Command, args: list[str], folder: Path, env: dict[str, str]) -> int:
    if command.args[0] not in VERDICT:
        return 0
    if command.args[0] == "validate":
        return 0  # every deck in the folder is a legal example; ``--changed-since``: none
    return _verdict(folder, [args[1]], env)  # fix: the deck as it leaves it


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c.args) or c.line for c in COMMANDS])
def test_readme_command(
    command: Command,
    readme_env: dict[str, str],
    scratch_templates: Callable[[str, str], Path],
    tmp_path: Path,
) -> None:
    if command.skip:
        pytest.skip(command.skip)
    _scratch(tmp_path, command, scratch_templates)
    args = _filled(command)
    before = _snapshot(tmp_path)
    done, shown = run_deckcheck(args, tmp_path, readme_env)
    assert done.returncode == _expected(command, args, tmp_path, readme_env), shown
    cut = [line for line in done.stdout.splitlines() if CUT.search(line)]
    assert not cut, f"table text cut at 80 columns: {cut}\n{shown}"
    after = _snapshot(tmp_path)
    written = sorted(p for p, data in after.items() if before.get(p) != data)
    in_place = {args[1]} if args[0] in ("add", "remove", "fix") else set()
    said = done.stdout + done.stderr
    missing = [p for p in written if p not in in_place and not _wrote(said, p)]
    assert not missing, f"no 'wrote PATH (what)' line for {missing}\n{shown}"


def _wrote(output: str, path: str) -> bool:
    return any(
        re.match(rf"(deckcheck: )?wrote {re.escape(path)} \(.+\)$", line.strip())
        for line in output.splitlines()
    )


def test_the_readme_lists_its_commands() -> None:
    """The parser finds the pages' commands and expands them as documented (a page edit that
    breaks the parsing fails here, not silently)."""
    lines = {c.line for c in COMMANDS}
    assert any(
        line.startswith("deckcheck sweep examples/rakuen-standard-legal.deck") for line in lines
    )
    convert = [c.args for c in COMMANDS if c.args[:1] == ("convert",)]
    assert {a[a.index("--to") + 1] for a in convert if "--to" in a} == {"json", "csv", "text"}
    assert ("convert", "my.deck", "--to", "json") in convert
    assert ("convert", "my.deck", "my.json") in convert  # the form from the file's suffix
    assert any("--pin-numbers" in a and "FILE" in a for a in convert)
    goldfish = [c.args for c in COMMANDS if c.args[:1] == ("goldfish",) and "--policy" in c.args]
    assert {a[-2] if a[-1].endswith((".csv", ".parquet", ".png")) else a[-1] for a in goldfish} == {
        "--json",
        "--csv",
        "--parquet",
        "--plot",
    }
    skipped = {c.line.split("#")[0].strip() for c in COMMANDS if c.skip}
    assert skipped == {
        "deckcheck serve [--host 127.0.0.1] [--port 8000] [--db PATH] [--workers N]",
        "deckcheck --server http://127.0.0.1:8000 validate decks/",
        "deckcheck pool import my-cards.csv",
        "deckcheck serve --port 8000",
        "deckcheck serve --host 0.0.0.0 --port 8000 --workers 2",
    }
