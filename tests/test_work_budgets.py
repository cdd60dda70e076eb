"""Budgets from everything a request asks (issue 37, item 1): a goldfish policy's keep
conditions and selectors, ``/hand``'s hands × conditions × cards and its deadline. Work is
counted, never timed; a thread joined with ``HANG`` guards only against a hang."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck import decklist
from deckcheck.formats.registry import FormatRegistry
from deckcheck.goldfish.common import Keep, fills_every_slot
from deckcheck.goldfish.cost import run_work
from deckcheck.goldfish.policy import default_policy, policy_from_keys
from deckcheck.odds import exact
from deckcheck.odds.conditions import parse_condition
from deckcheck.odds.hands import HandsRequest, deal_hands
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES, HANG

CHAOS = (EXAMPLES / "chaos-standard-legal.deck").read_text(encoding="utf-8")
# the issue's /hand: nine name:X>=4 conditions on a legal deck of 50 main-deck cards
NINE = [f"name:見本キャラ 0{i}>=4" for i in range(1, 10)]
HUNDRED_KEEPS = ["type:chara>=1"] * 100


def _halls(cards: list[int], demands: list[int]) -> bool:
    """Hall's condition as the keep rule states it, set by set (exponential: small cases)."""
    demanding = [i for i, d in enumerate(demands) if d]
    for r in range(1, len(demanding) + 1):
        for subset in itertools.combinations(demanding, r):
            mask = sum(1 << i for i in subset)
            if sum(1 for c in cards if c & mask) < sum(demands[i] for i in subset):
                return False
    return True


@settings(max_examples=300, deadline=None)
@given(
    demands=st.lists(st.integers(0, 3), min_size=1, max_size=6),
    cards=st.lists(st.integers(0, 63), max_size=9),
)
def test_filling_slots_is_halls_condition(demands: list[int], cards: list[int]) -> None:
    cards = [c & ((1 << len(demands)) - 1) for c in cards]
    assert fills_every_slot(cards, demands) == _halls(cards, demands)


def _within_hang(work: Any) -> Any:
    """``work()``'s value; fails (instead of hanging the suite) if it has not ended by HANG."""
    box: list[Any] = []
    thread = threading.Thread(target=lambda: box.append(work()), daemon=True)
    thread.start()
    thread.join(timeout=HANG)
    assert box, "still working after HANG seconds"
    return box[0]


def test_a_hundred_keep_conditions_are_one_matching(shipped_pool: Pool) -> None:
    """Before: every one of the 2^100 sets of conditions was summed (40 conditions took 9 s
    a hand; 100 never ended)."""
    charas = [c for c in shipped_pool.all_cards() if c.game == "chaos" and c.type == "chara"][:7]
    assert len(charas) == 7
    keep = Keep([parse_condition(t, "chaos") for t in HUNDRED_KEEPS])
    assert _within_hang(lambda: keep.meets(charas)) is False  # 100 slots, 7 cards
    five = Keep([parse_condition("type:chara>=1", "chaos")] * 5)
    assert five.meets(charas) is True
    assert Keep([parse_condition("type:chara>=1", "chaos")] * 8).meets(charas) is False


def test_policy_work_counts_conditions_and_their_sizes() -> None:
    default = default_policy("chaos")
    assert run_work(10, 50, 7, default, default) == 500  # the default pilot: games × cards
    many = policy_from_keys("chaos", {"keep": HUNDRED_KEEPS}, "policy")
    longer = policy_from_keys("chaos", {"keep": ["type:chara" + "|type:chara" * 40 + ">=1"]}, "p")
    assert run_work(10, 50, 7, many, default) > 100 * run_work(10, 50, 7, default, default)
    assert run_work(10, 50, 7, longer, default) > run_work(10, 50, 7, default, default)
    selectors = policy_from_keys("chaos", {"play_first": ["type:chara"] * 1000}, "policy")
    assert run_work(1, 50, 7, selectors, default) >= 50 * 999


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=tmp_path / "pool.sqlite3", sync_work=100_000))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_a_heavy_keep_policy_is_422_before_any_game(http: TestClient) -> None:
    """100 games × 55 cards is within the budget of 100,000; the 100 keep conditions are not.
    Before, the budget counted games × cards only and the games were played."""
    body = {"deck": CHAOS, "games": 100, "turns": 3, "policy": {"keep": HUNDRED_KEEPS}}
    answer = http.post("/goldfish", json=body)
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["type"].endswith("/limit-exceeded") and problem["limit"] == 100_000
    assert problem["errors"][0]["path"] == "body.policy"
    assert "DECKCHECK_SYNC_WORK" in problem["detail"]
    replay = http.post(
        "/goldfish/replay",
        json={"deck": CHAOS, "game": 1, "turns": 3, "policy": {"keep": HUNDRED_KEEPS * 20}},
    )
    assert replay.status_code == 422 and replay.json()["errors"][0]["path"] == "body.policy"
    # in Japanese too
    ja = http.post("/goldfish", json=body, headers={"Accept-Language": "ja"})
    assert "上限" in ja.json()["detail"]


def test_one_game_with_a_hundred_keep_conditions_is_answered(http: TestClient) -> None:
    """The issue's request: one game, 100 keep conditions (it held a worker 30 s, and its
    first game ran on the request loop)."""
    body = {"deck": CHAOS, "games": 1, "turns": 3, "policy": {"keep": HUNDRED_KEEPS}}
    answer = _within_hang(lambda: http.post("/goldfish", json=body))
    assert answer.status_code == 200, answer.text
    assert answer.json()["games"] == 1


def test_hand_checks_each_hand_not_every_count_vector(
    index: CardIndex, registry: FormatRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's /hand (ran 10.5 minutes): each hand's keep check tests that hand's counts,
    where it built the table of all 5^9 count vectors once per hand. A row for the hand, and
    one for its mulligan's new hand (each hand's verdict on the want)."""
    rows: list[int] = []
    real = exact.good_rows

    def counting(problem: Any, grid: Any) -> Any:
        rows.append(len(np.asarray(grid)))
        return real(problem, grid)

    monkeypatch.setattr(exact, "good_rows", counting)
    deck = decklist.parse(CHAOS, "chaos.deck")
    dealt = deal_hands(
        deck, registry.get("chaos-standard"), index, HandsRequest(count=100, seed=7, want=NINE)
    )
    assert len(dealt.hands) == 100
    assert any(h.mulligan is not None for h in dealt.hands)  # the keep check ran
    assert sum(rows) <= 200  # two rows a hand at most


def test_hand_is_held_to_the_sync_deadline(tmp_path: Path) -> None:
    """Before, ``/hand`` had no deadline at all."""
    app = create_app(Settings(db=tmp_path / "pool.sqlite3", sync_seconds=0.001))
    with TestClient(app, raise_server_exceptions=False) as http:
        answer = http.post("/hand", json={"deck": CHAOS, "count": 100, "want": NINE})
    assert answer.status_code == 422, answer.text
    assert answer.json()["type"].endswith("/over-deadline")


def test_hand_work_counts_conditions(tmp_path: Path) -> None:
    """1,000 cards × 100 hands was within the old budget (cards × hands); with ten conditions
    it is 1,102,300 units, over the limit of 1,000,000."""
    deck = "format: chaos-standard\n[main]\n1000 SAMPLE-C-001\n"
    want = [f"name:見本キャラ 01>={k}" for k in range(1, 11)]
    app = create_app(Settings(db=tmp_path / "pool.sqlite3"))
    with TestClient(app, raise_server_exceptions=False) as http:
        heavy = http.post("/hand", json={"deck": deck, "count": 100, "want": want})
        assert heavy.status_code == 422, heavy.text
        assert heavy.json()["errors"][0]["path"] == "body.count"
        assert "1,102,300" in heavy.json()["detail"]
        answered = http.post("/hand", json={"deck": CHAOS, "count": 100, "want": NINE})
        assert answered.status_code == 200, answered.text
        assert len(answered.json()["hands"]) == 100


def test_a_cancel_stops_a_reference_chunk_within_a_game(
    index: CardIndex, registry: FormatRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A job's progress callback raises on a cancel; it was called once a chunk (2,000 games
    of the reference engine, whatever each costs), so a cancelled job ran on. Counted in games."""
    import dataclasses

    from deckcheck.goldfish import run

    deck = decklist.parse(CHAOS, "chaos.deck")
    fmt = registry.get("chaos-standard")
    setup = dataclasses.replace(run.prepare(deck, fmt, index, default_policy("chaos")), fast=False)
    played: list[int] = []
    real = run.play_one

    def counting(*args: Any, **kwargs: Any) -> Any:
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(run, "play_one", counting)
    calls: list[int] = []

    def progress(n: int) -> None:  # as jobstore.Progress does once the cancel is read
        calls.append(n)
        if len(calls) == 5:
            raise KeyboardInterrupt

    req = run.GoldfishRequest(games=run.CHUNK, turns=2, engine="reference")
    tallies, interrupted = run.simulate(setup, req, progress)
    assert interrupted and tallies == []
    assert len(played) == 5  # of the chunk's 2,000
