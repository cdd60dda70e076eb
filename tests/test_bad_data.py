"""Bad card files and a damaged, edited, locked or read-only card pool: exit 2 or a problem
answer with one clear line, never exit 70 or HTTP 500, never the server's paths (issue 13)."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from deckcheck.pool import store
from deckcheck.pool.store import Pool
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES
from tests.test_cli import run

DECK = str(EXAMPLES / "iris-standard-legal.deck")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "pool.sqlite3"
    Pool(path).close()
    return path


def write(folder: Path, name: str, text: str) -> str:
    (folder / name).write_text(text, encoding="utf-8")
    return str(folder / name)


def test_a_huge_integer_is_a_row_error(db: Path, tmp_path: Path) -> None:
    level = "1" + "0" * 30
    card = write(tmp_path, "big.csv", f"game,number,name,type,level\niris,X-1,Big,unit,{level}\n")
    code, _, err = run("pool", "import", card, db=str(db))
    assert code == 2 and "row 1" in err and "level" in err and "out of range" in err


@pytest.mark.parametrize(
    ("name", "text", "reason"),
    [
        ("obj.json", json.dumps([{"game": "iris", "number": "X-2", "name": {"a": 1},
                                  "type": "unit"}]), "not a JSON object"),
        ("nul.jsonl", json.dumps({"game": "iris", "number": "X-3", "name": "a\x00b",
                                  "type": "unit"}), "NUL"),
        ("nul.csv", "game,number,name,type\niris,X-4,a\x00b,unit\n", "NUL"),
    ],
)
def test_an_object_or_nul_name_is_refused(
    db: Path, tmp_path: Path, name: str, text: str, reason: str
) -> None:
    code, _, err = run("pool", "import", write(tmp_path, name, text), db=str(db))
    assert code == 2 and "row 1" in err and reason in err
    with Pool(db) as pool:
        assert not pool.search(name="X-")


def corrupt(path: Path) -> None:
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.seek(size // 2)
        f.write(b"\xff" * 8192)


def test_a_damaged_pool_fails_every_command_alike(db: Path) -> None:
    corrupt(db)
    for args in (["validate", DECK], ["pool", "stats"], ["pool", "search", "見本"]):
        code, _, err = run(*args, db=str(db))
        assert code == 2, args
        assert "damaged" in err and "pool init --force" in err, err
        assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("change", "named"), [("game = 'mtg'", "unknown game"), ("type = 'wizard'", "unknown type")]
)
def test_an_edited_row_is_named_not_a_crash(db: Path, change: str, named: str) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE cards SET {change} WHERE number = 'SAMPLE-I-U01'")
    code, _, err = run("validate", DECK, db=str(db))
    assert code == 2 and "bad row" in err and "SAMPLE-I-U01" in err and named in err, err


def test_a_locked_pool_is_not_to_be_deleted(db: Path, tmp_path: Path) -> None:
    card = write(tmp_path, "ok.csv", "game,number,name,type\niris,X-5,Fine,unit\n")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        code, _, err = run("pool", "import", card, db=str(db))
    finally:
        holder.close()
    assert code == 2 and "locked" in err and "delete" not in err, err


def test_a_read_only_pool(db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Root may write a 0444 file, so SQLite is told the file is read-only as well.
    connect = sqlite3.connect

    def read_only(path: object, **kwargs: object) -> sqlite3.Connection:
        return connect(f"{Path(str(path)).as_uri()}?mode=ro", uri=True, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store.sqlite3, "connect", read_only)
    db.chmod(0o444)
    card = write(tmp_path, "ok.csv", "game,number,name,type\niris,X-6,Fine,unit\n")
    code, _, err = run("pool", "import", card, db=str(db))
    assert code == 2 and "read-only" in err, err
    assert run("validate", DECK, db=str(db))[0] == 0


@pytest.fixture
def http(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(db=db)), raise_server_exceptions=False) as client:
        yield client


def assert_private(answer: object, db: Path) -> None:
    text = getattr(answer, "text", "")
    for form in (str(db), str(db.resolve()), str(db.parent)):
        assert form not in text, text


def test_the_service_answers_pool_trouble_without_paths(http: TestClient, db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE cards SET type = 'wizard' WHERE number = 'SAMPLE-I-U01'")
    os.utime(db, ns=(1, 1))  # a new stamp, as a slower edit would leave
    answer = http.post("/validate", json={"deck": Path(DECK).read_text(encoding="utf-8")})
    assert answer.status_code == 503 and "SAMPLE-I-U01" in answer.json()["detail"]
    corrupt(db)
    for answer in (http.get("/cards", params={"q": "見本"}), http.get("/health")):
        assert answer.status_code in (200, 503), answer.text
        assert_private(answer, db)
    answer = http.get("/cards", params={"q": "見本"})
    assert answer.status_code == 503 and "damaged" in answer.json()["detail"]
    assert "retry-after" not in answer.headers  # a damaged pool stays damaged: no retry hint


def test_a_chunked_body_over_the_limit_is_413(http: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"deck": "'
        for _ in range(80):
            yield b"x" * 16384
        yield b'"}'

    answer = http.post("/validate", content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413, answer.text
    assert answer.json()["type"].endswith("/too-large")
