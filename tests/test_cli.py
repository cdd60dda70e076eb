"""The command line: exit statuses, JSON shapes, messages for bad input (never a traceback)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck import plugins
from deckcheck.cli import app
from tests.cli_run import CliRunner
from tests.conftest import DATA, EXAMPLES

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "cli.sqlite3")


def run(*args: str, db: str | None = None) -> tuple[int, str, str]:
    argv = list(args) + (["--db", db] if db else [])
    result = runner.invoke(app, argv)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_legal_deck_exits_0(db: str) -> None:
    code, out, _ = run("validate", str(EXAMPLES / "rakuen-standard-legal.deck"), db=db)
    assert code == 0 and "LEGAL" in out


def test_illegal_deck_exits_1_with_every_violation(db: str) -> None:
    code, out, _ = run("validate", str(EXAMPLES / "rakuen-standard-illegal.deck"), db=db)
    assert code == 1
    for rule in (
        "rakuen/main-size",
        "rakuen/paradox-count",
        "rakuen/main-no-gate",
        "rakuen/gate-size",
        "rakuen/gate-number",
    ):
        assert rule in out
    assert (
        "fix: add 1 card" in out and "source: ラクエンロジック ルールブック Ver1.0 ch.1 §4" in out
    )


def test_json_for_one_deck_and_for_several(db: str) -> None:
    code, out, _ = run("validate", str(EXAMPLES / "iris-standard-illegal.deck"), "--json", db=db)
    assert code == 1
    one = json.loads(out)
    assert one["format"] == "iris-standard" and one["game"] == "iris" and one["legal"] is False
    assert one["counts"] == {"main": 49}
    assert {v["rule"] for v in one["violations"]} == {
        "iris/main-size",
        "iris/unit-min",
        "iris/copies",
    }
    code, out, _ = run("validate", str(EXAMPLES), "--json", db=db)
    many = json.loads(out)
    assert code == 1 and isinstance(many, list) and len(many) == 12
    assert {d["format"] for d in many} == {
        "chaos-standard",
        "chaos-neo-standard",
        "rakuen-standard",
        "vision-standard",
        "iris-standard",
    }
    assert sorted(d["legal"] for d in many) == [False] * 5 + [True] * 7


def test_format_option_overrides_the_file(db: str) -> None:
    path = str(EXAMPLES / "chaos-neo-standard-illegal.deck")
    assert run("validate", path, db=db)[0] == 1
    assert run("validate", path, "--format", "chaos-standard", db=db)[0] == 0
    fmt = str(DATA / "formats" / "chaos-event-test.toml")
    code, out, _ = run(
        "validate", str(EXAMPLES / "chaos-standard-legal.deck"), "--format", fmt, "--json", db=db
    )
    assert code == 1 and json.loads(out)["format"] == "chaos-event-test"


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        (None, [], "no such file"),
        (b"4 SAMPLE-C-001\n", [], "no format: line and no --format"),
        (b"format: nope\n4 SAMPLE-C-001\n", [], "unknown format 'nope'"),
        (b"4 SAMPLE-C-001\n", ["--format", "nope"], "unknown format 'nope'"),
        (b"\x00\x01\x02\x03garbage", [], "binary data"),
        (b"\x80\x81\xff\xfe\xfd", [], "not UTF-8"),
    ],
)
def test_input_errors_exit_2(
    db: str, tmp_path: Path, content: bytes | None, args: list[str], message: str
) -> None:
    path = tmp_path / "deck.txt"
    if content is not None:
        path.write_bytes(content)
    code, out, err = run("validate", str(path), *args, db=db)
    assert code == 2 and message in err and "Traceback" not in err + out


def test_broken_lines_are_violations_not_errors(db: str, tmp_path: Path) -> None:
    path = tmp_path / "odd.deck"
    path.write_text(
        "format: chaos-standard\n-4 SAMPLE-C-001\n99999999999 x\n[what]\n4 y\n", encoding="utf-8"
    )
    code, out, _ = run("validate", str(path), "--json", db=db)
    report = json.loads(out)
    assert code == 1
    assert [v["line"] for v in report["violations"] if v["rule"] == "deck/syntax"] == [2, 3, 4]


def test_unreadable_database_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"garbage" * 1000)
    code, _, err = run("validate", str(EXAMPLES / "iris-standard-legal.deck"), db=str(bad))
    assert code == 2 and "the database is damaged" in err


def test_pool_stats_json(db: str) -> None:
    code, out, _ = run("pool", "stats", "--json", db=db)
    stats = json.loads(out)
    # issue 23: the samples and the rulebook's examples are counted apart
    assert code == 0 and set(stats) == {"total", "by_game", "samples", "examples"}
    assert set(stats["by_game"]) == set(plugins.ids())  # the shipped four and any plugin's
    assert {"chaos", "rakuen", "vision", "iris"} <= set(stats["by_game"])
    assert stats["total"] == sum(stats["by_game"].values())


def test_pool_import_all_or_nothing(db: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "game,number,name,type\nchaos,N-1,ok,chara\nchaos,N-2,,chara\nchaos,N-3,x,wizard\n",
        encoding="utf-8",
    )
    code, _, err = run("pool", "import", str(bad), db=db)
    assert code == 2
    assert f"{bad}: row 2 (line 3): missing name" in err
    assert f"{bad}: row 3 (line 4): unknown type 'wizard'" in err
    assert "nothing imported" in err
    assert json.loads(run("pool", "search", "ok", "--json", db=db)[1]) == []
    good = tmp_path / "good.jsonl"
    good.write_text(
        '{"game": "chaos", "number": "N-1", "name": "ok", "type": "chara"}\n', encoding="utf-8"
    )
    code, out, _ = run("pool", "import", str(good), db=db)
    assert code == 0 and "1 new" in out
    found = json.loads(run("pool", "search", "ok", "--game", "chaos", "--json", db=db)[1])
    assert [c["number"] for c in found] == ["N-1"]


def test_pool_search_table(db: str) -> None:
    code, out, _ = run("pool", "search", "見本の騎士", "--game", "iris", db=db)
    assert code == 0 and "SAMPLE-I-U01" in out and "SAMPLE-I-E01" in out
    assert run("pool", "search", "--game", "poker", db=db)[0] == 2


def test_formats_list_and_show() -> None:
    code, out, _ = run("formats", "--json")
    ids = {f["id"] for f in json.loads(out)}
    assert (
        code == 0
        and {
            "chaos-standard",
            "chaos-neo-standard",
            "rakuen-standard",
            "vision-standard",
            "iris-standard",
        }
        <= ids
    )
    code, out, _ = run("formats", "show", "vision-standard")
    assert code == 0 and "vision/deck-limit" in out and "(assumption)" in out
    assert run("formats", "show", "nope")[0] == 2


def test_console_script_has_no_traceback(tmp_path: Path) -> None:
    """The installed entry point, as a user runs it, on a missing file."""
    exe = Path(sys.executable).with_name("deckcheck")
    result = subprocess.run(
        [str(exe), "validate", str(tmp_path / "missing.deck")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "no such file" in result.stderr


CHAOS_DECK = str(EXAMPLES / "chaos-standard-legal.deck")


@pytest.mark.parametrize(
    "args",
    [
        ["odds", CHAOS_DECK, "-w", "type:set>=1", "--turns", "1"],
        ["hand", CHAOS_DECK, "--seed", "3"],
        ["goldfish", CHAOS_DECK, "--games", "20", "--turns", "2"],
    ],
    ids=["odds", "hand", "goldfish"],
)
def test_format_file_for_odds_hand_goldfish(db: str, tmp_path: Path, args: list[str]) -> None:
    """``--format`` takes a .toml file, as validate's does; a missing one is an input error."""
    fmt = str(DATA / "formats" / "chaos-event-test.toml")
    code, out, err = run(*args, "--format", fmt, "--json", db=db)
    assert code == 0, err
    assert json.loads(out)["format"] == "chaos-event-test"
    code, out, err = run(*args, "--format", str(tmp_path / "missing.toml"), db=db)
    assert code == 2 and "missing.toml" in err and "Traceback" not in err + out


def test_database_trouble_exits_2_not_70(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from deckcheck.pool.store import Pool

    def broken(self: Pool) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(Pool, "stats", broken)
    code, _, err = run("pool", "stats", db=db)
    assert code == 2 and "database is locked" in err
