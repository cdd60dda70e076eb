"""The game registry: a fifth game from a package of its own (tests/plugins/toygame, found by
its entry point) through the library, the CLI in a subprocess and the service; a plugin that
fails to load; format parameters that are read; and the one partner rule."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import replace
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from deckcheck import decklist, plugins
from deckcheck.cli import app
from deckcheck.formats import FormatError
from deckcheck.formats.registry import FormatRegistry
from deckcheck.goldfish.run import GoldfishRequest, goldfish
from deckcheck.odds.api import OddsRequest, compute_odds
from deckcheck.odds.hands import HandsRequest, deal_hands
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from deckcheck.sdk import PLUGIN_API
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from deckcheck.validate import validate
from tests import cli_run
from tests.cli_run import CliRunner
from tests.conftest import EXAMPLES, ROOT, SHIPPED, TOY, on_path

runner = CliRunner()

# The toy format's own check table (word_limit: at most 5 cards named with 竜) and parameter
# (board = 2): legal.deck keeps both; this deck has 6 such cards.
SIX_DRAGONS = "3 ちび竜\n3 TOY-2\n3 TOY-3\n3 TOY-4\n3 TOY-5\n3 森の精\n2 TOY-7\n"


def shipped_first(ids: tuple[str, ...]) -> bool:
    """The shipped games lead the list, in their order, whatever other games are installed
    (the suite holds with a plugin such as the toy installed)."""
    return ids[: len(SHIPPED)] == SHIPPED


def p90(rows: list[dict[str, Any]]) -> list[float]:
    """The creatures' 90th percentile of each turn some game was still playing (the toy's own
    ``overflow`` loss ends games early: later turns have no figure)."""
    return [row["creatures_p90"] for row in rows if row["creatures_p90"] is not None]


def test_a_fifth_game_from_outside_the_package(toy: plugins.GameSpec, tmp_path: Path) -> None:
    assert shipped_first(plugins.ids()) and "toy" in plugins.ids()
    pool = Pool(tmp_path / "toy.sqlite3")
    with pool:
        pool.import_files([TOY / "cards.csv"])
        index = CardIndex(pool.all_cards(), names=pool.names)
    fmt = FormatRegistry([TOY]).get("toy-standard")
    deck = decklist.parse((TOY / "legal.deck").read_text(encoding="utf-8"), "legal.deck")
    report = validate(deck, fmt, index)
    assert report.legal and report.game == "toy" and report.counts == {"main": 20}
    bad = decklist.parse("4 ちび竜\n3 TOY-2\n", "bad.deck")
    rules = {v.rule for v in validate(bad, fmt, index).violations}
    assert rules == {"toy/main-size", "toy/copies", "toy/dragons"}
    dragons = validate(decklist.parse(SIX_DRAGONS, "six.deck"), fmt, index)
    assert [v.rule for v in dragons.violations] == ["toy/dragons"]
    assert "6 cards named with 竜" in dragons.violations[0].message

    odds = compute_odds(deck, fmt, index, OddsRequest(want=["type:creature>=1"], turns=2))
    # 11 creatures of 20, 4 cards, with the return-all mulligan: 1 - (1 - p0)^... > plain p
    assert odds.rows[0].cards_seen == 4 and 0.9 < odds.rows[0].probability <= 1
    hands = deal_hands(deck, fmt, index, HandsRequest(count=3, seed=1))
    assert [len(h.hand) for h in hands.hands] == [4, 4, 4]
    result = goldfish(
        deck, fmt, index, toy.play.default_policy, GoldfishRequest(games=300, turns=4, seed=3)
    )
    assert result.game == "toy" and result.milestones["first_creature"]["rate"] > 0.9
    assert max(p90(result.per_turn)) == 2  # the format's board = 2


def _deckcheck(site: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The CLI in a process of its own, with ``site`` on its PYTHONPATH."""
    path = os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path, **(env or {})},
        check=False,
    )


def _here(*args: str) -> subprocess.CompletedProcess[str]:
    """``_deckcheck`` answered in this process (tests/cli_run.py: a new interpreter cost 0.4
    CPU-s of imports a command; issue 35), the game's folder already on ``sys.path``."""
    return cli_run.deckcheck(args)


def test_a_fifth_game_through_the_cli(
    toy_site: Path, tmp_path: Path, toy: plugins.GameSpec
) -> None:
    """Every hook of the installed toy game through the CLI (the import in a subprocess with
    the game on its PYTHONPATH, the further commands in this process with it on ``sys.path``):
    its own check table (validate reports it, formats show lists it; odds, hand and goldfish
    load the format that carries it: before the game declared its check tables, these four
    exited 2 on an unknown table), its parameter (board), its mulligan rule and set-aside
    champion (odds), its loss reason (goldfish) and its card column with a search filter (pool
    search)."""
    db = ["--db", str(tmp_path / "toy.sqlite3")]
    imported = _deckcheck(toy_site, "pool", "import", str(TOY / "cards.csv"), *db)
    assert imported.returncode == 0, imported.stderr
    fmt = ["--format", str(TOY / "toy-standard.toml")]
    deck = str(TOY / "legal.deck")
    ok = _here("validate", deck, *fmt, *db)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    six = tmp_path / "six.deck"
    six.write_text(SIX_DRAGONS, encoding="utf-8")
    bad = _here("validate", str(six), "--json", *fmt, *db)
    assert bad.returncode == 1, bad.stderr
    assert [v["rule"] for v in json.loads(bad.stdout)["violations"]] == ["toy/dragons"]
    shown = _here("formats", "show", str(TOY / "toy-standard.toml"))
    assert shown.returncode == 0, shown.stderr
    assert "toy/dragons" in shown.stdout and "at most 5 cards named with 竜" in shown.stdout
    shown_json = _here("formats", "show", "--json", str(TOY / "toy-standard.toml"))
    assert json.loads(shown_json.stdout)["word_limit"][0]["rule"] == "toy/dragons"
    odds = _here("odds", deck, "-w", "type:spell>=1", "--json", *fmt, *db)
    assert odds.returncode == 0, odds.stderr
    answer = json.loads(odds.stdout)
    assert answer["game"] == "toy"
    # its own mulligan rule (bottom-two) and its own set-aside card (the champion)
    assert answer["mulligan"].startswith("put 2 cards no condition needs under the deck")
    assert [(a["role"], a["cards"]) for a in answer["aside"]] == [("champion", ["大竜 (TOY-2)"])]
    hand = _here("hand", deck, "--json", "--seed", "1", *fmt, *db)
    assert hand.returncode == 0, hand.stderr
    assert len(json.loads(hand.stdout)["hands"][0]["hand"]) == 4  # the format's opening_hand
    fish = _here("goldfish", deck, "--games", "200", "--json", *fmt, *db)
    assert fish.returncode == 0, fish.stderr
    result = json.loads(fish.stdout)
    assert result["game"] == "toy"
    assert max(p90(result["per_turn"])) == 2  # board = 2
    # its own loss reason, with its label
    assert {r["name"]: r["label"] for r in result["loss_reasons"]}["overflow"] == "hand overflow"
    assert result["summary"]["losses"]["overflow"] > 0
    # an engine written before replays (no trace parameter): a clear refusal, not a traceback
    replay = _here("goldfish", deck, "--replay", "2", *fmt, *db)
    assert replay.returncode == 2 and "cannot tell a game step by step" in replay.stderr
    # its own card column, searched by its own filter
    fire = _here("pool", "search", "--game", "toy", "--element", "火", "--json", *db)
    assert fire.returncode == 0, fire.stderr
    assert [c["number"] for c in json.loads(fire.stdout)] == ["TOY-1", "TOY-2", "TOY-3"]
    one = tmp_path / "toy-board.toml"
    text = (TOY / "toy-standard.toml").read_text(encoding="utf-8")
    one.write_text(text.replace("board = { value = 2", "board = { value = 1"), encoding="utf-8")
    fish = _here("goldfish", deck, "--games", "200", "--json", "--format", str(one), *db)
    assert fish.returncode == 0, fish.stderr
    assert max(p90(json.loads(fish.stdout)["per_turn"])) == 1


def test_a_fifth_game_through_the_service(
    toy: plugins.GameSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DECKCHECK_FORMATS", str(TOY))
    db = tmp_path / "svc.sqlite3"
    with Pool(db) as pool:
        pool.import_files([TOY / "cards.csv"])
    service = create_app(Settings(db=db, workers=1, sync_games=1000))
    legal = (TOY / "legal.deck").read_text(encoding="utf-8")
    with TestClient(service, raise_server_exceptions=False) as http:
        assert "toy-standard" in [f["id"] for f in http.get("/formats").json()]
        shown = http.get("/formats/toy-standard").json()
        assert shown["word_limit"][0]["rule"] == "toy/dragons"
        assert shown["parameters"]["board"]["value"] == 2
        body = {"deck": legal, "format": "toy-standard"}
        assert http.post("/validate", json=body).json()["legal"] is True
        six = http.post("/validate", json={**body, "deck": SIX_DRAGONS}).json()
        assert [v["rule"] for v in six["violations"]] == ["toy/dragons"]
        odds = http.post("/odds", json={**body, "want": ["type:creature>=1"], "turns": 1})
        assert odds.status_code == 200, odds.text
        assert odds.json()["rows"][0]["cards_seen"] == 4
        hand = http.post("/hand", json={**body, "count": 2, "seed": 1})
        assert hand.status_code == 200 and len(hand.json()["hands"]) == 2, hand.text
        fish = http.post("/goldfish", json={**body, "games": 200, "turns": 4, "seed": 3})
        assert fish.status_code == 200, fish.text
        assert fish.json()["game"] == "toy"
        assert max(p90(fish.json()["per_turn"])) == 2
        assert fish.json()["loss_reasons"][1]["name"] == "overflow"
        assert [a["role"] for a in hand.json()["hands"][0]["aside"]] == ["champion"]
        toy_game = next(g for g in http.get("/games").json() if g["id"] == "toy")
        assert [f["param"] for f in toy_game["filters"]] == ["element"]
        fire = http.get("/cards", params={"game": "toy", "element": "火"}).json()
        assert [c["number"] for c in fire] == ["TOY-1", "TOY-2", "TOY-3"]
        assert {c["number"] for c in http.get("/cards", params={"game": "toy"}).json()} >= {
            "TOY-1",
            "TOY-7",
        }
        unknown = http.get("/cards", params={"game": "mtg"})
        assert unknown.status_code == 422 and "unknown game 'mtg'" in unknown.text


def _broken_plugin(folder: Path, value: str, module: str) -> Path:
    """A distribution that declares the game ``broken`` as ``value``, with ``module``'s code."""
    info = folder / "broken_game-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: broken-game\nVersion: 0.1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[deckcheck.games]\nbroken = {value}\n", encoding="utf-8"
    )
    (folder / "broken_game.py").write_text(module, encoding="utf-8")
    return folder


def test_a_broken_plugin_is_named_and_spares_the_other_games(
    plugin_path: list[Path], tmp_path: Path
) -> None:
    site = _broken_plugin(tmp_path / "site", "broken_game:SPEC", "import no_such_module\n")
    on_path(plugin_path, site)
    assert shipped_first(plugins.ids()) and "broken" not in plugins.ids()
    with pytest.raises(plugins.registry.UnknownGame) as caught:
        plugins.get("broken")
    message = str(caught.value)
    assert "game 'broken' failed to load" in message and "'broken_game:SPEC'" in message
    assert "ModuleNotFoundError: No module named 'no_such_module'" in message
    assert list(plugins.broken()) == ["broken"]
    assert plugins.get("chaos").id == "chaos"
    path = tmp_path / "broken.toml"
    text = (ROOT / "formats" / "iris-standard.toml").read_text(encoding="utf-8")
    path.write_text(text.replace('game = "iris"', 'game = "broken"'), encoding="utf-8")
    with pytest.raises(FormatError, match="game 'broken' failed to load: plugin"):
        FormatRegistry([tmp_path]).get("broken")

    # the CLI (a process of its own, then this one): the other games work; the broken one is
    # a message naming it, exit 2
    db = ["--db", str(tmp_path / "p.sqlite3")]
    listed = _deckcheck(site, "formats")
    assert listed.returncode == 0 and "chaos-standard" in listed.stdout, listed.stderr
    ok = _here("validate", str(EXAMPLES / "chaos-standard-legal.deck"), *db)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "warning: game 'broken' failed to load" in listed.stderr
    failed = _here("formats", "show", str(path))
    assert failed.returncode == 2
    assert "'broken_game:SPEC'" in failed.stderr and "no_such_module" in failed.stderr
    assert "Traceback" not in failed.stderr


@pytest.mark.parametrize(
    ("module", "value", "why"),
    [
        ("SPEC = 3\n", "broken_game:SPEC", "is a int, not a GameSpec"),
        (
            "from deckcheck.plugins import get\nSPEC = get('iris')\n",
            "broken_game:SPEC",
            "gives the spec of 'iris'",
        ),
        ("raise RuntimeError('boom')\n", "broken_game:SPEC", "RuntimeError: boom"),
    ],
)
def test_a_plugin_that_is_no_game_spec_is_named(
    plugin_path: list[Path], tmp_path: Path, module: str, value: str, why: str
) -> None:
    on_path(plugin_path, _broken_plugin(tmp_path / "site", value, module))
    with pytest.raises(plugins.registry.UnknownGame, match=re.escape(why)):
        plugins.get("broken")
    assert shipped_first(plugins.ids()) and "broken" not in plugins.ids()


def _game_for_api(version: str) -> str:
    """A plugin module: the iris spec as game ``broken``, written for plugin API ``version``."""
    return (
        "from dataclasses import replace\n"
        "from deckcheck.sdk import GameSpec\n"
        "from deckcheck.plugins import get\n"
        f"SPEC: GameSpec = replace(get('iris'), id='broken', plugin_api={version!r})\n"
    )


@pytest.mark.parametrize("version", ["1.0", "3.0", "0.9", "one", "1"])
def test_a_plugin_for_another_major_api_is_refused_by_name(
    plugin_path: list[Path], tmp_path: Path, version: str
) -> None:
    """A game written for another major version of the plugin API (or declaring none that
    reads as major.minor) is left out with a message naming it and both versions; the other
    games work. 1.0 is the flat spec before its parts (2.0)."""
    assert PLUGIN_API == "2.0"
    on_path(
        plugin_path, _broken_plugin(tmp_path / "site", "broken_game:SPEC", _game_for_api(version))
    )
    with pytest.raises(plugins.registry.UnknownGame) as caught:
        plugins.get("broken")
    assert str(caught.value) == (
        "game 'broken' failed to load: plugin 'broken_game:SPEC' (entry point 'broken' of "
        f"deckcheck.games) is written for plugin API {version!r}; this deckcheck offers plugin "
        "API '2.0', another major version"
    )
    assert shipped_first(plugins.ids()) and "broken" not in plugins.ids()
    assert plugins.get("iris").plugin_api == PLUGIN_API


def test_a_plugin_for_a_later_minor_api_loads(plugin_path: list[Path], tmp_path: Path) -> None:
    """Only the major version is checked (a minor version only adds names): a game written for
    2.3 loads; one that uses a name 2.0 lacks fails at its import, named as any broken plugin."""
    on_path(
        plugin_path, _broken_plugin(tmp_path / "site", "broken_game:SPEC", _game_for_api("2.3"))
    )
    assert plugins.get("broken").plugin_api == "2.3" and "broken" in plugins.ids()


def test_games_are_discovered_once_across_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many threads asking at once: each entry point is loaded once, and every thread sees the
    shipped games in their order."""
    loads: list[str] = []
    load = plugins.registry._load

    def counted(point: EntryPoint) -> plugins.GameSpec:
        loads.append(point.name)
        time.sleep(0.01)  # widen the window in which a second discovery could start
        return load(point)

    monkeypatch.setattr(plugins.registry, "_load", counted)
    plugins.rediscover()
    seen: list[tuple[str, ...]] = []
    threads = [threading.Thread(target=lambda: seen.append(plugins.ids())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(seen)) == 1 and shipped_first(seen[0])
    assert sorted(loads) == sorted(set(loads)) and set(SHIPPED) <= set(loads)  # each once


def test_check_tables_that_fail_to_load_name_the_game(tmp_path: Path) -> None:
    """A game whose check tables cannot be loaded: reading its formats is a FormatError naming
    the game (exit 2), not a traceback."""

    def tables() -> tuple[object, ...]:
        raise ImportError("no module named 'half_installed'")

    iris = plugins.get("iris")
    spec = plugins.register(replace(iris, id="halfway", construction=replace(iris.construction, check_tables=tables)))
    try:
        text = (ROOT / "formats" / "iris-standard.toml").read_text(encoding="utf-8")
        path = tmp_path / "h.toml"
        path.write_text(text.replace('game = "iris"', 'game = "halfway"'), encoding="utf-8")
        with pytest.raises(FormatError, match="game 'halfway': its check tables failed to load: "):
            FormatRegistry([tmp_path]).get("h")
    finally:
        plugins.unregister(spec.id)


def test_an_unknown_game_lists_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(plugins.registry.UnknownGame, match="known: chaos, rakuen, vision, iris"):
        plugins.get("mtg")
    path = tmp_path / "x.toml"
    text = (ROOT / "formats" / "iris-standard.toml").read_text(encoding="utf-8")
    path.write_text(text.replace('game = "iris"', 'game = "mtg"'), encoding="utf-8")
    with pytest.raises(FormatError, match="unknown game 'mtg'"):
        FormatRegistry([tmp_path]).get("x")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # a game's own check table is its own formats' only
        ("\n[partner]\ncandidate_types = []\npartner_types = []\nrule = \"x\"\nsource = \"x\"\n", "partner: Extra inputs are not permitted"),
        # so is a game's own copy key
        ('key = "name"', "copies.key: 'vision-name' is not one of name, name+type"),
    ],
)
def test_a_games_check_tables_and_copy_keys_are_its_own(
    tmp_path: Path, change: str, message: str
) -> None:
    text = (ROOT / "formats" / "rakuen-standard-1.0.toml").read_text(encoding="utf-8")
    if change.startswith("key"):
        assert change in text
        text = text.replace(change, 'key = "vision-name"')
    else:
        text += change
    (tmp_path / "rakuen-standard-1.0.toml").write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=re.escape(message)):
        FormatRegistry([tmp_path]).get("rakuen-standard-1.0")


def test_a_parameter_nothing_reads_is_a_schema_error(tmp_path: Path) -> None:
    text = (ROOT / "formats" / "iris-standard.toml").read_text(encoding="utf-8")
    (tmp_path / "x.toml").write_text(
        text + 'circles = { value = 6, source = "nowhere" }\n', encoding="utf-8"
    )
    with pytest.raises(FormatError, match=r"parameters\.circles: nothing in deckcheck reads it"):
        FormatRegistry([tmp_path]).get("x")
    (tmp_path / "y.toml").write_text(
        text.replace("standby_slots = { value = 4", 'standby_slots = { value = "four"'),
        encoding="utf-8",
    )
    with pytest.raises(FormatError, match="standby_slots: must be an int"):
        FormatRegistry([tmp_path]).get("y")


# --- every parameter changes what odds, hand or goldfish print ------------------------------


def _variant(tmp_path: Path, base: str, key: str, value: str) -> Path:
    """A copy of a shipped format with one parameter changed, as a file beside the others."""
    text = (ROOT / "formats" / f"{base}.toml").read_text(encoding="utf-8")
    text = text.replace(f'id = "{base}"', f'id = "{base}-x"')
    pattern = re.compile(rf"^{key} = \{{ value = [^,]+,", re.MULTILINE)
    if pattern.search(text):
        text = pattern.sub(f"{key} = {{ value = {value},", text)
    else:
        text = text.replace(
            "[parameters]\n", f'[parameters]\n{key} = {{ value = {value}, source = "test" }}\n'
        )
    path = tmp_path / f"{base}-x.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _json(args: list[str], tmp_path: Path) -> dict[str, object]:
    result = runner.invoke(app, [*args, "--json", "--db", str(tmp_path / "p.sqlite3")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def _fish(tmp_path: Path, deck: str, fmt: Path | str, *extra: str) -> dict[str, object]:
    args = ["goldfish", str(EXAMPLES / deck), "--format", str(fmt), "--games", "400"]
    return _json([*args, "--turns", "8", "--seed", "5", *extra], tmp_path)


def _turns(result: dict[str, object], key: str) -> list[float]:
    rows = result["per_turn"]
    assert isinstance(rows, list)
    return [row[key] for row in rows]


def test_chaos_hand_limit_is_read(tmp_path: Path) -> None:
    deck = "chaos-standard-legal.deck"
    five = _fish(tmp_path, deck, _variant(tmp_path, "chaos-standard", "hand_limit", "5"))
    assert max(_turns(five, "hand_size_p90")) <= 5 and max(_turns(five, "hand_size_mean")) <= 5
    seven = _fish(tmp_path, deck, "chaos-standard")
    assert max(_turns(seven, "hand_size_p90")) > 5


def test_chaos_friend_areas_is_read(tmp_path: Path) -> None:
    deck = "chaos-standard-legal.deck"
    two = _fish(tmp_path, deck, _variant(tmp_path, "chaos-standard", "friend_areas", "2"))
    assert max(_turns(two, "friends_p90")) == 2
    assert max(_turns(_fish(tmp_path, deck, "chaos-standard"), "friends_p90")) > 2


def test_chaos_attack_draw_parameters_are_read(tmp_path: Path) -> None:
    deck = str(EXAMPLES / "chaos-standard-legal.deck")
    base = ["odds", deck, "-w", "type:set>=1", "--turns", "3", "--optional-draws"]
    on = _json(base, tmp_path)
    first = _variant(tmp_path, "chaos-standard", "first_player_first_turn_attack", "true")
    earlier = _json([*base, "--format", str(first)], tmp_path)
    rows_on, rows_earlier = on["rows"], earlier["rows"]
    assert isinstance(rows_on, list) and isinstance(rows_earlier, list)
    assert rows_earlier[2]["cards_seen"] == rows_on[2]["cards_seen"] + 1
    off = _variant(tmp_path, "chaos-standard", "attack_draw", "false")
    result = runner.invoke(app, [*base, "--format", str(off), "--db", str(tmp_path / "p.sqlite3")])
    assert result.exit_code == 2 and "has no optional draws" in result.stderr


def test_rakuen_level_area_max_and_circles_are_read(tmp_path: Path) -> None:
    deck = "rakuen-standard-legal.deck"
    base = _fish(tmp_path, deck, "rakuen-standard")
    three = _fish(tmp_path, deck, _variant(tmp_path, "rakuen-standard", "level_area_max", "3"))
    assert max(_turns(three, "level_area_p90")) == 3 < max(_turns(base, "level_area_p90"))
    small = _fish(tmp_path, deck, _variant(tmp_path, "rakuen-standard", "circles", "2"))
    assert max(_turns(small, "members_p90")) <= 2 < max(_turns(base, "members_p90"))
    hand = _json(
        [
            "hand",
            str(EXAMPLES / deck),
            "--format",
            str(_variant(tmp_path, "rakuen-standard", "circles", "4")),
            "--seed",
            "1",
        ],
        tmp_path,
    )
    hands = hand["hands"]
    assert isinstance(hands, list)
    assert [(a["role"], len(a["cards"])) for a in hands[0]["aside"]] == [("gates", 4)]


def test_rakuen_stock_per_turn_is_read(tmp_path: Path) -> None:
    deck = str(EXAMPLES / "rakuen-standard-legal.deck")
    fmt = _variant(tmp_path, "rakuen-standard", "stock_per_turn", "0")
    base = _fish(
        tmp_path,
        "rakuen-standard-legal.deck",
        "rakuen-standard",
        "--policy",
        str(_no_luck(tmp_path)),
    )
    none = _fish(tmp_path, "rakuen-standard-legal.deck", fmt, "--policy", str(_no_luck(tmp_path)))
    assert _turns(none, "stock_mean")[0] == 0 < _turns(base, "stock_mean")[0]
    assert _json(["odds", deck, "-w", "type:member>=1", "--format", str(fmt)], tmp_path)


def _no_luck(tmp_path: Path) -> Path:
    path = tmp_path / "noluck.toml"
    path.write_text("luck_drive = false\n", encoding="utf-8")
    return path


def test_vision_life_is_read(tmp_path: Path) -> None:
    deck = "vision-standard-legal.deck"
    base = _fish(tmp_path, deck, "vision-standard")
    low = _fish(tmp_path, deck, _variant(tmp_path, "vision-standard", "life", "3"))
    milestones_low, milestones_base = low["milestones"], base["milestones"]
    assert isinstance(milestones_low, dict) and isinstance(milestones_base, dict)
    assert milestones_low["opponent_at_0"]["rate"] > milestones_base["opponent_at_0"]["rate"]


def test_iris_standby_slots_is_read(tmp_path: Path) -> None:
    deck = "iris-standard-legal.deck"
    two = _fish(tmp_path, deck, _variant(tmp_path, "iris-standard", "standby_slots", "2"))
    assert max(_turns(two, "standby_p90")) == 2
    assert max(_turns(_fish(tmp_path, deck, "iris-standard"), "standby_p90")) == 4


@pytest.mark.parametrize(
    ("base", "key", "value", "field"),
    [
        ("iris-standard", "opening_hand", "6", "cards_seen"),
        ("vision-standard", "draw_per_turn", "2", "cards_seen"),
        ("vision-standard", "first_player_draws", "true", "cards_seen"),
    ],
)
def test_dealing_parameters_are_read(
    tmp_path: Path, base: str, key: str, value: str, field: str
) -> None:
    deck = str(EXAMPLES / f"{base}-legal.deck")
    ask = [
        "odds",
        deck,
        "-w",
        "type:character>=1" if "vision" in base else "type:unit>=1",
        "--turns",
        "2",
    ]
    before = _json(ask, tmp_path)["rows"]
    after = _json([*ask, "--format", str(_variant(tmp_path, base, key, value))], tmp_path)["rows"]
    assert isinstance(before, list) and isinstance(after, list)
    assert [r[field] for r in after] != [r[field] for r in before]


def test_mulligan_and_forced_redraw_are_read(tmp_path: Path) -> None:
    deck = str(EXAMPLES / "vision-standard-legal.deck")
    ask = ["odds", deck, "-w", "type:character>=3", "--turns", "0"]
    none = _json(ask, tmp_path)
    fmt = _variant(tmp_path, "vision-standard", "mulligan", '"return-all-once"')
    once = _json([*ask, "--format", str(fmt)], tmp_path)
    rows_none, rows_once = none["rows"], once["rows"]
    assert isinstance(rows_none, list) and isinstance(rows_once, list)
    assert rows_once[0]["probability"] > rows_none[0]["probability"]
    forced = _variant(tmp_path, "vision-standard", "forced_redraw", '"number:PR.008"')
    hand = _json(["hand", deck, "--format", str(forced), "--count", "5", "--seed", "2"], tmp_path)
    hands = hand["hands"]  # one copy in the deck: hands are redrawn until they hold it
    assert isinstance(hands, list) and sum(h["redraws"] for h in hands) > 5
    assert all(any(c.endswith("(PR.008)") for c in h["hand"]) for h in hands)


# --- the one partner rule -------------------------------------------------------------------


@pytest.mark.parametrize("card", ["SAMPLE-C-N01", "見本はるかさん", "SAMPLE-C-S01"])
@pytest.mark.parametrize("command", ["odds", "hand"])
def test_partner_that_may_not_be_partner_is_a_usage_error(
    tmp_path: Path, command: str, card: str
) -> None:
    path = tmp_path / "np.deck"
    cards = [(4, f"SAMPLE-C-{i:03}") for i in range(1, 11)]
    path.write_text(
        "format: chaos-standard\n"
        + "".join(f"{n} {ref}\n" for n, ref in cards)
        + "4 SAMPLE-C-N01\n2 SAMPLE-C-H01\n2 SAMPLE-C-S01\n",
        encoding="utf-8",
    )
    args = [command, str(path), "--aside", card, "--db", str(tmp_path / "d.sqlite3")]
    if command == "odds":
        args += ["-w", "type:chara>=1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "chaos/partner-candidate" in result.stderr and "may not be partner" in result.stderr
    ok = runner.invoke(app, [*args[:2], "--aside", "SAMPLE-C-001", *args[4:]])
    assert ok.exit_code == 0, ok.output


@pytest.mark.parametrize("command", ["odds", "hand"])
def test_partner_that_is_an_event_says_an_event_card(tmp_path: Path, command: str) -> None:
    """ChaosTCG 総合ルール (2016-05-17) §6.2: the chosen partner is a chara card; the message
    names the event card with the right article."""
    path = tmp_path / "ev.deck"
    cards = [(4, f"SAMPLE-C-{i:03}") for i in range(1, 12)] + [(4, "SAMPLE-C-E01")]
    path.write_text(
        "format: chaos-standard\n" + "".join(f"{n} {ref}\n" for n, ref in cards), encoding="utf-8"
    )
    args = [command, str(path), "--aside", "SAMPLE-C-E01", "--db", str(tmp_path / "d.sqlite3")]
    if command == "odds":
        args += ["-w", "type:chara>=1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "it is an event card, not one of" in result.stderr, result.stderr
    assert "a event" not in result.stderr


def test_vision_node_and_character_parameters_are_read(tmp_path: Path) -> None:
    deck = "vision-standard-legal.deck"
    base = _fish(tmp_path, deck, "vision-standard")
    two_nodes = _fish(tmp_path, deck, _variant(tmp_path, "vision-standard", "node_per_turn", "2"))
    assert _turns(two_nodes, "nodes_mean")[2] > _turns(base, "nodes_mean")[2]
    two_chars = _fish(
        tmp_path, deck, _variant(tmp_path, "vision-standard", "characters_per_turn", "2")
    )
    assert _turns(two_chars, "characters_mean")[-1] > _turns(base, "characters_mean")[-1]


def test_vision_leaders_is_read(tmp_path: Path) -> None:
    """【リーダー】 (キーワード用語集): at most ``leaders`` leaders on the field. A deck of twelve
    leaders of distinct names fields more characters when the format allows more leaders."""
    text = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    leaders = "".join(f"1 PR.{n}\n" for n in (200, 201, 202, 203, 209, 210, 213, 216))
    text = text.replace("3 大妖精\n", "").replace("3 妖精メイド\n", "").replace(
        "3 レティ・ホワイトロック\n", leaders + "1 大妖精\n"
    )
    path = tmp_path / "leaders.deck"
    path.write_text(text, encoding="utf-8")
    one = _fish(tmp_path, str(path), "vision-standard")
    three = _fish(tmp_path, str(path), _variant(tmp_path, "vision-standard", "leaders", "3"))
    assert _turns(three, "characters_mean")[-1] > _turns(one, "characters_mean")[-1]
