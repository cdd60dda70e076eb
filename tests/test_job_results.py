"""A job's result at its own URL (issue 24, item 13): status polling never carries it (four
clients polling a 757 KB result pushed /validate p99 from 26 to 186 ms); the result is stored
once and served as stored, with an ETag (304 on If-None-Match) and Cache-Control. The CLI's
``--server`` client reads it there."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from deckcheck.cli import app as cli_app
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.cli_run import CliRunner
from tests.conftest import EXAMPLES, HANG, cli_through

IRIS = (EXAMPLES / "iris-standard-legal.deck").read_text(encoding="utf-8")
BODY = {"deck": IRIS, "games": 300, "turns": 3, "seed": 5}


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    db = tmp_path_factory.mktemp("results") / "pool.sqlite3"
    return create_app(Settings(db=db, sync_games=50, workers=1, job_ttl=600))


@pytest.fixture(scope="module")
def http(service: FastAPI) -> Iterator[TestClient]:
    with TestClient(service, raise_server_exceptions=False) as client:
        yield client


def _ended(http: TestClient, location: str) -> dict[str, Any]:
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        state: dict[str, Any] = http.get(location).json()
        if state["status"] not in ("queued", "running"):
            return state
        time.sleep(0.05)
    raise AssertionError(f"{location} did not end")


def test_status_links_the_result_and_never_carries_it(http: TestClient) -> None:
    started = http.post("/goldfish", json=BODY)
    assert started.status_code == 202, started.text
    assert started.json()["result_url"] is None and "result" not in started.json()
    location = started.headers["location"]
    state = _ended(http, location)
    assert state["status"] == "done", state
    assert "result" not in state and state["result_url"] == f"{location}/result"
    polled = http.get(location)
    assert polled.headers["cache-control"] == "no-cache"
    assert len(polled.content) < 400  # the status only, whatever the result's size
    result = http.get(state["result_url"])
    assert result.status_code == 200, result.text
    assert result.headers["content-type"] == "application/json"
    assert result.json()["games"] == 300 and result.json()["turns"] == 3


def test_the_result_has_an_etag_and_cache_control(http: TestClient) -> None:
    state = _ended(http, http.post("/goldfish", json=BODY).headers["location"])
    first = http.get(state["result_url"])
    tag = first.headers["etag"]
    assert tag.startswith('"') and tag.endswith('"')
    assert first.headers["cache-control"] == "private, max-age=600, immutable"
    assert first.headers["content-language"] == "en"
    again = http.get(state["result_url"])
    assert again.headers["etag"] == tag and again.content == first.content  # stored once
    for given in (tag, f"W/{tag}", f'"other", {tag}', "*"):
        unchanged = http.get(state["result_url"], headers={"If-None-Match": given})
        assert unchanged.status_code == 304, given
        assert unchanged.content == b"" and unchanged.headers["etag"] == tag
    other = http.get(state["result_url"], headers={"If-None-Match": '"other"'})
    assert other.status_code == 200 and other.content == first.content


def test_no_result_before_the_job_is_done(http: TestClient, service: FastAPI) -> None:
    big = http.post("/goldfish", json={**BODY, "games": 1_000_000, "turns": 10})
    assert big.status_code == 202, big.text
    location = big.headers["location"]
    early = http.get(f"{location}/result")
    assert early.status_code == 409, early.text
    assert early.json()["type"].endswith("/not-ready")
    http.delete(location)
    assert _ended(http, location)["status"] == "cancelled"
    assert http.get(f"{location}/result").status_code == 409
    missing = http.get("/jobs/nope/result")
    assert missing.status_code == 404 and missing.json()["type"].endswith("/not-found")


def test_the_cli_client_reads_a_jobs_result(
    http: TestClient, service: FastAPI, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    server = cli_through(http, monkeypatch)
    deck = str(EXAMPLES / "iris-standard-legal.deck")
    args = ["goldfish", deck, "--games", "300", "--turns", "3", "--seed", "5", "--json"]
    served = CliRunner().invoke(cli_app, ["--server", server, *args])
    assert served.exit_code == 0, served.output
    local = CliRunner().invoke(cli_app, [*args, "--db", str(service.state.settings.db)])
    assert local.exit_code == 0, local.output
    assert json.loads(served.stdout) == json.loads(local.stdout)  # 300 > 50: it was a job
