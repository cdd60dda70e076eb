"""The HTTP service through httpx (Starlette's TestClient, an httpx client with an ASGI
transport): every endpoint, every error path, and the CLI as a client."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient

from deckcheck.cli import app as cli_app
from deckcheck.service.app import create_app
from deckcheck.service.jobs import Jobs
from deckcheck.service.settings import Settings
from tests.cli_run import CliRunner
from tests.conftest import EXAMPLES, HANG, cli_through

KEY = "test-key-1"


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    db = tmp_path_factory.mktemp("svc") / "pool.sqlite3"
    settings = Settings(
        db=db,
        api_keys=(KEY, "other-key"),
        sync_games=300,
        job_games=4000,
        max_jobs=1,
        max_body=1 << 20,
    )
    return create_app(settings)


@pytest.fixture(scope="module")
def http(service: FastAPI) -> Iterator[TestClient]:
    with TestClient(service, raise_server_exceptions=False) as client:
        yield client


def text(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def assert_problem(response: Any, status: int, problem: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["type"] == f"https://deckcheck.dev/problems/{problem}"
    assert body["title"] and body["detail"] and body["status"] == status
    return body


def test_health_formats_cards(http: TestClient) -> None:
    assert http.get("/health").json()["status"] == "ok"
    ids = {f["id"] for f in http.get("/formats").json()}
    assert "rakuen-standard" in ids
    assert http.get("/formats/iris-standard").json()["game"] == "iris"
    assert_problem(http.get("/formats/nope"), 404, "unknown-format")
    found = http.get("/cards", params={"game": "chaos", "q": "見本キャラ０", "limit": 3}).json()
    assert len(found) == 3 and all(c["game"] == "chaos" for c in found)
    assert http.get("/cards", params={"os": "ニトロプラス", "limit": 500}).json()
    assert http.get("/cards/rakuen/SAMPLE-R-P01").json()["type"] == "paradox"
    assert_problem(http.get("/cards/poker/1"), 404, "unknown-card")
    assert_problem(http.get("/cards/rakuen/NOPE"), 404, "unknown-card")
    assert_problem(http.get("/cards", params={"type": "wizard"}), 422, "invalid-request")
    assert_problem(http.get("/cards", params={"limit": 0}), 422, "invalid-request")


def test_validate_equals_the_library(http: TestClient, index: Any, registry: Any) -> None:
    from deckcheck import decklist
    from deckcheck.validate import validate

    for name in ("rakuen-standard-illegal.deck", "chaos-standard-legal.deck"):
        response = http.post("/validate", json={"deck": text(name)})
        assert response.status_code == 200  # an illegal deck is still a 200
        deck = decklist.parse(text(name))
        expected = validate(deck, registry.get(deck.format), index).model_dump(mode="json")
        assert response.json() == expected
    as_json = {"format": "iris-standard", "main": [{"count": 4, "card": "SAMPLE-I-U01"}]}
    body = http.post("/validate", json={"deck": as_json}).json()
    assert body["counts"] == {"main": 4} and body["format"] == "iris-standard"
    override = http.post(
        "/validate",
        json={"deck": text("chaos-neo-standard-illegal.deck"), "format": "chaos-standard"},
    ).json()
    assert override["legal"] is True


def test_validate_errors(http: TestClient) -> None:
    assert_problem(http.post("/validate", json={"deck": "4 SAMPLE-C-001"}), 422, "unknown-format")
    assert_problem(
        http.post("/validate", json={"deck": "x", "format": "nope"}), 422, "unknown-format"
    )
    assert_problem(
        http.post("/validate", content=b"{not json", headers={"content-type": "application/json"}),
        400,
        "malformed-json",
    )
    body = assert_problem(http.post("/validate", json={"deck": 5}), 422, "invalid-request")
    assert any(e["path"].startswith("body.deck") for e in body["errors"])
    assert_problem(
        http.post("/validate", json={"deck": "x", "surprise": 1}), 422, "invalid-request"
    )
    many = "format: iris-standard\n" + "".join(f"1 SAMPLE-I-U{i % 8 + 1:02}\n" for i in range(600))
    body = assert_problem(http.post("/validate", json={"deck": many}), 422, "limit-exceeded")
    assert body["limit"] == 500
    huge = b'{"deck": "' + b"x" * (1 << 20) + b'"}'
    assert_problem(
        http.post("/validate", content=huge, headers={"content-type": "application/json"}),
        413,
        "too-large",
    )
    assert_problem(http.get("/nothing-here"), 404, "not-found")
    assert_problem(http.delete("/validate"), 405, "method-not-allowed")


def test_odds_and_hand(http: TestClient) -> None:
    body = {"deck": text("rakuen-standard-legal.deck"), "want": ["type:paradox>=1"], "turns": 2}
    result = http.post("/odds", json=body).json()
    assert result["method"] == "exact" and [r["turn"] for r in result["rows"]] == [0, 1, 2]
    bad = {**body, "want": ["type:wizard>=1"]}
    detail = assert_problem(http.post("/odds", json=bad), 422, "bad-condition")["detail"]
    assert "wizard" in detail
    assert_problem(http.post("/odds", json={**body, "turns": 20}), 422, "unanswerable")
    assert_problem(http.post("/odds", json={**body, "want": []}), 422, "invalid-request")
    hands = http.post(
        "/hand", json={"deck": text("iris-standard-legal.deck"), "count": 2, "seed": 5}
    ).json()
    assert len(hands["hands"]) == 2
    for h in hands["hands"]:  # the face-down main unit, marked in the hand
        (unit,) = h["aside"]
        assert unit["role"] == "main_unit" and unit["in_hand"] and unit["cards"][0] in h["hand"]


class _Flag:
    """A file that worker processes can see: held jobs wait until it exists."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def set(self) -> None:
        self.path.touch()

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


def _held(
    progress: Any, flag: str, work: Callable[..., dict[str, Any]], *args: Any
) -> dict[str, Any]:
    deadline = time.monotonic() + HANG
    while not os.path.exists(flag):
        assert time.monotonic() < deadline, "the test never released the job"
        time.sleep(0.01)
    return work(progress, *args)


@pytest.fixture
def held_jobs(
    service: FastAPI, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[_Flag]:
    """Background jobs wait for the returned flag before playing, so the test decides when
    a job may end (no race with the next request, no sleeping)."""
    jobs: Jobs = service.state.jobs
    release = _Flag(tmp_path / "release")
    start = jobs.start

    def held(
        total: int, work: Callable[..., dict[str, Any]], *args: Any, task: str = "goldfish"
    ) -> dict[str, Any] | None:
        return start(total, _held, str(release.path), work, *args, task=task)

    monkeypatch.setattr(jobs, "start", held)
    yield release
    release.set()  # never leave a worker waiting


def finished(service: FastAPI, job_id: str) -> dict[str, Any]:
    view = service.state.jobs.wait(job_id, timeout=HANG)
    assert view is not None, "the job did not end"
    found: dict[str, Any] = view
    return found


def test_odds_beyond_the_float_range_are_422(http: TestClient) -> None:
    # 1,499,850 cards: by turn 30 the exact count's binomials pass the float range; that was
    # an OverflowError and a 500 (issue 24, item 10)
    lines = "".join(f"9999 SAMPLE-R-00{i % 9 + 1}\n" for i in range(150))
    body = {"deck": "format: rakuen-standard\n" + lines, "want": ["type:paradox>=1"]}
    body_problem = assert_problem(http.post("/odds", json={**body, "turns": 30}), 422, "unanswerable")
    assert "beyond exact counting" in body_problem["detail"]
    answered = http.post("/odds", json={**body, "turns": 10})
    assert answered.status_code == 200 and answered.json()["rows"][-1]["probability"] == 0


def test_goldfish_sync_jobs_and_limits(
    http: TestClient, service: FastAPI, held_jobs: _Flag
) -> None:
    body = {"deck": text("iris-standard-legal.deck"), "games": 200, "turns": 3, "seed": 1}
    result = http.post("/goldfish", json=body)
    assert result.status_code == 200 and result.json()["games"] == 200
    assert_problem(http.post("/goldfish", json={**body, "games": 4001}), 422, "limit-exceeded")
    assert_problem(
        http.post("/goldfish", json={**body, "policy": {"surprise": 1}}), 422, "invalid-request"
    )
    started = http.post("/goldfish", json={**body, "games": 4000})
    assert started.status_code == 202 and started.headers["location"].startswith("/jobs/")
    job = started.json()
    assert http.get(f"/jobs/{job['id']}").json()["status"] in ("queued", "running")
    # one job may run at a time here: a second one is refused while the first runs
    assert_problem(http.post("/goldfish", json={**body, "games": 3000}), 429, "too-many-jobs")
    held_jobs.set()
    finished(service, job["id"])
    state = http.get(f"/jobs/{job['id']}").json()
    assert state["status"] == "done" and "result" not in state
    assert http.get(state["result_url"]).json()["games"] == 4000
    held_jobs.clear()
    cancelled = http.post("/goldfish", json={**body, "games": 4000, "seed": 9})
    assert cancelled.status_code == 202, cancelled.text
    job_id = cancelled.json()["id"]
    assert http.delete(f"/jobs/{job_id}").json()["id"] == job_id
    held_jobs.set()
    finished(service, job_id)
    # cancelled before it played a game: the result, if any, is of the games it finished
    assert http.get(f"/jobs/{job_id}").json()["status"] == "cancelled"
    assert_problem(http.get("/jobs/nope"), 404, "not-found")
    assert_problem(http.delete("/jobs/nope"), 404, "not-found")


def test_saved_decks(http: TestClient) -> None:
    new = {
        "name": "my rakuen",
        "format": "rakuen-standard",
        "deck": text("rakuen-standard-legal.deck"),
    }
    assert_problem(http.post("/decks", json=new), 401, "unauthorized")
    assert_problem(
        http.post("/decks", json=new, headers={"Authorization": "Bearer wrong"}), 403, "forbidden"
    )
    auth = {"Authorization": f"Bearer {KEY}"}
    created = http.post("/decks", json=new, headers=auth)
    assert created.status_code == 201
    deck_id = created.json()["id"]
    got = http.get(f"/decks/{deck_id}", headers=auth).json()
    assert got["name"] == "my rakuen" and got["verdict"]["legal"] is True
    changed = {**new, "deck": text("rakuen-standard-illegal.deck")}
    assert (
        http.put(f"/decks/{deck_id}", json=changed, headers=auth).json()["verdict"]["legal"]
        is False
    )
    listed = http.get("/decks", params={"format": "rakuen-standard"}, headers=auth).json()
    assert deck_id in {d["id"] for d in listed}
    others = http.get("/decks", params={"format": "iris-standard"}, headers=auth).json()
    assert all(d["format"] == "iris-standard" for d in others)
    exported = http.get(f"/decks/{deck_id}/export", params={"as": "text"}, headers=auth)
    assert exported.headers["content-type"].startswith("text/plain")
    assert "format: rakuen-standard" in exported.text and "[gate]" in exported.text
    as_json = http.get(f"/decks/{deck_id}/export", params={"as": "json"}, headers=auth).json()
    assert as_json["format"] == "rakuen-standard" and as_json["gate"]
    assert_problem(http.put("/decks/nope", json=new, headers=auth), 404, "not-found")
    assert_problem(
        http.post("/decks", json={**new, "format": "nope"}, headers=auth), 422, "unknown-format"
    )
    assert http.delete(f"/decks/{deck_id}", headers=auth).status_code == 204
    assert_problem(http.get(f"/decks/{deck_id}", headers=auth), 404, "not-found")
    assert_problem(http.delete(f"/decks/{deck_id}", headers=auth), 404, "not-found")


# --- the CLI as a client ----------------------------------------------------------------------


@pytest.fixture
def remote(http: TestClient, monkeypatch: pytest.MonkeyPatch) -> str:
    """The CLI's client is this module's (these twelve tests with pytest's start took
    8.6-10.1 CPU-s with a TestClient per command, 6.6-8.1 so: issue 35)."""
    return cli_through(http, monkeypatch)


@pytest.mark.parametrize(
    "args",
    [
        ["validate", str(EXAMPLES / "rakuen-standard-illegal.deck"), "--json"],
        ["validate", str(EXAMPLES), "--json"],
        ["validate", str(EXAMPLES / "chaos-standard-illegal.deck")],
        ["validate", str(EXAMPLES / "iris-standard-illegal.deck"), "--output", "github"],
        ["odds", str(EXAMPLES / "rakuen-standard-legal.deck"), "-w", "type:paradox>=1", "--json"],
        [
            "odds",
            str(EXAMPLES / "chaos-standard-legal.deck"),
            "-w",
            "type:set>=1",
            "--simulate",
            "2000",
            "--seed",
            "4",
            "--json",
        ],
        [
            "hand",
            str(EXAMPLES / "chaos-standard-legal.deck"),
            "--seed",
            "3",
            "--count",
            "2",
            "--json",
        ],
        [
            "goldfish",
            str(EXAMPLES / "vision-standard-legal.deck"),
            "--games",
            "100",
            "--turns",
            "3",
            "--json",
        ],
        ["odds", str(EXAMPLES / "rakuen-standard-legal.deck"), "-w", "type:wizard>=1"],
        # the format version in force on a day (issue 19)
        ["validate", str(EXAMPLES / "rakuen-standard-legal.deck"), "--as-of", "2016-06-01"],
        [
            "goldfish",
            str(EXAMPLES / "rakuen-standard-legal.deck"),
            "--games",
            "100",
            "--turns",
            "3",
            "--as-of",
            "2016-06-01",
            "--json",
        ],
        ["hand", str(EXAMPLES / "rakuen-standard-legal.deck"), "--seed", "3", "--as-of", "2016-06-01",
         "--json"],
        ["odds", str(EXAMPLES / "rakuen-standard-legal.deck"), "-w", "type:member>=1", "--as-of",
         "2015-01-01"],
    ],
)
def test_cli_local_and_server_agree(remote: str, service: FastAPI, args: list[str]) -> None:
    runner = CliRunner()
    db = ["--db", str(service.state.settings.db)]
    local = runner.invoke(cli_app, [*args, *db])
    served = runner.invoke(cli_app, ["--server", remote, *args])
    assert served.exit_code == local.exit_code, served.output
    if args[-1] == "--json":
        assert json.loads(served.stdout) == json.loads(local.stdout)
    elif local.exit_code != 2:
        assert served.stdout == local.stdout
    else:
        why = "wizard" if "--as-of" not in args else "no version is in force on 2015-01-01"
        assert why in served.stderr and why in local.stderr


def test_cli_server_unreachable() -> None:
    runner = CliRunner()
    result = runner.invoke(
        cli_app,
        ["--server", "http://127.0.0.1:9", "validate", str(EXAMPLES / "iris-standard-legal.deck")],
    )
    assert result.exit_code == 2 and "cannot reach" in result.stderr


def test_openapi_lists_every_endpoint(http: TestClient) -> None:
    paths = http.get("/openapi.json").json()["paths"]
    for path in (
        "/health",
        "/formats",
        "/formats/{format_id}",
        "/cards",
        "/cards/{game}/{number}",
        "/validate",
        "/odds",
        "/hand",
        "/goldfish",
        "/jobs/{job_id}",
        "/decks",
        "/decks/{deck_id}",
        "/decks/{deck_id}/export",
    ):
        assert path in paths
    assert http.get("/docs").status_code == 200


def test_api_keys_are_not_in_logs(http: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    http.post(
        "/decks",
        json={"name": "x", "format": "iris-standard", "deck": "1 SAMPLE-I-U01"},
        headers={"Authorization": f"Bearer {KEY}"},
    )
    assert KEY not in caplog.text


def test_database_trouble_is_503_not_500(
    http: TestClient, service: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import OperationalError

    def broken(deck_id: str) -> None:
        raise OperationalError("SELECT", {}, Exception("database is locked"))

    monkeypatch.setattr(service.state.store, "get", broken)
    answer = http.get("/decks/any")
    body = assert_problem(answer, 503, "pool-unavailable")
    assert "database is locked" in body["detail"]
    assert answer.headers["retry-after"] == "1"  # locked: free again in a moment


def test_a_condition_may_name_any_card_of_the_pool(service: FastAPI, http: TestClient) -> None:
    """A question about a card the deck does not hold (yet) is answered, as ``deckcheck odds``
    answers it: the worker got only the deck's cards, so ``/odds`` and ``/hand`` refused
    霧雨 魔理沙, N30 and the keyword 即死 as cards "no vision card has"; a misspelt one is
    still refused, with the whole pool's suggestion. The other endpoints that ask conditions
    (``/sweeps``, ``/tunes``) check them against the whole pool before their job starts."""
    deck = text("vision-standard-legal.deck")
    assert "霧雨 魔理沙" not in deck and "N30" not in deck
    for want in ("name:霧雨 魔理沙>=1", "number:N30>=1", "N30>=1", "keyword:即死>=1"):
        answer = http.post("/odds", json={"deck": deck, "want": [want], "turns": 2})
        assert answer.status_code == 200, (want, answer.text)
        assert [r["probability"] for r in answer.json()["rows"]] == [0.0, 0.0, 0.0]
        dealt = http.post("/hand", json={"deck": deck, "want": [want], "count": 1, "seed": 1})
        assert dealt.status_code == 200, (want, dealt.text)
    table = http.post(
        "/odds", json={"deck": deck, "want": ["name:大妖精>=1"], "turns": 1, "table": "number:N30"}
    )
    assert table.status_code == 200 and [r["copies"] for r in table.json()["table"]] == [1, 2, 3, 4]
    bare = http.post(
        "/odds", json={"deck": deck, "want": ["name:大妖精>=1"], "turns": 1, "table": "N30"}
    )  # a bare card reference, as the command reads one
    assert bare.status_code == 200 and bare.json()["table"] == table.json()["table"]
    for path, body in [
        ("/odds", {"want": ["name:霧雨 魔理紗>=1"], "turns": 2}),
        ("/hand", {"want": ["name:霧雨 魔理紗>=1"], "count": 1}),
        ("/sweeps", {"want": ["name:霧雨 魔理紗>=1"], "games": 100, "turns": 2}),
        ("/tunes", {"want": ["name:霧雨 魔理紗>=1"], "turn": 2, "candidates": ["N30"]}),
    ]:
        refused = assert_problem(http.post(path, json={"deck": deck, **body}), 422, "bad-condition")
        assert "did you mean '霧雨 魔理沙'" in refused["detail"], path
    started = http.post(
        "/sweeps", json={"deck": deck, "want": ["keyword:即死>=1"], "games": 100, "turns": 2}
    )
    assert started.status_code == 202, started.text
    assert finished(service, started.json()["id"])["status"] == "done"


def test_a_policy_naming_no_card_of_the_pool_is_a_422(http: TestClient) -> None:
    """``/goldfish`` and ``/goldfish/replay`` check a policy's selectors against the whole pool: a
    misspelt card in ``keep`` is a 422 naming the key, with the suggestion (it matched
    nothing, silently); a card the deck does not hold (N30) is fine."""
    body = {"deck": text("vision-standard-legal.deck"), "games": 50, "turns": 3}
    refused = assert_problem(
        http.post("/goldfish", json={**body, "policy": {"keep": ["name:霧雨 魔理紗>=1"]}}),
        422,
        "invalid-request",
    )
    assert "keep: 'name:霧雨 魔理紗'" in refused["detail"]
    assert "did you mean '霧雨 魔理沙'" in refused["detail"]
    replay = {"deck": body["deck"], "game": 1, "policy": {"play_first": ["name:霧雨 魔理紗"]}}
    assert_problem(http.post("/goldfish/replay", json=replay), 422, "invalid-request")
    played = http.post("/goldfish", json={**body, "policy": {"play_first": ["N30"]}})
    assert played.status_code == 200 and played.json()["games"] == 50, played.text
