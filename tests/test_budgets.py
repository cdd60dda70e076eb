"""Work budgets of deck checks (issue 24, items 1, 4, 5 and 16): near-miss names get
suggestions from an index, for the deck's first names only and within a work limit; checks run
off the event loop; memos are bounded in bytes; ``/hand`` deals in the worker processes. Work is
counted (names compared), never timed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from deckcheck import resolve, suggest
from deckcheck.api import validate_decks
from deckcheck.decklist import parse
from deckcheck.decklist.parts import MAX_REF
from deckcheck.formats.registry import default_registry
from deckcheck.models import Card
from deckcheck.pool.store import Pool
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import HANG

CARDS = 20_000
LINES = 499


def _name(i: int) -> str:
    return f"大量試験キャラクター{i:05d} 見本"


def _near_miss_deck(lines: int = LINES) -> str:
    # one character changed in each name: close enough that every line looks for suggestions
    body = [f"1 {_name(i * 37).replace('見本', '見木')}" for i in range(lines)]
    return "format: chaos-standard\n" + "\n".join(body) + "\n"


@pytest.fixture(scope="module")
def big_pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("budgets") / "big.sqlite3"
    cards = (
        Card(game="chaos", number=f"BULK-{i:05d}", name=_name(i), type="chara")
        for i in range(CARDS)
    )
    with Pool(db) as pool, pool._transaction():
        pool._write(cards)
    return db


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of names each rapidfuzz call scored."""
    calls: list[int] = []
    real = suggest.process.extract

    def counting(query: str, choices: list[str], **kwargs: Any) -> Any:
        calls.append(len(choices))
        return real(query, choices, **kwargs)

    monkeypatch.setattr(suggest.process, "extract", counting)
    return calls


@pytest.fixture(scope="module")
def http(big_pool: Path) -> Iterator[TestClient]:
    # long decks' checks in a thread of this process (not the check process): the tests count
    # rapidfuzz's calls and hold the suggestion step here (tests/test_check_lane.py: the process)
    with TestClient(create_app(Settings(db=big_pool, check_processes=0))) as client:
        yield client


def _unknown(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [v for v in report["violations"] if v["rule"] == "deck/unknown-card"]


def test_near_miss_deck_gets_capped_suggestions_within_the_budget(
    http: TestClient, compared: list[int]
) -> None:
    response = http.post("/validate", json={"deck": _near_miss_deck()})
    assert response.status_code == 200
    unknown = _unknown(response.json())
    assert len(unknown) == LINES  # every line is still reported
    suggested = [v for v in unknown if "did you mean" in v["fix"]]
    assert len(suggested) == suggest.NAMES
    assert _name(37).replace("見木", "見本") in suggested[1]["fix"]  # the right name, first
    assert "first 20 unknown names only" in unknown[-1]["fix"]
    # each suggestion scored a few hundred candidates, not the pool
    assert len(compared) <= suggest.NAMES
    assert all(n <= suggest.CANDIDATES for n in compared)
    assert sum(compared) <= suggest.WORK_LIMIT


def test_suggestions_past_the_budget_are_422_before_any_work(
    http: TestClient, compared: list[int]
) -> None:
    response = http.post("/validate", json={"deck": _near_miss_deck(), "suggest": LINES})
    assert response.status_code == 422
    problem = response.json()
    assert problem["type"].endswith("limit-exceeded")
    assert problem["limit"] == suggest.WORK_LIMIT
    assert problem["errors"][0]["path"] == "body.suggest"
    assert compared == []  # refused before any name was scored
    # in Japanese too
    ja = http.post(
        "/validate",
        json={"deck": _near_miss_deck(), "suggest": LINES},
        headers={"Accept-Language": "ja"},
    )
    assert "上限" in ja.json()["detail"]


def test_cli_typo_path_uses_the_index(big_pool: Path, compared: list[int]) -> None:
    """What ``deckcheck validate`` does (cli/backend.py): an index of the deck's cards from
    the pool, then ``validate_decks``."""
    deck = parse("format: chaos-standard\n1 " + _name(5).replace("見本", "見木") + "\n", "x")
    with Pool(big_pool) as pool:
        index = pool.index_for(e.ref for e in deck.entries)
        [report] = validate_decks([deck], default_registry(), index)
    [miss] = [v for v in report.violations if v.rule == "deck/unknown-card"]
    assert _name(5) in miss.fix
    assert compared and all(n <= suggest.CANDIDATES for n in compared)


def test_cli_suggestions_past_the_budget_name_the_limit(big_pool: Path) -> None:
    deck = parse(_near_miss_deck(), "near.deck")
    with Pool(big_pool) as pool:
        index = pool.index_for(e.ref for e in deck.entries)
        with pytest.raises(suggest.SuggestLimit, match="100,000"):
            validate_decks([deck], default_registry(), index, suggest_names=LINES)


def test_health_answers_while_near_miss_validations_run(
    http: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four near-miss checks held inside the suggestion step: /health still answers. On the
    event loop, the first held check blocked every other request."""
    entered = threading.Semaphore(0)
    release = threading.Event()
    real = suggest.NameIndex.close

    def held(self: suggest.NameIndex, key: str) -> list[str]:
        entered.release()
        release.wait(60)  # a safety net only: the test sets it
        return real(self, key)

    monkeypatch.setattr(suggest.NameIndex, "close", held)
    # decks no earlier test checked, so their suggestions are not memoised
    decks = [
        "format: chaos-standard\n" + f"1 {_name(7 + i).replace('見本', '見未')}\n" for i in range(4)
    ]
    answers: list[int] = []
    posters = [
        threading.Thread(
            target=lambda d=d: answers.append(http.post("/validate", json={"deck": d}).status_code)
        )
        for d in decks
    ]
    for t in posters:
        t.start()
    try:
        for _ in range(2):  # the pool's two threads are inside the suggestion step
            assert entered.acquire(timeout=HANG)
        health = http.get("/health")
        assert health.status_code == 200
        assert not release.is_set()
    finally:
        release.set()
        for t in posters:
            t.join()
    assert answers == [200] * 4


def test_memos_stay_under_their_byte_bounds(
    big_pool: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an entry is about 600 bytes: 60 references fill the memos 6 and 12 times over (300
    # references filled memos of 40,000 and 20,000 bytes 4 and 9 times until issue 35)
    monkeypatch.setattr(resolve, "MEMO_BYTES", 6_000)
    monkeypatch.setattr(resolve, "SUGGEST_BYTES", 3_000)
    with TestClient(create_app(Settings(db=big_pool))) as http:
        index = http.app.state.cards.cache.index()  # type: ignore[attr-defined]
        for i in range(60):  # unique references just under the length limit
            ref = f"{i:05d}" + "長" * (MAX_REF - 5)
            deck = f"format: chaos-standard\n1 {ref}\n"
            assert http.post("/validate", json={"deck": deck}).status_code == 200
            assert index._memo.nbytes <= 6_000
            assert index._suggested.nbytes <= 3_000
        assert 0 < len(index._memo) < 20 and 0 < len(index._suggested) < 10


def test_an_over_long_reference_is_a_deck_error_and_no_memo_key(http: TestClient) -> None:
    index = http.app.state.cards.cache.index()  # type: ignore[attr-defined]
    before = len(index._memo)
    ref = "x" * 300_000
    response = http.post("/validate", json={"deck": f"format: chaos-standard\n1 {ref}\n"})
    assert response.status_code == 200
    [syntax] = [v for v in response.json()["violations"] if v["rule"] == "deck/syntax"]
    assert "300,000 characters" in syntax["message"]
    assert len(response.content) < 10_000  # the reference is not echoed whole
    assert len(index._memo) == before
    ja = http.post(
        "/validate",
        json={"deck": f"format: chaos-standard\n1 {ref}\n"},
        headers={"Accept-Language": "ja"},
    )
    [ja_syntax] = [v for v in ja.json()["violations"] if v["rule"] == "deck/syntax"]
    assert "300,000 文字" in ja_syntax["message"]


def test_hand_deals_in_the_worker_processes(http: TestClient) -> None:
    workers = http.app.state.workers  # type: ignore[attr-defined]
    deck = "format: chaos-standard\n" + "".join(f"4 BULK-{i:05d}\n" for i in range(13))
    response = http.post(
        "/hand", json={"deck": deck, "count": 2, "seed": 1, "aside": "BULK-00000"}
    )
    assert response.status_code == 200, response.text
    assert len(response.json()["hands"]) == 2
    assert workers.pool is not None  # the deal went to a worker process


def test_hand_past_its_budget_is_422_before_dealing(http: TestClient) -> None:
    deck = "format: chaos-standard\n" + "".join(f"9999 BULK-{i:05d}\n" for i in range(200))
    response = http.post("/hand", json={"deck": deck, "count": 1})
    assert response.status_code == 422
    assert response.json()["type"].endswith("limit-exceeded")
    assert response.json()["errors"][0]["path"] == "body.count"


def test_a_saved_near_miss_deck_gets_suggestions_for_its_first_names_only(
    big_pool: Path, compared: list[int]
) -> None:
    """A saved deck's verdict (``GET /decks/{id}`` needs no key) is capped as ``/validate``'s
    is: it used to suggest for all 499 names."""
    with TestClient(create_app(Settings(db=big_pool, api_keys=("k",)))) as http:
        saved = http.post(
            "/decks",
            json={"name": "near", "format": "chaos-standard", "deck": _near_miss_deck()},
            headers={"Authorization": "Bearer k"},
        )
        assert saved.status_code == 201, saved.text
        unknown = _unknown(saved.json()["verdict"])
    assert len(unknown) == LINES
    assert len([v for v in unknown if "did you mean" in v["fix"]]) == suggest.NAMES
    assert len(compared) <= suggest.NAMES
