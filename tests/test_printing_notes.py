"""A name whose printings legality treats alike (issue 31, item 2): the reader takes one and
says so, naming the number and why, in ``deckcheck validate`` (text and JSON) and in the
service's ``/validate`` answer the page shows. Before this change the pick was silent
everywhere but ``deckcheck fix``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from deckcheck.cli import app
from tests.cli_run import CliRunner

runner = CliRunner()

# 秋 静葉: 5 printings in card_pool/vision, alike in type and keywords; N10 is a number
DECK = "format: vision-standard\nキャラクター\n3 秋静葉\n3 N10\n秋 静葉 ×2\n"
NOTE = (
    "'秋 静葉' has 5 printings that legality treats alike; N1267 stands for them "
    "(write another number if you meant it)"
)


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from deckcheck.service.app import create_app
    from deckcheck.service.settings import Settings

    db = tmp_path_factory.mktemp("svc") / "pool.sqlite3"
    with TestClient(create_app(Settings(db=db)), raise_server_exceptions=False) as client:
        yield client


def test_validate_says_which_printing_stands_for_a_name(tmp_path: Path) -> None:
    deck, db = tmp_path / "d.deck", str(tmp_path / "pool.sqlite3")
    deck.write_text(DECK, encoding="utf-8")
    report = json.loads(runner.invoke(app, ["validate", str(deck), "--json", "--db", db]).stdout)
    # one note for the name, at its first line, with the copies of both its lines
    assert report["notes"] == [
        {
            "rule": "deck/printing",
            "message": NOTE,
            "line": 3,
            "cards": [{"number": "N1267", "name": "秋 静葉", "count": 5}],
            "source": "deckcheck deck list format (README: Deck lists); outside the rulebooks",
        }
    ]
    text = runner.invoke(app, ["validate", str(deck), "--db", db]).stdout
    assert "deck/printing line 3" in text and "N1267 stands for them" in text
    assert "N10 " not in text.split("deck/printing", 1)[1]  # a number names its printing


def test_the_service_answer_has_the_same_note_in_either_language(http: TestClient) -> None:
    page = http.post("/validate", json={"deck": DECK}).json()
    assert [(n["rule"], n["line"], n["message"]) for n in page["notes"]] == [
        ("deck/printing", 3, NOTE)
    ]
    ja = http.post("/validate", json={"deck": DECK}, headers={"Accept-Language": "ja"}).json()
    (note,) = ja["notes"]
    assert note["message"].startswith("「秋 静葉」には構築の判定では同じに扱われる5種類のカード")
    assert "N1267 で代表しています" in note["message"]


def test_a_name_whose_printings_differ_gets_no_note_but_its_error(http: TestClient) -> None:
    page = http.post(
        "/validate", json={"deck": "format: vision-standard\n3 博麗 霊夢\n"}
    ).json()
    assert page["notes"] == []
    assert "deck/ambiguous-card" in {v["rule"] for v in page["violations"]}
