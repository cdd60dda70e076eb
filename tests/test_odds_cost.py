"""An exact count's cost is known before counting (issue 24: a budget from the inputs, past it
an answer naming the limit). Sixteen card groups asked the engine for a 384 GiB array: the CLI
exited 70 (MemoryError) and ``/odds`` answered 500. Ten conditions on ten cards counted for
8 s in a service worker; the service now refuses such a count at once."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from deckcheck.cli import app
from deckcheck.odds.cost import MAX_CELLS, _hands
from deckcheck.odds.exact import _compositions
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES

DECK = EXAMPLES / "vision-standard-legal.deck"
NAMES = [
    "大妖精",
    "レティ・ホワイトロック",
    "妖精メイド",
    "秋 静葉",
    "秋 穣子",
    "稗田 阿求",
    "因幡 てゐ",
    "森近 霖之助",
    "エリー",
    "夢符「封魔陣」",
    "霊符「夢想封印 集」",
    "マナの生成",
    "狙撃",
    "ナイトダンス",
    "漆黒の風",
    "近接戦闘",
]


def sixteen_groups() -> list[str]:
    """Conditions that give each of 16 cards a signature of its own (card j counts toward the
    conditions of the bits of j + 1): 16 groups of 3 copies, 4¹⁶ count vectors."""
    wants = []
    for bit in range(5):
        names = [n for j, n in enumerate(NAMES) if (j + 1) >> bit & 1]
        if names:
            wants.append("|".join(f"name:{n}" for n in names) + f">={3 * len(names)}")
    return wants


TEN_CARDS = [f"name:{n}>=3" for n in NAMES[:10]]  # 4¹⁰ vectors, 1,023 sets for Hall's check


def test_the_cli_refuses_a_table_over_the_limit() -> None:
    args = ["odds", str(DECK), "--turns", "30"]
    for want in sixteen_groups():
        args += ["--want", want]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert f"over the limit of {MAX_CELLS:,}" in result.output
    assert "MemoryError" not in result.output


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("cost") / "pool.sqlite3"
    with TestClient(create_app(Settings(db=db))) as client:
        yield client


def test_the_service_answers_422_naming_the_table_limit(http: TestClient) -> None:
    deck = DECK.read_text(encoding="utf-8")
    answer = http.post("/odds", json={"deck": deck, "want": sixteen_groups(), "turns": 30})
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["type"].endswith("/limit-exceeded") and problem["limit"] == MAX_CELLS
    assert problem["errors"][0]["path"] == "body.want"
    ja = http.post(
        "/odds",
        json={"deck": deck, "want": sixteen_groups(), "turns": 30},
        headers={"Accept-Language": "ja"},
    )
    assert ja.status_code == 422 and "50,000,000" in ja.json()["detail"]
    assert "limit" not in ja.json()["detail"]  # said in Japanese


def test_the_service_refuses_an_exact_count_over_its_work_budget(http: TestClient) -> None:
    deck = DECK.read_text(encoding="utf-8")
    settings: Settings = http.app.state.settings  # type: ignore[attr-defined]
    answer = http.post("/odds", json={"deck": deck, "want": TEN_CARDS, "turns": 10})
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["limit"] == settings.odds_work
    assert "DECKCHECK_ODDS_WORK" in problem["detail"]
    # the same question as a simulation is answered, and so is an ordinary exact one
    simulated = {"deck": deck, "want": TEN_CARDS, "turns": 10, "simulate": 2000, "seed": 1}
    assert http.post("/odds", json=simulated).status_code == 200
    few = http.post("/odds", json={"deck": deck, "want": TEN_CARDS[:3], "turns": 10})
    assert few.status_code == 200 and few.json()["method"] == "exact"


@given(
    sizes=st.lists(st.integers(0, 5), max_size=6),
    rest=st.integers(0, 12),
    hand=st.integers(0, 8),
)
def test_the_count_of_opening_hands_is_the_engines(sizes: list[int], rest: int, hand: int) -> None:
    """The estimate counts the opening hands the engine walks, one by one."""
    walked = sum(1 for _ in _compositions(sizes, rest, hand))
    assert _hands(tuple(sizes), rest, hand) == walked
    brute = sum(
        1
        for k in itertools.product(*(range(n + 1) for n in sizes))
        if sum(k) <= hand and hand - sum(k) <= rest
    )
    assert walked == brute
