"""Deck files in everyday use: new/add/remove/fix (atomic), convert round trips, diff, and the
CI outputs (JUnit, GitHub annotations, SARIF), --changed-since."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from deckcheck import files
from deckcheck.cli import app
from deckcheck.errors import UsageError
from tests.cli_run import CliRunner
from tests.conftest import DATA, EXAMPLES, ROOT

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> list[str]:
    return ["--db", str(tmp_path / "files.sqlite3")]


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_new_add_remove_keep_comments_and_order(tmp_path: Path, db: list[str]) -> None:
    deck = tmp_path / "r.deck"
    assert run("new", str(deck), "--format", "rakuen-standard")[0] == 0
    assert run("new", str(deck), "--format", "rakuen-standard")[0] == 2  # no overwrite
    text = deck.read_text(encoding="utf-8")
    assert text.startswith("format: rakuen-standard\n") and "[main]" in text and "[gate]" in text
    deck.write_text(
        text.replace("[main]\n", "[main]\n4 SAMPLE-R-001  # my core\n"), encoding="utf-8"
    )
    code, out, _ = run("add", str(deck), "2", "見本逆理 ラクエン崩壊", *db)
    assert code == 0 and "ILLEGAL" in out and "rakuen/paradox-count" in out
    code, _, _ = run("add", str(deck), "1", "SAMPLE-R-001", *db)  # same card: count grows
    run("add", str(deck), "2", "SAMPLE-R-G01", *db)  # a gate goes to [gate] by itself
    lines = deck.read_text(encoding="utf-8").splitlines()
    assert "5 SAMPLE-R-001  # my core" in lines
    assert lines.index("5 SAMPLE-R-001  # my core") < lines.index("2 見本逆理 ラクエン崩壊")
    assert lines.index("[gate]") < lines.index("2 SAMPLE-R-G01")
    code, out, _ = run("remove", str(deck), "2", "SAMPLE-R-P01", *db)  # by number, written by name
    assert code == 0 and "見本逆理" not in deck.read_text(encoding="utf-8")
    code, _, err = run("remove", str(deck), "9", "SAMPLE-R-001", *db)
    assert code == 2 and "cannot remove 9" in err
    code, _, err = run("add", str(deck), "1", "見本アリア 蒼", *db)
    assert code == 2 and "no rakuen card" in err


def test_add_and_remove_take_the_count_as_players_write_it(tmp_path: Path, db: list[str]) -> None:
    """The count after the name, as a list line writes it (「大妖精 3」), written as on a list
    (３, 3枚, x3), or left out for one copy; before, each was a typer error (exit 2)."""
    deck = tmp_path / "r.deck"
    run("new", str(deck), "--format", "rakuen-standard")
    assert run("add", str(deck), "SAMPLE-R-001", "3", *db)[0] == 0  # REF N
    assert run("add", str(deck), "SAMPLE-R-001", *db)[0] == 0  # REF alone: one copy
    assert run("add", str(deck), "３枚", "SAMPLE-R-002", *db)[0] == 0
    assert run("add", str(deck), "SAMPLE-R-003", "x2", *db)[0] == 0
    assert run("remove", str(deck), "SAMPLE-R-002", "×1", *db)[0] == 0
    lines = deck.read_text(encoding="utf-8").splitlines()
    assert {"4 SAMPLE-R-001", "2 SAMPLE-R-002", "2 SAMPLE-R-003"} <= set(lines)
    # a name's words unquoted, as a shell splits them
    assert run("add", str(deck), "2", "蒼の定理者", "見本アリア", *db)[0] == 0  # SAMPLE-R-001
    assert "6 SAMPLE-R-001" in deck.read_text(encoding="utf-8").splitlines()
    assert run("remove", str(deck), "蒼の定理者", "見本アリア", "x5", *db)[0] == 0
    assert "1 SAMPLE-R-001" in deck.read_text(encoding="utf-8").splitlines()
    before = deck.read_bytes()
    code, _, err = run("add", str(deck), "3", *db)
    assert code == 2 and "'3' is a count: name the card too" in err
    code, _, err = run("add", str(deck), "0", "SAMPLE-R-001", *db)
    assert code == 2 and "N must be from 1 to 9,999: got 0" in err
    assert deck.read_bytes() == before  # a refused edit writes nothing


def test_add_reads_a_name_ending_in_a_number_as_the_name(tmp_path: Path, db: list[str]) -> None:
    """``add FILE 見本キャラ 01``: 見本キャラ names no card and 見本キャラ 01 does, so the last word is
    part of the name, one copy, as a deck list's bare count is read (the pool decides)."""
    deck = tmp_path / "c.deck"
    run("new", str(deck), "--format", "chaos-standard")
    assert run("add", str(deck), "見本キャラ", "01", *db)[0] == 0
    assert run("add", str(deck), "見本キャラ", "01", "3", *db)[0] == 0
    assert "4 見本キャラ 01" in deck.read_text(encoding="utf-8").splitlines()


def test_add_to_json_deck(tmp_path: Path, db: list[str]) -> None:
    deck = tmp_path / "c.json"
    deck.write_text(
        json.dumps({"format": "chaos-standard", "main": [{"count": 1, "card": "SAMPLE-C-P01"}]}),
        encoding="utf-8",
    )
    assert run("add", str(deck), "2", "SAMPLE-C-X01", *db)[0] == 0
    data = json.loads(deck.read_text(encoding="utf-8"))
    assert data["extra"] == [{"count": 2, "card": "SAMPLE-C-X01"}]  # extra cards go to [extra]
    assert run("remove", str(deck), "1", "SAMPLE-C-X01", *db)[0] == 0
    assert json.loads(deck.read_text(encoding="utf-8"))["extra"][0]["count"] == 1


def test_atomic_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "keep.deck"
    target.write_text("format: iris-standard\n4 SAMPLE-I-U01\n", encoding="utf-8")

    def half_then_crash(tmp: Path) -> None:
        tmp.write_text("format: iris-standard\n4 SAMP", encoding="utf-8")
        raise OSError("disk full")

    with pytest.raises(UsageError, match="disk full"):  # exit 2, naming the file
        files.write_atomic(target, half_then_crash)
    assert target.read_text(encoding="utf-8") == "format: iris-standard\n4 SAMPLE-I-U01\n"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.deck"]  # no temporary file left

    def no_rename(*_: object) -> None:
        raise OSError("rename failed")

    monkeypatch.setattr(os, "replace", no_rename)
    code, _, err = run("add", str(target), "1", "SAMPLE-I-U02", "--db", str(tmp_path / "d.db"))
    assert code == 2 and "the file is unchanged" in err
    assert target.read_text(encoding="utf-8") == "format: iris-standard\n4 SAMPLE-I-U01\n"


def test_fix_applies_only_unambiguous_changes(tmp_path: Path, db: list[str]) -> None:
    deck = tmp_path / "f.deck"
    legal = (EXAMPLES / "chaos-standard-legal.deck").read_text(encoding="utf-8")
    deck.write_text(legal.replace("4 SAMPLE-C-005", "6 SAMPLE-C-005"), encoding="utf-8")
    code, out, _ = run("fix", str(deck), "--dry-run", *db)
    assert code == 1 and "fix: line 10: SAMPLE-C-005: 6 → 4 (chaos/copies)" in out
    assert "6 SAMPLE-C-005" in deck.read_text(encoding="utf-8")  # a dry run changes nothing
    code, out, _ = run("fix", str(deck), *db)  # writing is the default
    assert code == 0 and "applied: line 10: SAMPLE-C-005: 6 → 4 (chaos/copies)" in out
    assert "LEGAL" in out
    assert deck.read_text(encoding="utf-8") == legal
    paradox = tmp_path / "p.deck"
    paradox.write_text(
        (EXAMPLES / "rakuen-standard-legal.deck")
        .read_text(encoding="utf-8")
        .replace("4 SAMPLE-R-P02\n", ""),
        encoding="utf-8",
    )
    before = paradox.read_text(encoding="utf-8")
    code, out, _ = run("fix", str(paradox), *db)
    assert "needs a choice: rakuen/paradox-count: add 4 paradox" in out and code == 1
    assert paradox.read_text(encoding="utf-8") == before  # a choice is never made for the user


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.deck")))
def test_convert_round_trips_keep_the_verdict(tmp_path: Path, db: list[str], example: str) -> None:
    source = EXAMPLES / example
    before = json.loads(run("validate", str(source), "--json", *db)[1])
    current = source
    for form, suffix in (
        ("json", ".json"),
        ("csv", ".csv"),
        ("text", ".deck"),
        ("csv", ".csv"),
        ("json", ".json"),
    ):
        out = tmp_path / f"step-{form}{suffix}"
        assert run("convert", str(current), "--to", form, "--out", str(out), *db)[0] == 0
        current = out
        after = json.loads(run("validate", str(current), "--json", *db)[1])
        assert after["legal"] == before["legal"]
        assert after["counts"] == before["counts"]
        assert sorted(v["rule"] for v in after["violations"]) == sorted(
            v["rule"] for v in before["violations"]
        )


def test_convert_takes_the_form_from_the_output_files_suffix(tmp_path: Path, db: list[str]) -> None:
    """``deckcheck convert my.deck my.json``, as users write it: before, a usage error (--to)."""
    source = str(EXAMPLES / "rakuen-standard-legal.deck")
    for name, start in (("a.json", "{"), ("a.csv", "# format:"), ("a.deck", "format:")):
        out = tmp_path / name
        assert run("convert", source, str(out), *db)[0] == 0
        assert out.read_text(encoding="utf-8").startswith(start), name
    for args in (
        [str(tmp_path / "a.md")],
        [],
        [str(tmp_path / "b.json"), "-o", str(tmp_path / "c.json")],
    ):
        code, _, err = run("convert", source, *args, *db)
        assert code == 2 and "Traceback" not in err and "error:" in err, (args, err)
    assert not (tmp_path / "a.md").exists() and not (tmp_path / "b.json").exists()


def test_convert_pins_numbers(tmp_path: Path, db: list[str]) -> None:
    code, out, _ = run(
        "convert",
        str(EXAMPLES / "rakuen-standard-legal.deck"),
        "--to",
        "text",
        "--pin-numbers",
        *db,
    )
    assert code == 0 and "4 SAMPLE-R-001" in out and "見本アリア" not in out


def test_diff(db: list[str]) -> None:
    code, out, _ = run(
        "diff",
        str(EXAMPLES / "rakuen-standard-legal.deck"),
        str(EXAMPLES / "rakuen-standard-illegal.deck"),
        "--json",
        *db,
    )
    data = json.loads(out)
    assert code == 0 and data["a"]["legal"] and not data["b"]["legal"]
    main = {c["number"]: (c["before"], c["after"]) for c in data["sections"]["main"]}
    assert main["SAMPLE-R-P03"] == (0, 1) and main["SAMPLE-R-T02"] == (3, 2)
    gate = {c["number"]: (c["before"], c["after"]) for c in data["sections"]["gate"]}
    assert gate["SAMPLE-R-G07"] == (0, 1) and gate["SAMPLE-R-G05"] == (1, 0)


def test_diff_of_two_games_is_a_usage_error(db: list[str]) -> None:
    code, _, err = run(
        "diff",
        str(EXAMPLES / "iris-standard-legal.deck"),
        str(EXAMPLES / "chaos-standard-legal.deck"),
        *db,
    )
    assert code == 2 and "is an iris deck and" in err and "a chaos deck" in err, err


# --- CI outputs ---------------------------------------------------------------------------


def test_junit(db: list[str]) -> None:
    code, out, _ = run("validate", str(EXAMPLES), "--output", "junit", *db)
    assert code == 1
    root = ET.fromstring(out.encode())
    suite = root.find("testsuite")
    assert suite is not None and suite.get("tests") == "12" and suite.get("failures") == "5"
    cases = suite.findall("testcase")
    assert {c.get("name") for c in cases} == {str(p) for p in EXAMPLES.glob("*.deck")}
    failed = {c.get("name"): c.find("failure") for c in cases if c.find("failure") is not None}
    assert len(failed) == 5
    chaos = failed[str(EXAMPLES / "chaos-standard-illegal.deck")]
    assert chaos is not None and "chaos/partner-max" in (chaos.text or "")


def test_github_annotations_point_at_the_lines(db: list[str]) -> None:
    path = str(EXAMPLES / "chaos-standard-illegal.deck")
    code, out, _ = run("validate", path, "--output", "github", *db)
    assert code == 1
    lines = out.splitlines()
    text = (EXAMPLES / "chaos-standard-illegal.deck").read_text(encoding="utf-8").splitlines()
    expect = {
        "chaos/partner-max": "1 SAMPLE-C-P01",
        "chaos/copies": "5 見本キャラ 01",
        "chaos/main-no-extra": "1 SAMPLE-C-X03",
        "deck/unknown-card": "4 見本キャラ 99",
        "chaos/extra-only-extra": "1 SAMPLE-C-S01",
        "chaos/main-size": "[main]",
    }
    for rule, fragment in expect.items():
        (annotation,) = [a for a in lines if f"title={rule.replace(':', '%3A')}::" in a]
        assert annotation.startswith(f"::error file={path},line=")
        number = int(annotation.split("line=")[1].split(",")[0])
        assert text[number - 1].startswith(fragment), (rule, number)


def test_sarif_matches_its_schema(db: list[str]) -> None:
    _, out, _ = run("validate", str(EXAMPLES), "--output", "sarif", *db)
    sarif = json.loads(out)
    schema = json.loads((DATA / "sarif-2.1.0-rtm.5.json").read_text(encoding="utf-8"))
    jsonschema.validate(sarif, schema)
    run_ = sarif["runs"][0]
    ids = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    assert len(ids) == len(set(ids)) and "rakuen/paradox-count" in ids
    for result in run_["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        assert result["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1


def test_every_json_violation_has_a_line(db: list[str]) -> None:
    reports = json.loads(run("validate", str(EXAMPLES), "--json", *db)[1])
    assert all(isinstance(v["line"], int) for r in reports for v in r["violations"])


def test_changed_since(tmp_path: Path, db: list[str]) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    (repo / "decks").mkdir(parents=True)
    for name in ("rakuen-standard-legal.deck", "iris-standard-legal.deck"):
        shutil.copy(EXAMPLES / name, repo / "decks" / name)

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args],
            cwd=repo,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    git("add", ".")
    git("commit", "-qm", "decks")
    changed = repo / "decks" / "iris-standard-legal.deck"
    changed.write_text(changed.read_text(encoding="utf-8") + "1 SAMPLE-I-U08\n", encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(repo)
    try:
        code, out, _ = run("validate", "decks", "--changed-since", "HEAD", "--json", *db)
        assert code == 1 and json.loads(out)["path"] == "decks/iris-standard-legal.deck"
        git("commit", "-qam", "more")
        code, _, err = run("validate", "decks", "--changed-since", "HEAD")
        assert code == 0 and "no deck files changed" in err
        assert run("validate", "decks", "--changed-since", "no-such-rev")[0] == 2
    finally:
        os.chdir(cwd)


def test_pre_commit_hook_is_declared() -> None:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "id: deckcheck-validate" in text and "entry: deckcheck validate" in text
