"""A game's own card column and its search filter, declared by a game registered from outside
deckcheck (the toy game's ``element``): imported, stored, searched through the library, the
CLI, ``GET /cards``, listed by ``GET /games`` and offered by the web builder, with no line of
deckcheck naming it. Also: a game registered after its database was made."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from starlette.testclient import TestClient

from deckcheck import plugins
from deckcheck.cli import app
from deckcheck.odds.conditions import parse_atom
from deckcheck.pool.search import FilterError
from deckcheck.pool.sql import SqlPool
from deckcheck.pool.store import Pool
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.cli_run import CliRunner
from tests.conftest import TOY, on_path, plugins_on_path
from tests.test_web import WAIT_MS, _watch, server_url  # noqa: F401  (fixtures)

FIRE = ["TOY-1", "TOY-2", "TOY-3"]  # cards.csv: element 火
runner = CliRunner()


@pytest.fixture(scope="module")
def toy(toy_site: Path) -> Iterator[plugins.GameSpec]:
    """The installed toy game for the whole module (the builder's server is the module's)."""
    with plugins_on_path() as added:
        on_path(added, toy_site)
        yield plugins.get("toy")


@pytest.fixture(scope="module")
def toy_db(toy: plugins.GameSpec, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pool made before the toy game's cards came: the shipped cards, then the toy's."""
    db = tmp_path_factory.mktemp("toy") / "pool.sqlite3"
    with Pool(db) as pool:
        pool.import_files([TOY / "cards.csv"])
    return db


def _numbers(cards: list[dict[str, object]]) -> list[object]:
    return [c["number"] for c in cards]


def test_the_column_is_imported_stored_and_searched(toy: plugins.GameSpec, toy_db: Path) -> None:
    with Pool(toy_db) as pool:
        fire = pool.search("toy", element="火")
        assert [c.number for c in fire] == FIRE
        assert all(c.text_of("element") == "火" for c in fire)
        # without a game: only the toy game's cards can match its filter
        assert [c.number for c in pool.search(None, element="水")] == ["TOY-4", "TOY-7"]
        assert [c.number for c in pool.search("toy", "竜", element="火")] == ["TOY-1", "TOY-2"]
        assert len(pool.search("toy")) == 7
        card = pool.get("toy", "TOY-6")
    assert card is not None and card.extra == {"element": "森"}
    assert card.model_dump()["element"] == "森"  # dumps are flat, as the card file is
    with Pool(toy_db) as pool, pytest.raises(FilterError, match="'element' for chaos"):
        pool.search("chaos", element="火")


def test_the_sqlalchemy_pool_stores_and_searches_it_alike(
    toy: plugins.GameSpec, tmp_path: Path
) -> None:
    sql = SqlPool(f"sqlite:///{tmp_path / 'toy.sqlite3'}")
    with sql:
        sql.import_files([TOY / "cards.csv"])
        assert [c.number for c in sql.search("toy", element="火")] == FIRE
        assert [c.number for c in sql.search(None, element="森")] == ["TOY-6"]
        card = sql.get("toy", "TOY-5")
    assert card is not None and card.text_of("element") == "闇"


def test_a_game_installed_after_the_database_was_made(
    toy: plugins.GameSpec, toy_site: Path, tmp_path: Path
) -> None:
    db = tmp_path / "pool.sqlite3"
    sys.path.remove(str(toy_site))  # the module's toy game, gone for a while
    plugins.rediscover()
    try:
        assert plugins.find("toy") is None
        Pool(db).close()  # made (and filled) while no toy game exists
    finally:
        sys.path.insert(0, str(toy_site))
        plugins.rediscover()
    with Pool(db) as pool:
        pool.import_files([TOY / "cards.csv"])
        assert [c.number for c in pool.search("toy", element="火")] == FIRE


def test_pool_search_takes_the_filter(toy: plugins.GameSpec, toy_db: Path) -> None:
    db = ["--db", str(toy_db)]
    found = runner.invoke(
        app, ["pool", "search", "--game", "toy", "--element", "火", "--json", *db]
    )
    assert found.exit_code == 0, found.output
    assert _numbers(json.loads(found.stdout)) == FIRE
    across = runner.invoke(app, ["pool", "search", "--element=水", "--json", *db])
    assert _numbers(json.loads(across.stdout)) == ["TOY-4", "TOY-7"]
    named = runner.invoke(app, ["pool", "search", "竜", "--element", "火", "-g", "toy", *db])
    # issue 23: one game's cards show its own columns, each under its heading
    assert named.exit_code == 0 and "element" in named.stdout.splitlines()[0]
    assert ["TOY-2", "大竜", "creature", "3", "火"] in [
        line.split() for line in named.stdout.splitlines()
    ]
    assert "小鬼" not in named.stdout
    help_text = runner.invoke(app, ["pool", "search", "--help"], env={"COLUMNS": "200"}).stdout
    assert "--element" in help_text and "the card's element" in help_text
    wrong = runner.invoke(app, ["pool", "search", "-g", "chaos", "--element", "火", *db])
    assert wrong.exit_code == 2 and "unknown search filter" in wrong.output


def test_get_cards_and_get_games(toy: plugins.GameSpec, toy_db: Path) -> None:
    service = create_app(Settings(db=toy_db, api_keys=("k",)))
    with TestClient(service) as http:
        found = http.get("/cards", params={"game": "toy", "element": "火"})
        assert found.status_code == 200 and _numbers(found.json()) == FIRE
        assert found.json()[0]["element"] == "火"
        across = http.get("/cards", params={"element": "森"}).json()
        assert _numbers(across) == ["TOY-6"]
        assert http.get("/cards", params={"game": "chaos", "element": "火"}).status_code == 422
        listed = {g["id"]: g for g in http.get("/games").json()}
    assert [f["param"] for f in listed["toy"]["filters"]] == ["element"]
    assert listed["toy"]["filters"][0]["mode"] == "exact"
    assert listed["toy"]["columns"] == [
        {
            "name": "element",
            "type": "text",
            "label": "Element",
            "short": "element",
            "description": "the card's element (火 水 森 闇)",
            "summary": True,
            "filter": "element",
        }
    ]
    assert "element" not in {f["param"] for f in listed["chaos"]["filters"]}


def test_the_pilot_and_conditions_read_the_column(toy: plugins.GameSpec, toy_db: Path) -> None:
    with Pool(toy_db) as pool:
        cards = {c.number: c for c in pool.search("toy")}
    fire = parse_atom("element:火", "toy")
    assert [n for n, c in cards.items() if fire.matches(c)] == FIRE
    odds = runner.invoke(
        app,
        [
            "odds",
            str(TOY / "legal.deck"),
            "-w",
            "element:水>=1",
            "--json",
            "--format",
            str(TOY / "toy-standard.toml"),
            "--db",
            str(toy_db),
        ],
    )
    assert odds.exit_code == 0, odds.output
    assert 0 < json.loads(odds.stdout)["rows"][0]["probability"] < 1
    with pytest.raises(ValueError, match="unknown selector"):
        parse_atom("element:火", "chaos")


def test_a_card_file_keeps_another_games_column_out(toy: plugins.GameSpec, tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    path.write_text(
        "game,number,name,type,element\nchaos,X-1,見本キャラ X,chara,火\n", encoding="utf-8"
    )
    with Pool(tmp_path / "pool.sqlite3") as pool:
        result = pool.import_files([path])
        card = pool.get("chaos", "X-1")
    assert result.unknown_columns == {str(path): ["element (not a chaos column)"]}
    assert card is not None and card.extra == {}


def test_the_template_explains_the_column(toy: plugins.GameSpec) -> None:
    result = runner.invoke(app, ["pool", "template", "toy"])
    assert result.exit_code == 0, result.output
    assert "# element: the card's element (火 水 森 闇); optional" in result.stdout
    assert result.stdout.splitlines()[-1].endswith(",element")


@pytest.fixture(scope="module")
def web_app(
    toy: plugins.GameSpec, toy_db: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[object]:
    """The service with the toy game's format (``DECKCHECK_FORMATS``) and cards."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("DECKCHECK_FORMATS", str(TOY))
        yield create_app(Settings(db=toy_db, api_keys=("web-key",)))


def test_the_builder_offers_the_filter(browser, server_url: str) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    violations = _watch(page)
    page.set_default_timeout(WAIT_MS)
    page.goto(server_url + "/")
    page.select_option("#format", "toy-standard")
    page.wait_for_selector('label[for="filter-element"]')
    assert page.locator("#game-filters label").all_inner_texts() == ["Element"]
    page.fill("#filter-element", "火")
    expect(page.locator("#results li")).to_have_count(3)
    numbers = [li.get_attribute("data-number") for li in page.locator("#results li").all()]
    assert numbers == FIRE
    assert all("element 火" in t for t in page.locator("#results li .meta").all_inner_texts())
    page.select_option("#format", "chaos-standard")  # another game: no toy filter
    page.wait_for_selector('label[for="filter-title"]')
    assert page.locator("#filter-element").count() == 0
    assert violations == []
    context.close()
