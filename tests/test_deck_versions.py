"""Saved decks lose no update (issue 13, item 4): ETags, If-Match on PUT and DELETE, 412 when
stale, 428 when required and missing, 404 (never 500) when the deck vanished."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings

KEY = "versions-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
WRITERS = 20


def _client(tmp_path: Path, **settings: Any) -> TestClient:
    app = create_app(Settings(db=tmp_path / "pool.sqlite3", api_keys=(KEY,), **settings))
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with _client(tmp_path) as client:
        yield client


def _create(http: TestClient, deck: str = "format: chaos-standard\n") -> tuple[str, str]:
    made = http.post("/decks", json={"name": "d", "format": "chaos-standard", "deck": deck}, headers=AUTH)
    assert made.status_code == 201
    return made.json()["id"], made.headers["ETag"]


def _put(http: TestClient, deck_id: str, deck: str, etag: str | None) -> Any:
    headers = AUTH | ({"If-Match": etag} if etag else {})
    body = {"name": "d", "format": "chaos-standard", "deck": deck}
    return http.put(f"/decks/{deck_id}", json=body, headers=headers)


def test_etag_changes_with_each_write_and_a_stale_write_is_412(http: TestClient) -> None:
    deck_id, etag = _create(http)
    got = http.get(f"/decks/{deck_id}", headers=AUTH)
    assert got.headers["ETag"] == etag == '"1"' and got.json()["version"] == 1
    first = _put(http, deck_id, "format: chaos-standard\n1 SAMPLE-C-001\n", etag)
    assert first.status_code == 200 and first.headers["ETag"] == '"2"'
    second = _put(http, deck_id, "format: chaos-standard\n2 SAMPLE-C-002\n", etag)
    assert second.status_code == 412
    assert second.json()["type"].endswith("precondition-failed") and second.json()["etag"] == '"2"'
    assert "SAMPLE-C-001" in http.get(f"/decks/{deck_id}", headers=AUTH).json()["deck"]
    assert http.delete(f"/decks/{deck_id}", headers=AUTH | {"If-Match": etag}).status_code == 412
    assert http.delete(f"/decks/{deck_id}", headers=AUTH | {"If-Match": '"2"'}).status_code == 204
    assert _put(http, deck_id, "format: chaos-standard\n", '"2"').status_code == 404


def test_an_if_match_is_compared_as_a_string(http: TestClient) -> None:
    """``"01"`` matched version 1 (issue 37): entity tags compare character by character."""
    deck_id, _ = _create(http)
    for tag in ('"01"', '"001"', '"1 "', '" 1"'):
        assert _put(http, deck_id, "format: chaos-standard\n", tag).status_code == 412, tag
    assert _put(http, deck_id, "format: chaos-standard\n", '"1"').status_code == 200


def test_if_match_star_and_weak_tags(http: TestClient) -> None:
    deck_id, _ = _create(http)
    assert _put(http, deck_id, "format: chaos-standard\n", "*").status_code == 200
    assert _put(http, deck_id, "format: chaos-standard\n", 'W/"2"').status_code == 412
    assert _put(http, deck_id, "format: chaos-standard\n", '"9", "2"').status_code == 200


def test_if_match_can_be_required(tmp_path: Path) -> None:
    with _client(tmp_path, require_if_match=True) as http:
        deck_id, etag = _create(http)
        missing = _put(http, deck_id, "format: chaos-standard\n", None)
        assert missing.status_code == 428
        assert http.delete(f"/decks/{deck_id}", headers=AUTH).status_code == 428
        assert _put(http, deck_id, "format: chaos-standard\n", etag).status_code == 200


def test_twenty_writers_lose_nothing(http: TestClient) -> None:
    deck_id, _ = _create(http)

    def writer(n: int) -> int:
        tries = 0
        while True:
            tries += 1
            current = http.get(f"/decks/{deck_id}", headers=AUTH)
            deck = current.json()["deck"] + f"1 SAMPLE-WRITER-{n:02d}\n"
            answer = _put(http, deck_id, deck, current.headers["ETag"])
            if answer.status_code == 200:
                return tries
            assert answer.status_code == 412, answer.text
            assert tries < 200

    with ThreadPoolExecutor(WRITERS) as pool:
        tries = list(pool.map(writer, range(WRITERS)))
    final = http.get(f"/decks/{deck_id}", headers=AUTH).json()
    for n in range(WRITERS):
        assert f"SAMPLE-WRITER-{n:02d}" in final["deck"]
    assert final["version"] == WRITERS + 1
    assert sum(tries) >= WRITERS


def test_a_put_racing_a_delete_is_never_500(http: TestClient) -> None:
    for _ in range(10):
        deck_id, _ = _create(http)
        with ThreadPoolExecutor(2) as pool:
            put = pool.submit(_put, http, deck_id, "format: chaos-standard\n", None)
            gone = pool.submit(http.delete, f"/decks/{deck_id}", headers=AUTH)
            assert put.result().status_code in (200, 404)
            assert gone.result().status_code == 204
