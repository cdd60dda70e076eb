"""Issue 23, as a new user checks it: tables fit 80 columns in English and Japanese, each file
written is announced, ``--quiet`` prints no table, a run prints each assumption once, goldfish
prints only the losses the game has, the sweep heatmap shows values, intervals and the noise."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from deckcheck.cli import app
from tests.cli_run import CliRunner, deckcheck

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fit") / "pool.sqlite3"
    assert runner.invoke(app, ["pool", "init", "--db", str(path)]).exit_code == 0
    return path


def _run(lang: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "80", "DECKCHECK_LANG": lang}
    env.pop("LINES", None)
    return deckcheck(args, env=env, cwd=ROOT)


def _commands(db: Path, tmp: Path) -> dict[str, list[str]]:
    vision, rakuen = (
        str(EXAMPLES / "vision-standard-legal.deck"),
        str(EXAMPLES / "rakuen-standard-legal.deck"),
    )
    common = ["--db", str(db)]
    return {
        "validate": ["validate", vision, str(EXAMPLES / "vision-standard-illegal.deck"), *common],
        "odds": ["odds", rakuen, "-w", "level<=1>=2", "--table", "name:SAMPLE-R-P01", *common],
        "odds 10 turns": ["odds", vision, "-w", "type:character>=1", "-t", "10", "--table",
                          "name:大妖精", *common],
        "hand": ["hand", vision, "-n", "2", *common],
        "goldfish vision": ["goldfish", vision, "-n", "50", *common],
        "goldfish rakuen": ["goldfish", rakuen, "-n", "50", *common],
        "sweep": ["sweep", rakuen, "--vary", "name:SAMPLE-R-P03=0,2", "--fill", "SAMPLE-R-P02",
                  "-w", "kind:合理体>=1", "--games", "50", "--side", "both", *common],
        "formats": ["formats"],
        "formats show": ["formats", "show", "vision-standard"],
    }  # fmt: skip


def _shown(text: str) -> list[str]:
    """The lines deckcheck lays out (assumption notes quote sources, which may hold "…")."""
    notes = ("  assumption: ", "  仮定：")
    return [line for line in text.splitlines() if not line.startswith(notes)]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_table_keeps_whole_headers_at_80_columns(lang: str, db: Path, tmp_path: Path) -> None:
    for name, args in _commands(db, tmp_path).items():
        done = _run(lang, *args)
        assert done.returncode in (0, 1), f"{name}: {done.stderr}"
        cut = [line for line in _shown(done.stdout) if "…" in line]
        assert cut == [], f"{lang} {name}: cut at 80 columns:\n" + "\n".join(cut)
        wide = [line for line in _shown(done.stdout) if len(line) > 80 and "  " in line.strip()]
        assert not [w for w in wide if w.startswith(" ") and "│" in w], name


def test_goldfish_says_what_the_cells_are(db: Path) -> None:
    out = _run("en", "goldfish", str(EXAMPLES / "chaos-standard-legal.deck"), "-n", "20",
               "--db", str(db)).stdout  # fmt: skip
    assert "cells: mean (p10–p90)" in out
    assert "partner level" in out and "partner_level" not in out  # words, not ids


def test_sweep_variants_are_named_by_card_and_count(db: Path) -> None:
    out = _run("ja", *_commands(db, Path())["sweep"]).stdout
    assert "0 × 見本逆理 世界反転, 先攻" in out and "2 × 見本逆理 世界反転, 後攻" in out
    assert "name:SAMPLE" not in out


def test_formats_show_gives_limits_in_words() -> None:
    out = _run("en", "formats", "show", "vision-standard").stdout
    assert "(?P<n>" not in out
    assert "cards with デッキN枚制限: at most N of one name" in out


def test_each_file_written_gets_a_line_and_quiet_drops_the_table(db: Path, tmp_path: Path) -> None:
    deck = str(EXAMPLES / "rakuen-standard-legal.deck")
    csv, png = tmp_path / "odds.csv", tmp_path / "odds.png"
    loud = _run("en", "odds", deck, "-w", "level<=1>=2", "--csv", str(csv), "--db", str(db))
    assert f"wrote {csv} (probability by turn, CSV)" in loud.stderr
    assert "probability" in loud.stdout  # the table still prints beside a file
    quiet = _run("ja", "odds", deck, "-w", "level<=1>=2", "--csv", str(csv), "--plot", str(png),
                 "--quiet", "--db", str(db))  # fmt: skip
    assert quiet.returncode == 0 and quiet.stdout == ""
    assert f"{csv} に書き込みました" in quiet.stderr and f"{png} に書き込みました" in quiet.stderr
    fish = tmp_path / "fish.parquet"
    done = _run("en", "goldfish", deck, "-n", "20", "--parquet", str(fish), "-q", "--db", str(db))
    assert done.stdout == "" and f"wrote {fish} (per-turn statistics, Parquet)" in done.stderr
    out = tmp_path / "deck.json"
    conv = _run("en", "convert", deck, "--to", "json", "--out", str(out), "--db", str(db))
    assert f"wrote {out} (" in conv.stderr
    template = tmp_path / "cards.csv"
    made = _run("en", "pool", "template", "vision", "-o", str(template))
    assert f"wrote {template} (the vision card template)" in made.stderr


def test_a_folder_of_five_vision_decks_prints_each_assumption_once(
    db: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    for i in range(5):
        shutil.copy(EXAMPLES / "vision-standard-legal.deck", folder / f"player{i}.deck")
    for lang, mark in (("en", "  assumption: "), ("ja", "  仮定：")):
        out = _run(lang, "validate", str(folder), "--db", str(db)).stdout
        notes = [line for line in out.splitlines() if line.startswith(mark)]
        assert notes and len(notes) == len(set(notes)), out
        # after every report, and only what validation reads (no play parameters)
        assert out.index(notes[0]) > out.rindex("player4.deck")
        assert not any("opening_hand" in n for n in notes)


def test_odds_lists_no_goldfish_only_assumption(db: Path) -> None:
    deck = str(EXAMPLES / "vision-standard-legal.deck")
    out = _run("en", "odds", deck, "-w", "type:character>=1", "--db", str(db)).stdout
    assert "opening hand (opening_hand) = 7" in out and "life = 25" not in out and "hand_limit" not in out


def test_goldfish_prints_only_the_losses_the_game_has(db: Path) -> None:
    """VISION declares one way to lose (a draw from an empty deck): a rate under any other
    name (rakuen's refresh penalty) is not the game's and is not printed."""
    from rich.console import Console

    from deckcheck import decklist, plugins
    from deckcheck.formats.registry import default_registry
    from deckcheck.goldfish.output import render
    from deckcheck.goldfish.policy import default_policy
    from deckcheck.goldfish.run import GoldfishRequest, goldfish
    from deckcheck.pool.store import Pool

    assert [loss.name for loss in plugins.get("vision").play.losses] == ["deck-out"]
    deck = decklist.parse((EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8"))
    with Pool(db) as pool:
        index = pool.index_for([e.ref for e in deck.entries])
    fmt = default_registry().get("vision-standard")
    result = goldfish(deck, fmt, index, default_policy("vision"), GoldfishRequest(games=5))
    result.summary["losses"]["refresh-penalty"] = 0.0
    console = Console(record=True, width=80)
    render(console, result)
    text = console.export_text()
    assert "deck-out 0.0%" in text and "refresh" not in text


def test_sweep_heatmap_shows_values_intervals_and_the_noise(db: Path) -> None:
    from deckcheck import decklist
    from deckcheck.formats.registry import default_registry
    from deckcheck.pool.store import Pool
    from deckcheck.sweep import SweepRequest, sweep
    from deckcheck.sweep.plot import heatmap

    deck = decklist.parse((EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8"))
    fmt = default_registry().get("rakuen-standard")
    with Pool(db) as pool:
        index = pool.index_for([e.ref for e in deck.entries] + ["SAMPLE-R-P03", "SAMPLE-R-P02"])
    req = SweepRequest(
        vary=["name:SAMPLE-R-P03=0,2"],
        fill="SAMPLE-R-P02",
        sides=(True, False),
        games=300,
        turns=6,
        seed=1,
    )
    result = sweep([("deck", deck)], fmt, index, req)
    grid = heatmap(result, "milestone:first_level_3_deploy", {"SAMPLE-R-P03": "見本逆理 世界反転"})
    cells = [c for row in grid.cells for c in row if c is not None]
    assert len(cells) == 4 and grid.x == "copies of 見本逆理 世界反転"
    for cell in cells:  # the value and its 95% interval, written in the cell
        assert cell.low < cell.value < cell.high
        assert cell.text == f"{cell.value:.1%}\n{cell.low:.1%}–{cell.high:.1%}"
    # 300 games each: every interval overlaps the others, and the plot says so
    assert max(c.low for c in cells) <= min(c.high for c in cells) and grid.within_noise
