"""``POST /tunes``: deckcheck tune as a service job (progress, cancel, result URL), with the
command line's answer, and the 422s it gives before any game."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from deckcheck.cli import app
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.cli_run import CliRunner
from tests.conftest import HANG
from tests.test_tune import CHARACTERS, OTHERS

DECK = "\n".join(
    ["format: vision-standard", "[main]"]
    + [f"2 {ref}" for ref in CHARACTERS]
    + [f"3 {ref}" for ref in OTHERS]
)
EXACT = {"deck": DECK, "want": ["type:キャラクター>=1"], "turn": 0, "max_changes": 4, "games": 200}


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("tune-svc") / "pool.sqlite3"
    service = create_app(Settings(db=db, sync_games=100, job_games=200_000, max_jobs=2, workers=1))
    with TestClient(service, raise_server_exceptions=False) as client:
        yield client


def _done(http: TestClient, location: str) -> dict[str, Any]:
    deadline = time.monotonic() + HANG
    while True:
        state: dict[str, Any] = http.get(location).json()
        if state["status"] not in ("queued", "running") or time.monotonic() > deadline:
            return state
        time.sleep(0.1)


def test_a_tune_job_gives_the_command_lines_answer(http: TestClient, tmp_path: Path) -> None:
    started = http.post("/tunes", json=EXACT)
    assert started.status_code == 202, started.text
    state = _done(http, started.headers["location"])
    assert state["status"] == "done", state
    result = http.get(state["result_url"]).json()
    # progress: the deck and each variant shown, 200 goldfish games each (what else moved)
    assert state["games"] == state["games_done"] == 200 * (1 + len(result["variants"]))
    path = tmp_path / "v.deck"
    path.write_text(DECK + "\n", encoding="utf-8")
    args = ["tune", str(path), "--want", "type:キャラクター>=1", "--turn", "0"]
    args += ["--max-changes", "4", "--games", "200", "--json", "--db", str(tmp_path / "p.sqlite3")]
    cli = CliRunner().invoke(app, args)
    assert cli.exit_code == 0, cli.output
    local = json.loads(cli.stdout)
    assert result["variants"] == local["variants"] and result["base"] == local["base"]
    added = {c["number"] for c in result["variants"][0]["changes"] if c["delta"] > 0}
    assert added == set(CHARACTERS)


def test_bad_tunes_are_422_before_any_game(http: TestClient) -> None:
    def problem(body: dict[str, Any]) -> str:
        answer = http.post("/tunes", json=body)
        assert answer.status_code == 422, answer.text
        slug: str = answer.json()["type"].rsplit("/", 1)[1]
        return slug

    assert problem({**EXACT, "turn": None}) == "invalid-request"  # --want needs --turn
    assert problem({**EXACT, "candidates": ["NO-SUCH-CARD"]}) == "invalid-request"
    assert problem({**EXACT, "keep": ["NO-SUCH-CARD"]}) == "invalid-request"
    assert problem({**EXACT, "games": 100_000}) == "limit-exceeded"  # 6 × 100,000 > 200,000
    assert problem({**EXACT, "surprise": 1}) == "invalid-request"


def test_a_tune_job_can_be_cancelled(http: TestClient) -> None:
    body = {"deck": DECK, "milestone": ["first_character"], "by": 2, "max_changes": 2}
    body |= {"games": 40_000, "max_variants": 40}
    started = http.post("/tunes", json=body)
    assert started.status_code == 202, started.text
    assert http.delete(started.headers["location"]).status_code == 200
    state = _done(http, started.headers["location"])
    assert state["status"] == "cancelled" and state["result_url"] is None
