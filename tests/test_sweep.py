"""deckcheck sweep: variants, validation first, odds and milestones, outputs; the same numbers
on a real Dask cluster: tests/test_dask_cluster.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from deckcheck.cli import app
from tests.cli_run import CliRunner
from tests.conftest import EXAMPLES

runner = CliRunner()
RAKUEN = str(EXAMPLES / "rakuen-standard-legal.deck")
IRIS = str(EXAMPLES / "iris-standard-legal.deck")


def _sweep(tmp_path: Path, *args: str) -> dict:  # type: ignore[type-arg]
    result = runner.invoke(app, ["sweep", *args, "--json", "--db", str(tmp_path / "p.sqlite3")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_copies_with_fill_validate_first_and_pick_the_best(tmp_path: Path) -> None:
    data = _sweep(
        tmp_path,
        RAKUEN,
        "--vary",
        "name:SAMPLE-R-007=1..4",
        "--fill",
        "SAMPLE-R-T01",
        "-w",
        "kind:合理体>=1",
        "--games",
        "1000",
        "--turns",
        "4",
        "--best",
        "odds:kind:合理体>=1@4",
    )
    variants = data["variants"]
    assert [v["keys"]["name:SAMPLE-R-007"] for v in variants] == [1, 2, 3, 4]
    # 1 and 2 copies need 6 and 5 copies of the filler: over its limit of 4, so not simulated
    assert [v["legal"] for v in variants] == [False, False, True, True]
    assert variants[0]["violations"][0]["rule"] == "rakuen/copies"
    assert variants[0]["milestones"] == {} and variants[0]["odds"] == {}
    three, four = variants[2], variants[3]
    assert four["odds"]["kind:合理体>=1"][4] > three["odds"]["kind:合理体>=1"][4]
    assert data["best"] == four["label"]
    assert set(four["milestones"]) == {
        "first_level_2_deploy",
        "first_level_3_deploy",
        "first_gouritai",
    }


def test_policy_keys_and_both_sides(tmp_path: Path) -> None:
    data = _sweep(
        tmp_path,
        RAKUEN,
        "--vary",
        "policy:luck_drive=true,false",
        "--side",
        "both",
        "--games",
        "600",
        "--turns",
        "3",
    )
    keys = [(v["keys"]["policy:luck_drive"], v["keys"]["side"]) for v in data["variants"]]
    assert keys == [(True, "play"), (True, "draw"), (False, "play"), (False, "draw")]
    assert all(v["legal"] for v in data["variants"])
    bad = runner.invoke(
        app, ["sweep", RAKUEN, "--vary", "policy:surprise=1", "--db", str(tmp_path / "p.sqlite3")]
    )
    assert bad.exit_code == 2 and "surprise" in bad.stderr


def test_a_folder_of_decks_and_the_outputs(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    for name in ("iris-standard-legal", "iris-standard-illegal"):
        (folder / f"{name}.deck").write_bytes((EXAMPLES / f"{name}.deck").read_bytes())
    csv, parquet, png = tmp_path / "s.csv", tmp_path / "s.parquet", tmp_path / "s.png"
    result = runner.invoke(
        app,
        [
            "sweep",
            str(folder),
            "--games",
            "500",
            "-w",
            "type:unit>=2",
            "--csv",
            str(csv),
            "--parquet",
            str(parquet),
            "--plot",
            str(png),
            "--db",
            str(tmp_path / "p.sqlite3"),
        ],
    )
    assert result.exit_code == 0, result.output
    # issue 23: the milestone in words, not its id; a "wrote" line for each file
    assert "illegal" in result.stdout and "standby full" in result.stdout
    for path in (csv, parquet, png):
        assert f"wrote {path} (" in result.stderr
    import pandas as pd  # here: at the top of the module, every pytest worker imported it

    frame = pd.read_csv(csv)
    assert len(frame) == 2 and frame["legal"].tolist().count(True) == 1
    assert pd.read_parquet(parquet).shape == frame.shape
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_same_seed_same_table(tmp_path: Path) -> None:
    args = [IRIS, "--vary", "name:SAMPLE-I-U07=1..2", "--fill", "SAMPLE-I-U01", "--games", "3000"]
    assert _sweep(tmp_path, *args) == _sweep(tmp_path, *args)


def test_the_in_process_path_never_imports_dask(tmp_path: Path) -> None:
    code = (
        "import sys; from typer.testing import CliRunner; from deckcheck.cli import app; "
        f"r = CliRunner().invoke(app, ['sweep', {IRIS!r}, '--games', '200', '--db', "
        f"{str(tmp_path / 'p.sqlite3')!r}]); assert r.exit_code == 0, r.output; "
        "assert 'distributed' not in sys.modules and 'dask' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_bare_card_name_varies_its_copies(tmp_path: Path) -> None:
    """``--vary '大妖精=2..3'`` as conditions read a bare card name (it was "write name:REF=…");
    a misspelt prefix is still refused with that message."""
    deck = str(EXAMPLES / "vision-standard-legal.deck")
    common = ["--fill", "マナの生成", "--games", "300", "--turns", "2", "--seed", "1"]
    bare = _sweep(tmp_path, deck, "--vary", "大妖精=2..3", *common)
    named = _sweep(tmp_path, deck, "--vary", "name:大妖精=2..3", *common)
    assert bare == named and len(bare["variants"]) == 2
    wrong = runner.invoke(app, ["sweep", deck, "--vary", "polcy:keep=a", "--games", "10"])
    assert wrong.exit_code == 2 and "write name:REF=LOW..HIGH" in wrong.stderr
