"""The VISION goldfish engine on real cards: nodes, costs, 連結, 【リーダー】, and its curves."""

from __future__ import annotations

import pytest

from deckcheck import decklist, plugins
from deckcheck.formats.registry import FormatRegistry
from deckcheck.games.vision import engine
from deckcheck.games.vision.board import Board, Unit, playable
from deckcheck.goldfish.policy import default_policy
from deckcheck.goldfish.run import GoldfishRequest, goldfish
from deckcheck.models import Card
from deckcheck.resolve import CardIndex
from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def get(index: CardIndex):  # type: ignore[no-untyped-def]
    def find(number: str) -> Card:
        found = index.resolve("vision", number).card
        assert found is not None, number
        return found

    return find


def test_nodes_meet_the_requirement_and_active_nodes_pay_the_cost(get) -> None:  # type: ignore[no-untyped-def]
    rinnosuke = get("N28")  # 森近 霖之助: 必要ノード 4, コスト 2
    assert (rinnosuke.int_of("node"), rinnosuke.cost) == (4, 2)
    assert not playable(rinnosuke, [rinnosuke], Board(nodes=3, active=3), 1)
    assert not playable(rinnosuke, [rinnosuke], Board(nodes=4, active=1), 1)
    assert playable(rinnosuke, [rinnosuke], Board(nodes=4, active=2), 1)
    board, hand = Board(nodes=4, active=4), [rinnosuke]
    engine._put(rinnosuke, hand, [], board, 1)
    assert (board.active, hand, [u.card.number for u in board.units]) == (2, [], ["N28"])


def test_one_leader_on_the_field(get) -> None:  # type: ignore[no-untyped-def]
    reimu, kokoro = get("PR.200"), get("PR.201")  # both 【リーダー】
    board = Board(nodes=6, active=6, units=[Unit(reimu, 4, 1, False)])
    assert not playable(kokoro, [kokoro], board, 1)
    assert playable(kokoro, [kokoro], board, 2)
    assert playable(get("N28"), [get("N28")], board, 1)  # others are not limited


def test_union_needs_its_linked_cards_and_removes_them(get) -> None:  # type: ignore[no-untyped-def]
    union, reimu, yukari = get("N401"), get("N317"), get("N45")  # 連結 霊夢 + 紫
    board = Board(nodes=8, active=8)
    hand = [union, reimu]
    assert not playable(union, hand, board, 1)
    board.grave.append(yukari)
    assert playable(union, hand, board, 1)
    engine._put(union, hand, [], board, 2)
    assert hand == [] and board.grave == [] and [u.card for u in board.units] == [union]


def test_last_word_needs_its_user_and_ni_is_never_played(get) -> None:  # type: ignore[no-untyped-def]
    last = get("N1354")  # 「夢想天生」, ラストワード, 術者 博麗 霊夢
    board = Board(nodes=8, active=8)
    assert not playable(last, [last], board, 1)
    board.units.append(Unit(get("N317"), 3, 1, False))
    assert playable(last, [last], board, 1)
    ni = get("N187")  # 符ノ弐“博麗 霊夢”: only by spell break
    assert not playable(ni, [ni], board, 1)


def test_goldfish_on_the_real_example_reports_node_and_play_curves(
    index: CardIndex, registry: FormatRegistry
) -> None:
    text = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    fmt = registry.get("vision-standard")
    result = goldfish(
        decklist.parse(text, "legal.deck"),
        fmt,
        index,
        default_policy("vision"),
        GoldfishRequest(games=400, turns=8, seed=3),
    )
    rows = result.per_turn
    assert [row["nodes_mean"] for row in rows[:5]] == [1, 2, 3, 4, 5]  # one node a turn
    assert all(rows[t]["characters_mean"] <= rows[t + 1]["characters_mean"] for t in range(4))
    assert rows[3]["playable_mean"] > 0 and rows[3]["played_mean"] > 0
    assert [f"node_{k}" for k in range(1, 8)] == list(result.milestones)[2:9]
    assert result.milestones["node_3"]["mean_turn"] == 3
    assert result.milestones["first_character"]["rate"] > 0.9
    for note in plugins.get("vision").play.notes:  # every assumption is printed with the result
        assert note in result.assumptions
    assert any("(node_ready) = maintenance" in a for a in result.assumptions)
    assert any("(opening_hand) = 7" in a for a in result.assumptions)
