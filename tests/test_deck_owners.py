"""Saved decks belong to the key that created it (issue 37, item 6; OWASP API1, object-level
authorisation): before, any key could change or delete another key's deck, and anyone could
list and read every deck. Every cross-key and anonymous case, for each visibility."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings

ALICE, BOB, ADMIN = "alice-key", "bob-key", "admin-key"
DECK = "format: chaos-standard\n"


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db=tmp_path / "pool.sqlite3", api_keys=(ALICE, BOB), admin_keys=(ADMIN,))
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        yield client


def create(http: TestClient, key: str, visibility: str | None = None, name: str = "d") -> str:
    body: dict[str, Any] = {"name": name, "format": "chaos-standard", "deck": DECK}
    if visibility:
        body["visibility"] = visibility
    made = http.post("/decks", json=body, headers=auth(key))
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def put(http: TestClient, deck_id: str, key: str, **extra: Any) -> Any:
    body = {"name": "changed", "format": "chaos-standard", "deck": DECK, **extra}
    return http.put(f"/decks/{deck_id}", json=body, headers=auth(key))


def listed(http: TestClient, headers: dict[str, str] | None = None) -> set[str]:
    answer = http.get("/decks", headers=headers or {})
    assert answer.status_code == 200, answer.text
    return {d["id"] for d in answer.json()}


def test_a_deck_is_private_by_default(http: TestClient) -> None:
    deck_id = create(http, ALICE)
    mine = http.get(f"/decks/{deck_id}", headers=auth(ALICE))
    assert mine.status_code == 200
    assert mine.json()["visibility"] == "private" and mine.json()["yours"] is True
    # another key and no key: as if the deck did not exist (ids cannot be probed)
    for headers in ({}, auth(BOB)):
        assert http.get(f"/decks/{deck_id}", headers=headers).status_code == 404
        assert http.get(f"/decks/{deck_id}/export", headers=headers).status_code == 404
    assert deck_id in listed(http, auth(ALICE))
    assert deck_id not in listed(http) and deck_id not in listed(http, auth(BOB))
    admin = http.get(f"/decks/{deck_id}", headers=auth(ADMIN)).json()
    assert admin["yours"] is False and deck_id in listed(http, auth(ADMIN))


def test_another_key_cannot_change_or_delete_a_private_deck(http: TestClient) -> None:
    deck_id = create(http, ALICE)
    assert put(http, deck_id, BOB).status_code == 404
    assert put(http, deck_id, BOB, visibility="public").status_code == 404
    assert http.delete(f"/decks/{deck_id}", headers=auth(BOB)).status_code == 404
    kept = http.get(f"/decks/{deck_id}", headers=auth(ALICE)).json()
    assert kept["name"] == "d" and kept["version"] == 1 and kept["visibility"] == "private"


@pytest.mark.parametrize("visibility", ["link", "public"])
def test_shared_decks_are_read_by_all_but_changed_by_their_owner(
    http: TestClient, visibility: str
) -> None:
    deck_id = create(http, ALICE, visibility)
    for headers in ({}, auth(BOB)):
        got = http.get(f"/decks/{deck_id}", headers=headers)
        assert got.status_code == 200 and got.json()["yours"] is False
        assert http.get(f"/decks/{deck_id}/export", headers=headers).status_code == 200
        assert (deck_id in listed(http, headers)) is (visibility == "public")
    refused = put(http, deck_id, BOB)
    assert refused.status_code == 403
    assert refused.json()["type"].endswith("/not-owner")
    assert http.delete(f"/decks/{deck_id}", headers=auth(BOB)).status_code == 403
    assert http.delete(f"/decks/{deck_id}", headers=auth(BOB) | {"If-Match": '"1"'}).status_code == 403
    assert http.get(f"/decks/{deck_id}").json()["version"] == 1
    # the owner changes it; a replacement without visibility keeps it
    changed = put(http, deck_id, ALICE)
    assert changed.status_code == 200 and changed.json()["visibility"] == visibility
    assert http.delete(f"/decks/{deck_id}", headers=auth(ALICE)).status_code == 204


def test_the_owner_publishes_and_withdraws(http: TestClient) -> None:
    deck_id = create(http, ALICE)
    assert put(http, deck_id, ALICE, visibility="public").json()["visibility"] == "public"
    assert deck_id in listed(http)
    assert put(http, deck_id, ALICE, visibility="private").json()["visibility"] == "private"
    assert deck_id not in listed(http)
    assert http.get(f"/decks/{deck_id}").status_code == 404


def test_an_admin_key_changes_and_deletes_any_deck(http: TestClient) -> None:
    deck_id = create(http, ALICE)
    changed = put(http, deck_id, ADMIN, visibility="public")
    assert changed.status_code == 200 and changed.json()["version"] == 2
    # the deck stays Alice's
    assert http.get(f"/decks/{deck_id}", headers=auth(ALICE)).json()["yours"] is True
    assert http.delete(f"/decks/{deck_id}", headers=auth(ADMIN)).status_code == 204
    assert http.get(f"/decks/{deck_id}", headers=auth(ALICE)).status_code == 404


def test_anonymous_lists_show_public_decks_only(http: TestClient) -> None:
    decks = {
        (key, visibility): create(http, key, visibility)
        for key in (ALICE, BOB)
        for visibility in ("private", "link", "public")
    }
    assert listed(http) == {decks[ALICE, "public"], decks[BOB, "public"]}
    assert listed(http, auth(BOB)) == {
        decks[BOB, "private"], decks[BOB, "link"], decks[BOB, "public"], decks[ALICE, "public"]
    }
    assert listed(http, auth(ADMIN)) == set(decks.values())
    yours = {d["id"] for d in http.get("/decks", headers=auth(ALICE)).json() if d["yours"]}
    assert yours == {decks[ALICE, v] for v in ("private", "link", "public")}


def test_bad_keys_and_bad_visibility(http: TestClient) -> None:
    deck_id = create(http, ALICE, "public")
    for headers in (auth("wrong"), {"Authorization": "Basic eDp5"}, {"Authorization": "Bearer "}):
        assert http.get("/decks", headers=headers).status_code == 403
        assert http.get(f"/decks/{deck_id}", headers=headers).status_code == 403
    assert http.delete(f"/decks/{deck_id}").status_code == 401
    bad = {"name": "d", "format": "chaos-standard", "deck": DECK, "visibility": "friends"}
    assert http.post("/decks", json=bad, headers=auth(ALICE)).status_code == 422


def test_decks_saved_before_owners_are_kept_by_link_and_changed_by_an_admin(
    tmp_path: Path,
) -> None:
    """A database of an earlier deckcheck (no owner, no visibility): its decks stay readable by
    their id, are no longer listed, and only an admin key changes them."""
    db = tmp_path / "pool.sqlite3"
    engine = create_engine(f"sqlite:///{db.with_suffix('.decks.sqlite3')}")
    now = datetime.now(UTC).isoformat(sep=" ")
    with engine.begin() as conn:
        conn.execute(text(
            "CREATE TABLE saved_decks (id VARCHAR(32) PRIMARY KEY, name VARCHAR(200) NOT NULL, "
            "format VARCHAR(100) NOT NULL, deck TEXT NOT NULL, created DATETIME NOT NULL, "
            "updated DATETIME NOT NULL, version INTEGER NOT NULL DEFAULT 1)"
        ))
        conn.execute(
            text("INSERT INTO saved_decks VALUES ('old', 'old', 'chaos-standard', :d, :t, :t, 3)"),
            {"d": DECK, "t": now},
        )
    engine.dispose()
    settings = Settings(db=db, api_keys=(ALICE,), admin_keys=(ADMIN,))
    with TestClient(create_app(settings), raise_server_exceptions=False) as http:
        got = http.get("/decks/old")
        assert got.status_code == 200 and got.json()["visibility"] == "link"
        assert "old" not in listed(http) and "old" not in listed(http, auth(ALICE))
        assert put(http, "old", ALICE).status_code == 403
        assert http.delete("/decks/old", headers=auth(ALICE)).status_code == 403
        assert put(http, "old", ADMIN).json()["version"] == 4
