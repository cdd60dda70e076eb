"""Text that is not valid Unicode (a lone surrogate such as ``\\ud800``, from a JSON escape or
a command-line argument that is not UTF-8) is a 422 or a deck error, never a 500 or exit 70
(issue 24, item 9: /validate, /resolve and POST /decks answered 500; a sweep job with one never
ended)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES
from tests.test_cli import run

KEY = "unicode-key"
BAD = "見本\ud800カード"
RAKUEN = (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8")
WITH_BAD = RAKUEN + f"1 {BAD}\n"


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("unicode") / "pool.sqlite3"
    app = create_app(Settings(db=db, api_keys=(KEY,), job_games=50_000, sync_games=100))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def _post(http: TestClient, path: str, body: dict[str, Any]) -> Any:
    # json.dumps writes the surrogate as the escape \ud800, as a client's JSON would
    content = json.dumps(body).encode("ascii")
    headers = {"content-type": "application/json", "authorization": f"Bearer {KEY}"}
    return http.post(path, content=content, headers=headers)


REQUESTS: dict[str, tuple[str, dict[str, Any], str]] = {
    "validate": ("/validate", {"deck": WITH_BAD}, "body.deck"),
    "resolve": ("/resolve", {"deck": WITH_BAD}, "body.deck"),
    "save": ("/decks", {"name": "n", "format": "rakuen-standard", "deck": WITH_BAD}, "body.deck"),
    "save name": ("/decks", {"name": BAD, "format": "rakuen-standard", "deck": RAKUEN}, "body.name"),
    "odds": ("/odds", {"deck": RAKUEN, "want": [f"name:{BAD}>=1"]}, "body.want[0]"),
    "hand": ("/hand", {"deck": WITH_BAD}, "body.deck"),
    "goldfish": ("/goldfish", {"deck": WITH_BAD, "games": 10, "turns": 2}, "body.deck"),
    "sweep": ("/sweeps", {"deck": WITH_BAD, "games": 10, "turns": 2}, "body.deck"),
    "sweep name": (
        "/sweeps",
        {"decks": [{"name": BAD, "deck": RAKUEN}], "games": 10, "turns": 2},
        "body.decks[0].name",
    ),
    "json deck": (
        "/validate",
        {"deck": {"format": "rakuen-standard", "main": [{"count": 4, "card": BAD}]}},
        "body.deck.main[0].card",
    ),
    "key": ("/goldfish", {"deck": RAKUEN, "policy": {BAD: 1}}, "body.policy"),
}


@pytest.mark.parametrize("name", list(REQUESTS))
def test_a_lone_surrogate_in_a_request_is_a_422(http: TestClient, name: str) -> None:
    path, body, where = REQUESTS[name]
    answer = _post(http, path, body)
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["type"].endswith("/invalid-request")
    assert "not valid Unicode" in problem["detail"] and "\\ud800" in problem["detail"]
    assert problem["errors"][0]["path"] == where


def test_escaped_pairs_are_characters_and_pass(http: TestClient) -> None:
    # "\ud83d\ude00" is one character, 😀, written as a surrogate pair: valid JSON text
    answer = _post(http, "/validate", {"deck": RAKUEN + "1 見本😀\n"})
    assert answer.status_code == 200, answer.text
    assert "😀" in json.dumps(answer.json(), ensure_ascii=False)


# --- the command line ----------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "pool.sqlite3")


def _json_deck(tmp_path: Path) -> Path:
    data: dict[str, Any] = {"format": "rakuen-standard", "main": [{"count": 4, "card": "SAMPLE-R-003"}]}
    data["main"].append({"count": 1, "card": BAD})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="ascii")  # the surrogate as its escape
    return path


def test_a_json_deck_with_a_lone_surrogate_is_a_deck_error(tmp_path: Path, db: str) -> None:
    deck = _json_deck(tmp_path)
    code, out, err = run("validate", str(deck), db=db)
    assert code == 1, err
    assert "deck/syntax" in out and "not valid Unicode" in out
    code, out, err = run("validate", str(deck), "--json", db=db)
    assert code == 1, err
    found = json.loads(out)
    assert any("\\ud800" in v["message"] for v in found["violations"])


def test_a_card_file_with_a_lone_surrogate_is_a_bad_row(tmp_path: Path, db: str) -> None:
    cards = tmp_path / "cards.json"
    row = {"game": "rakuen", "number": "U-R-001", "name": BAD, "type": "member"}
    cards.write_text(json.dumps([row]), encoding="ascii")
    code, _, err = run("pool", "import", str(cards), db=db)
    assert code == 2 and "row 1" in err and "not valid Unicode" in err


def test_an_argument_that_is_not_utf8_is_exit_2(tmp_path: Path, db: str) -> None:
    deck = tmp_path / "deck.deck"
    shutil.copy(EXAMPLES / "rakuen-standard-legal.deck", deck)
    # Python reads the argument bytes ff fe as the lone surrogates \udcff \udcfe
    code, _, err = run("add", str(deck), "1", "\udcff\udcfe", db=db)
    assert code == 2 and "not valid Unicode" in err
    assert deck.read_text(encoding="utf-8") == RAKUEN
