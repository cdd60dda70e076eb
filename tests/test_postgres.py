"""Saved decks on PostgreSQL (``DECKCHECK_DATABASE_URL``). Uses ``DECKCHECK_TEST_DATABASE_URL``
when set; otherwise starts a throwaway cluster if PostgreSQL's ``initdb`` is installed; skips
when neither is possible."""

from __future__ import annotations

import pytest

from deckcheck.service.store import DeckStore


def test_saved_decks_on_postgres(postgres_url: str) -> None:
    store = DeckStore(postgres_url)
    owner = "0" * 64  # a key's digest (decks have owners: issue 37)
    deck = "format: iris-standard\n4 SAMPLE-I-U01\n"
    row = store.create("pg deck", "iris-standard", deck, owner)
    assert store.get(row["id"])["name"] == "pg deck"
    renamed = store.update(row["id"], "renamed", "iris-standard", "4 SAMPLE-I-U02\n", owner=owner)
    assert renamed is not None and renamed["name"] == "renamed"
    assert [r["id"] for r in store.list("iris-standard", owner=owner)] == [row["id"]]
    assert store.list("iris-standard") == []  # private: not listed for anyone else
    assert store.delete(row["id"], owner=owner) and store.get(row["id"]) is None


def test_card_pool_on_postgres(postgres_url: str, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import json

    from starlette.testclient import TestClient

    from deckcheck.cli import app as cli_app
    from deckcheck.pool.sql import SqlPool
    from deckcheck.pool.store import ImportRejected, Pool
    from deckcheck.service.app import create_app
    from deckcheck.service.settings import Settings
    from tests.cli_run import CliRunner
    from tests.conftest import EXAMPLES

    sql = SqlPool(postgres_url)  # filled from card_pool/ when empty
    with Pool(tmp_path / "ref.sqlite3") as lite:
        assert sql.stats() == lite.stats()
        assert [c.number for c in sql.search("chaos", "見本キャラ０")] == [
            c.number for c in lite.search("chaos", "見本キャラ０")
        ]
        # a game's own columns, read from the JSON column with PostgreSQL's ->>
        for query in (
            {"game": "vision", "class": "獣", "max_node": 3, "limit": 500},
            {"package": "st4", "keyword": "デッキ1枚制限"},
            {"min_power": 6},
            {"game": "rakuen", "color": "赤", "world": "見本"},
            {"title": "OS:ニトロプラス", "limit": 500},
        ):
            found = [c.number for c in sql.search(**query)]  # type: ignore[arg-type]
            assert found and found == [c.number for c in lite.search(**query)]  # type: ignore[arg-type]
        assert sql.get("vision", "P8").extra == lite.get("vision", "P8").extra  # type: ignore[union-attr]
    assert sql.get("rakuen", "sample-r-p01").type == "paradox"
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "game,number,name,type\nchaos,PG-1,ok,chara\nchaos,PG-2,,chara\n", encoding="utf-8"
    )
    before = sql.stats()
    with pytest.raises(ImportRejected):
        sql.import_files([bad])
    assert sql.stats() == before  # nothing of the good row either

    app = create_app(
        Settings(db=tmp_path / "unused.sqlite3", database_url=postgres_url, api_keys=("k",))
    )
    with TestClient(app) as http:
        assert http.get("/health").json()["cards"] == before["total"]
        assert http.get("/cards/iris/SAMPLE-I-U01").json()["type"] == "unit"
        verdict = http.post(
            "/validate",
            json={"deck": (EXAMPLES / "iris-standard-legal.deck").read_text(encoding="utf-8")},
        ).json()
        assert verdict["legal"] is True

    monkeypatch.setenv("DECKCHECK_DATABASE_URL", postgres_url)
    good = tmp_path / "good.csv"
    good.write_text("game,number,name,type\nchaos,PG-1,ポスグレ キャラ,chara\n", encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(cli_app, ["pool", "import", str(good)]).exit_code == 0
    stats = json.loads(runner.invoke(cli_app, ["pool", "stats", "--json"]).stdout)
    assert stats["total"] == before["total"] + 1
    result = runner.invoke(cli_app, ["validate", str(EXAMPLES / "rakuen-standard-legal.deck")])
    assert result.exit_code == 0
