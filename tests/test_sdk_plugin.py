"""A sixth game written against ``deckcheck.sdk`` alone, installed from outside the repository.

"Kite Duel" (tests/plugins/kitegame: deckcheck's test fixture, outside the rulebooks) is copied
into a temporary folder and installed from there with pip into a folder of its own (never into
the venv). It has its own formats, cards, example decks, deck section (``reserve``, headed
リザーブ), Japanese catalogue and numba batch engine, all found through its entry point. Through the CLI:
``pool init`` builds its cards in a process of its own (the game on its ``PYTHONPATH``), and
the further commands, run in this process (tests/cli_run.py) with the installed folder on
``sys.path``, validate in English and Japanese, play goldfish on its batch engine and replay a
game in its own words; and its own tests (the SDK's conformance suite) pass."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, on_path
from tests.extra_game import deckcheck as in_process_of_its_own
from tests.extra_game import deckcheck_imports, package_tests
from tests.extra_game import in_this_process as _deckcheck

KITE = ROOT / "tests" / "plugins" / "kitegame"


@pytest.fixture(scope="module")
def kite(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(its source folder, the folder it is installed into), both outside the repository."""
    base = tmp_path_factory.mktemp("kite")
    source, site = base / "src", base / "site"
    shutil.copytree(KITE, source, ignore=shutil.ignore_patterns("__pycache__"))
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    done = subprocess.run(
        [*pip, "--no-index", "--target", str(site), str(source)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (site / "kite_duel" / "data" / "locale" / "ja" / "LC_MESSAGES" / "kite.po").is_file()
    return source, site


def test_the_game_imports_nothing_of_deckcheck_but_the_sdk(kite: tuple[Path, Path]) -> None:
    assert deckcheck_imports(kite[1] / "kite_duel") == {"deckcheck.sdk"}


def test_pool_init_validate_goldfish_and_replay(
    kite: tuple[Path, Path], tmp_path: Path, plugin_path: list[Path]
) -> None:
    site, db = kite[1], tmp_path / "pool.sqlite3"
    examples = site / "kite_duel" / "data" / "examples"
    legal, illegal = examples / "kite-standard-legal.deck", examples / "kite-standard-illegal.deck"

    init = in_process_of_its_own(site, db, "pool", "init", "--force")
    assert init.returncode == 0, init.stderr
    on_path(plugin_path, site)
    cards = json.loads(_deckcheck(site, db, "pool", "search", "--game", "kite", "--json").stdout)
    assert len(cards) == 18 and {c["type"] for c in cards} == {"glider", "wind"}
    assert "kite-standard" in _deckcheck(site, db, "formats").stdout
    template = _deckcheck(site, db, "pool", "template", "kite").stdout  # from its own cards
    assert template.splitlines()[-1] == "game,number,name,type,cost"

    ok = _deckcheck(site, db, "validate", "--json", str(legal))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert json.loads(ok.stdout)["counts"] == {"main": 40, "reserve": 4}  # its own section
    as_json = tmp_path / "legal.json"  # the JSON form keeps the section, and reads it back
    assert _deckcheck(site, db, "convert", str(legal), "--to", "json", "-o", str(as_json)).returncode == 0
    assert [c["card"] for c in json.loads(as_json.read_text(encoding="utf-8"))["reserve"]] == [
        "KD-G08",
        "KD-W08",
    ]
    again = _deckcheck(site, db, "validate", "--json", str(as_json))
    assert json.loads(again.stdout)["counts"] == {"main": 40, "reserve": 4}, again.stderr
    as_csv = tmp_path / "legal.csv"
    assert _deckcheck(site, db, "convert", str(legal), "--to", "csv", "-o", str(as_csv)).returncode == 0
    assert as_csv.read_text(encoding="utf-8").splitlines()[-1] == "reserve,2,KD-W08,海風"
    fewer = tmp_path / "fewer.deck"
    fewer.write_text(legal.read_text(encoding="utf-8").replace("2 KD-W08", "1 KD-W08"), "utf-8")
    changed = _deckcheck(site, db, "diff", str(legal), str(fewer)).stdout
    assert "[reserve]\n  -1 海風 (KD-W08)  2 → 1" in changed
    bad = _deckcheck(site, db, "validate", "--json", str(illegal))
    assert bad.returncode == 1
    rules = [v["rule"] for v in json.loads(bad.stdout)["violations"]]
    assert rules == ["kite/main-size", "kite/copies", "kite/reserve-size"]
    ja = _deckcheck(site, db, "validate", "--lang", "ja", str(illegal))
    assert "kite-standard (カイトデュエル)" in ja.stdout
    assert "リザーブは6枚です。5枚以下にする必要があります。" in ja.stdout  # its section's word
    assert "出典：カイトデュエルのルール: 同じカードは3枚まで" in ja.stdout  # its catalogue

    fish = _deckcheck(site, db, "goldfish", str(legal), "--games", "2000", "--turns", "30", "--json")
    assert fish.returncode == 0, fish.stderr
    result = json.loads(fish.stdout)
    assert (result["game"], result["engine"]) == ("kite", "batch")
    assert result["milestones"]["first_glider"]["rate"] > 0.9
    last = result["per_turn"][-1]
    assert last["gliders_p10"] == last["gliders_p90"] == 2  # the format's own gust = 2
    assert last["deck_mean"] == 35 - 29  # after the deal, 1 a turn but the first player's first

    replay = _deckcheck(site, db, "goldfish", str(legal), "--turns", "3", "--replay", "1")
    assert replay.returncode == 0, replay.stderr
    assert "launches “" in replay.stdout and "gliders in the air" in replay.stdout
    replay_ja = _deckcheck(
        site, db, "goldfish", str(legal), "--turns", "3", "--replay", "1", "--lang", "ja"
    )
    assert "」を飛ばす" in replay_ja.stdout and "機が飛行中" in replay_ja.stdout


def test_the_game_passes_the_conformance_suite(kite: tuple[Path, Path], tmp_path: Path) -> None:
    """The package's own tests (its tests/: the SDK's Conformance, loaded as a pytest plugin),
    run against the installed package from outside the repository."""
    source, site = kite
    run = package_tests(source, site, tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "5 passed" in run.stdout
