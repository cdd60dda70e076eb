"""The service in Japanese (issue 21): ``Accept-Language`` (or ``?lang=``, which wins) picks the
language of every text the service writes, in the request's thread, in worker processes and in
background jobs; ids, problem types and JSON keys never change with it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient

from deckcheck.i18n import _, current, override
from deckcheck.service.app import create_app
from deckcheck.service.jobs import Jobs
from deckcheck.service.problems import TITLES
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES, HANG
from tests.prose import english_words

JA = {"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}
EN = {"Accept-Language": "en-US,en;q=0.9"}


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    db = tmp_path_factory.mktemp("i18n-svc") / "pool.sqlite3"
    return create_app(Settings(db=db, sync_games=100, job_games=50_000, max_jobs=2, workers=1))


@pytest.fixture(scope="module")
def http(service: FastAPI) -> Iterator[TestClient]:
    with TestClient(service, raise_server_exceptions=False) as client:
        yield client


def _deck(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def _illegal_vision() -> str:
    # the legal example with one card more in the main deck: vision/main-size (and copies)
    lines = _deck("vision-standard-legal.deck").splitlines()
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    count, ref = lines[first].split(" ", 1)
    lines[first] = f"{int(count) + 2} {ref}"
    return "\n".join(lines) + "\n"


def test_validate_gives_the_same_verdict_and_rule_ids_in_either_language(http: TestClient) -> None:
    deck = {"deck": _illegal_vision()}
    en = http.post("/validate", json=deck, headers=EN)
    ja = http.post("/validate", json=deck, headers=JA)
    assert en.status_code == ja.status_code == 200, ja.text
    rules = [(v["rule"], v["severity"]) for v in en.json()["violations"]]
    assert rules and rules == [(v["rule"], v["severity"]) for v in ja.json()["violations"]]
    assert en.json()["legal"] is ja.json()["legal"] is False
    assert set(en.json()) == set(ja.json())  # the keys never change
    assert ja.headers["content-language"] == "ja" and en.headers["content-language"] == "en"
    assert "accept-language" in ja.headers["vary"].lower()


def test_a_problem_is_written_in_the_requests_language(http: TestClient) -> None:
    body = {"deck": "1 X\n", "format": "no-such-format"}
    ja = http.post("/validate", json=body, headers=JA)
    en = http.post("/validate", json=body, headers=EN)
    assert ja.status_code == en.status_code == 422
    assert ja.json()["type"] == en.json()["type"] == "https://deckcheck.dev/problems/unknown-format"
    assert en.json()["title"] == "Unknown format"
    assert ja.json()["title"] == "不明なフォーマット"
    assert ja.headers["content-language"] == "ja"
    assert "accept-language" in ja.headers["vary"].lower()


def test_query_lang_overrides_accept_language(http: TestClient) -> None:
    en = http.get("/formats/nope?lang=en", headers=JA)
    ja = http.get("/formats/nope?lang=ja", headers=EN)
    assert en.json()["title"] == "Unknown format" and en.headers["content-language"] == "en"
    assert en.json()["detail"] == "unknown format 'nope'"
    assert ja.json()["title"] == "不明なフォーマット" and ja.headers["content-language"] == "ja"
    # a language deckcheck lacks counts for nothing: the header's next choice, else English
    assert http.get("/formats/nope?lang=fr", headers=JA).json()["title"] == "不明なフォーマット"
    assert http.get("/formats/nope", headers={"Accept-Language": "fr"}).json()["title"] == (
        "Unknown format"
    )


def test_sync_endpoints_write_in_the_language_in_their_thread(http: TestClient) -> None:
    """``/formats/{id}`` and ``/cards/{game}/{number}`` are plain ``def`` endpoints: starlette
    runs them in its thread pool, with a copy of the request's context (the language)."""
    answer = http.get("/cards/vision/NO-SUCH-1", headers=JA)
    assert answer.status_code == 404
    detail = answer.json()["detail"]
    assert detail == "vision のカード 'NO-SUCH-1' はありません。"
    assert english_words(detail, allowed=["vision", "NO-SUCH-1"]) == []
    assert http.get("/cards/vision/NO-SUCH-1", headers=EN).json()["detail"] == (
        "no vision card 'NO-SUCH-1'"
    )


def test_every_problem_title_has_japanese(http: TestClient) -> None:
    with override("ja"):
        untranslated = [k for k, title in TITLES.items() if _(title) == title]
    assert untranslated == []


def test_pydantic_errors_are_japanese_and_keep_their_paths(http: TestClient) -> None:
    body = {"deck": "1 X\n", "count": 0}
    ja = http.post("/hand", json=body, headers=JA).json()
    en = http.post("/hand", json=body, headers=EN).json()
    assert [e["path"] for e in ja["errors"]] == [e["path"] for e in en["errors"]] == ["body.count"]
    assert en["errors"][0]["message"] == "Input should be greater than or equal to 1"
    assert ja["errors"][0]["message"] == "1以上で書いてください。"
    assert ja["title"] == "リクエストがスキーマに合っていません"


def test_middleware_problems_are_translated_too(http: TestClient) -> None:
    """The body limit answers before any route: its problem is in the language as well."""
    big = "x" * (1 << 21)
    answer = http.post("/validate", content=big, headers={**JA, "Content-Type": "text/plain"})
    assert answer.status_code == 413
    assert answer.json()["title"] == "リクエストの本文が大きすぎます"
    assert "バイトを超えています" in answer.json()["detail"]


def test_format_words_follow_the_language(http: TestClient) -> None:
    """The section labels the builder shows come from ``/formats/{id}``: the catalogue's
    words of the format (each game's), the ids unchanged."""
    ja = http.get("/formats/vision-standard", headers=JA).json()
    en = http.get("/formats/vision-standard", headers=EN).json()
    assert [s["name"] for s in ja["sections"]] == [s["name"] for s in en["sections"]]
    assert en["sections"][0]["label"] == "deck"
    assert ja["sections"][0]["label"] == "デッキ"  # VISION's word (the glossary's) for its deck


def test_openapi_descriptions_are_in_the_language(http: TestClient) -> None:
    en = http.get("/openapi.json", headers=EN).json()
    ja = http.get("/openapi.json", headers=JA).json()
    assert en["paths"].keys() == ja["paths"].keys()
    assert en["info"]["description"].startswith("Deck legality")
    assert "一人回し" in ja["info"]["description"]


# --- jobs -----------------------------------------------------------------------------------


def said_in(progress: Any) -> dict[str, Any]:
    """A job's work that reports the language it ran in (in a worker process)."""
    return {"language": current(), "required": _("required")}


def _ended(jobs: Jobs, job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        job = jobs.get(job_id)
        if job is not None and job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not end")


def test_a_job_runs_in_the_language_of_the_request_that_started_it(service: FastAPI) -> None:
    """The worker process has a context of its own: the language goes along with the job."""
    jobs: Jobs = service.state.jobs
    with override("ja"):
        started = jobs.start(1, said_in)
    assert started is not None and started["language"] == "ja"
    job = _ended(jobs, started["id"])
    assert job["status"] == "done", job
    assert json.loads(jobs.result(started["id"]) or "") == {"language": "ja", "required": "必須です"}
    with override("en"):  # read later in English: the same text, still saying it is Japanese
        assert jobs.get(started["id"]) == job


def test_a_sweep_started_in_japanese_keeps_its_language(http: TestClient) -> None:
    rakuen = _deck("rakuen-standard-legal.deck")
    body = {"decks": [{"deck": rakuen}, {"deck": rakuen}], "games": 100, "turns": 3}
    started = http.post("/sweeps", json=body, headers=JA)
    assert started.status_code == 202, started.text
    location = started.headers["location"]
    deadline = time.monotonic() + HANG
    while True:
        state = http.get(location, headers=EN)
        if state.json()["status"] not in ("queued", "running") or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    job = state.json()
    assert job["status"] == "done", job
    # fetched in English, the job says (body and header) that its text is Japanese
    assert job["language"] == "ja" and state.headers["content-language"] == "ja"
    result = http.get(job["result_url"], headers=EN)
    assert result.headers["content-language"] == "ja"
    labels = [v["label"] for v in result.json()["variants"]]
    assert labels[0].startswith("デッキ1") and labels[1].startswith("デッキ2"), labels
    english = http.post("/sweeps", json=body, headers=EN)
    assert english.json()["language"] == "en"


def test_saved_deck_verdicts_are_kept_per_language(tmp_path: Any) -> None:
    """The verdict cache of ``/decks/{id}`` holds messages: a Japanese read must not get the
    English verdict an earlier read cached (or the other way round)."""
    from deckcheck.service.routers import decks

    app = create_app(Settings(db=tmp_path / "p.sqlite3", api_keys=("k",)))
    with TestClient(app) as client:
        made = client.post(
            "/decks",
            json={"name": "x", "format": "vision-standard", "deck": _illegal_vision()},
            headers={"Authorization": "Bearer k"},
        ).json()
        mine = {"Authorization": "Bearer k"}
        assert client.get(f"/decks/{made['id']}", headers=EN | mine).status_code == 200
        assert client.get(f"/decks/{made['id']}", headers=JA | mine).status_code == 200
    languages = {key[-1] for key in decks._verdicts if key[0] == made["id"]}
    assert languages == {"en", "ja"}
