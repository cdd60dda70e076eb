"""VISION by its comprehensive rules: construction (「Phantom Magic Vision 総合ルール」 §1.2, the
keyword glossary) and play (the publisher's 「ターンの流れ」, 東方VISIONオンライン's rules pages,
the glossary), each on a real-card deck that the engine or validator before the change got
wrong. Games are stacked: the deck is drawn in the order written (tests/test_goldfish.Stacked)."""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from deckcheck.formats.registry import FormatRegistry
from deckcheck.games.vision import METRICS, MILESTONES, engine
from deckcheck.games.vision.board import Board, Unit, playable
from deckcheck.games.vision.limits import Limits
from deckcheck.goldfish.common import Record
from deckcheck.goldfish.policy import Compiled, default_policy
from deckcheck.goldfish.setup import Setup
from deckcheck.models import Card, Report
from deckcheck.odds.setup import rules_of
from deckcheck.resolve import CardIndex
from tests.conftest import EXAMPLES, ROOT
from tests.test_goldfish import Stacked

Check = Callable[..., Report]
M = {name: i for i, name in enumerate(METRICS)}
LIMITS = Limits(1, None, 1, 1, 1, 25, 7, True, True, "nodes", True, True, True)


@pytest.fixture(scope="module")
def get(index: CardIndex) -> Callable[[str], Card]:
    def find(number: str) -> Card:
        found = index.resolve("vision", number).card
        assert found is not None, number
        return found

    return find


def vision_setup(
    registry: FormatRegistry,
    drawn: list[Card],
    params: dict[str, Any] | None = None,
    **policy: object,
) -> Setup:
    """``drawn`` in draw order (the first card is drawn first) on a stacked deck."""
    pilot = default_policy("vision").model_copy(update={"mulligan": False, **policy})
    rules = rules_of(registry.get("vision-standard"))
    if params:
        rules = dataclasses.replace(rules, params={**rules.params, **params})
    deck = [(c, 1) for c in reversed(drawn)]
    return Setup("vision", {"main": deck}, rules, pilot, deck, ())


def game(
    registry: FormatRegistry,
    drawn: list[Card],
    turns: int,
    on_play: bool = True,
    params: dict[str, Any] | None = None,
    **policy: object,
) -> Record:
    """One game of ``vision_setup``'s stacked deck."""
    setup = vision_setup(registry, drawn, params, **policy)
    return engine.play(setup, Compiled(setup.policy, "vision"), Stacked(), turns, on_play)


def column(record: Record, name: str) -> list[int]:
    return [row[M[name]] for row in record.metrics]


# --- construction ----------------------------------------------------------------------------


def test_every_spelling_of_the_deck_limit_keyword_is_one_keyword() -> None:
    """キーワード用語集 「デッキ1枚制限」: 【デッキ１枚制限】 and P223's 【デッキ一枚制限】 are the
    same keyword; the build script writes both as デッキ1枚制限 (24 cards)."""
    path = ROOT / "card_pool" / "vision" / "cards.csv"
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    limited = [r["number"] for r in rows if "デッキ1枚制限" in r["keywords"].split(";")]
    assert len(limited) == 24 and "P223" in limited
    assert not any("一枚" in r["keywords"] or "１" in r["keywords"] for r in rows)


def test_three_of_p223_break_the_deck_limit(check: Check) -> None:
    base = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    text = base.replace("3 近接戦闘", "3 P223   # 虚史「幻想郷伝説」, 【デッキ一枚制限】")
    assert {v.rule for v in check(text).violations} == {"vision/deck-limit"}
    one = base.replace("3 近接戦闘", "2 近接戦闘\n1 P223")
    assert check(one).legal


@pytest.mark.parametrize("where", ["main", "side"])
def test_a_card_that_may_not_be_in_a_deck_is_an_error_anywhere(check: Check, where: str) -> None:
    """PR.009 East Opera 2008: 【このカードはデッキに入れることが出来ない】 (CR §1.2.2.c, §1.2.5.c)."""
    base = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    if where == "main":
        text = base.replace("3 近接戦闘", "2 近接戦闘\n1 PR.009")
    else:
        text = base.replace("3 N12 ", "2 N12\n1 PR.009 ")
    report = check(text)
    (v,) = report.violations
    assert (v.rule, v.severity, v.section) == ("vision/deck-limit", "error", where)
    assert "East Opera 2008 may not be put in a deck" in v.message


@pytest.mark.parametrize(("size", "legal"), [(0, True), (5, False), (9, False), (10, True), (11, False)])
def test_a_sideboard_is_none_or_exactly_ten(check: Check, size: int, legal: bool) -> None:
    """CR §1.2.4 (optional) and §1.2.5.a (「過不足無く10枚」): 0 or 10, an error otherwise."""
    base = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8").split("[side]")[0]
    fillers = ["N1", "N2", "N151", "N152", "N301", "N302", "N4", "N5", "N473", "N783", "N903"]
    text = base + "[side]\n" + "\n".join(f"1 {n}" for n in fillers[:size]) + "\n"
    report = check(text)
    assert report.legal is legal
    if not legal:
        (v,) = report.violations
        assert (v.rule, v.severity) == ("vision/side-size", "error")
        assert "§1.2.5.a" in (v.source or "")


@pytest.mark.parametrize(
    "name", ["vision-standard-hangonchou.deck", "vision-standard-nandai-kaguya.deck"]
)
def test_real_lists_as_players_write_them_are_legal(check: Check, name: str) -> None:
    """Lists copied from players' write-ups ("3 048 西行妖", "3,807,蓬莱山 輝夜", bare
    メイン/サイドボード headers, type subtotals such as キャラクター 10): every line resolves."""
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    report = check(text)
    assert report.legal and report.violations == [], report.violations
    assert report.counts["main"] == 50 and report.counts.get("side", 0) in (0, 10)
    assert "http" in text.split("[", 1)[0]  # the list names its source


def test_a_number_with_the_wrong_name_is_not_taken(check: Check) -> None:
    base = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    report = check(base.replace("3 近接戦闘", "3 048 小悪魔"))
    (v,) = report.violations
    assert v.rule == "deck/unknown-card" and "N48 西行妖" in (v.fix or "")


# --- play ------------------------------------------------------------------------------------


def test_a_spell_is_free_when_its_caster_is_on_the_field(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """東方VISIONオンライン, カードの種類: a spell whose 術者 is on your field ignores 必要ノード
    and コスト. 霧雨 魔理沙 (N1131, 必要ノード 2) on turn 2 plays her 必要ノード 5-6 spells the
    same turn; before, no spell came before turn 5."""
    spells = ["N64", "N65", "N207", "N729", "N1163", "N1164"]
    filler = [get("N854")] * 20  # 月の都: 相手ターン制限, never played in your turn: a node
    record = game(registry, [get("N1131"), *map(get, spells), *filler], 4)
    played, free = column(record, "played"), column(record, "free")
    assert played[1] >= 2 and free[1] >= 1  # turn 2: Marisa, then her spells, for nothing
    assert record.milestones[MILESTONES.index("first_free_spell")] == 2
    # two nodes set; her マナチャージ(1) cannot be used the turn she enters asleep (総合ルール
    # §10.12.2.a: it sleeps her), so never enough for 必要ノード 5
    assert column(record, "nodes")[1] == 2


def test_caster_spells_come_first_and_cost_nothing(get: Callable[[str], Card]) -> None:
    marisa, spark = get("N1131"), get("N64")  # 恋符「マスタースパーク」: 必要ノード 5, コスト 3
    board = Board(nodes=1, active=0, units=[Unit(marisa, 3, 1, False)])
    hand = [spark]
    assert playable(spark, hand, board, 1)
    engine._put(spark, hand, [], board, 2)
    assert board.active == 0 and board.free_played == 1
    assert not playable(spark, [spark], Board(nodes=4, active=4), 1)


def stacked_charm(get: Callable[[str], Card], first: bool) -> list[Card]:
    """霧符「ガシングガーデン」 (世界呪符, 必要ノード 1, コスト 1, 維持コスト 2), drawn first or on
    turn 3, among cards that are never played (相手ターン制限) and so become nodes."""
    filler = [get("N854")] * 30
    charm = get("N109")
    return [charm, *filler] if first else [*filler[:8], charm, *filler[8:]]


def test_an_upkeep_of_two_sleeps_two_nodes_each_turn(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """キーワード用語集 「維持コスト」: paid in each maintenance phase. The charm is played on turn
    3; from turn 4 on, two of the nodes are asleep in every main phase."""
    record = game(registry, stacked_charm(get, first=False), 9, node_until="all")
    nodes, active, asleep = column(record, "nodes"), column(record, "active"), column(record, "asleep")
    assert active[:3] == nodes[:3] == [1, 2, 3]
    for turn in range(3, 9):  # index 3 = turn 4
        assert (active[turn], asleep[turn]) == (nodes[turn] - 2, 2)
    assert sum(column(record, "lost")) == 0


def test_a_charm_whose_upkeep_cannot_be_paid_is_lost(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """Played on turn 1 with the one node; in turn 2's maintenance one active node cannot pay 2,
    so the charm is 破棄, and the turn's lost count and first_upkeep_loss show it."""
    record = game(registry, stacked_charm(get, first=True), 4, node_until="all")
    assert column(record, "lost") == [0, 1, 0, 0]
    assert record.milestones[MILESTONES.index("first_upkeep_loss")] == 2
    assert column(record, "active")[1:] == column(record, "nodes")[1:]  # nothing left to pay


def test_node_ready_never_is_the_fan_reading(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """With ``node_ready = "never"`` (the fan sources' 「ノードはアクティブに戻らない」) a node pays
    once: the charm played on turn 3 uses up what is left, and turn 5 cannot pay its upkeep."""
    drawn = stacked_charm(get, first=False)
    ready = game(registry, drawn, 6, node_until="all")
    never = game(registry, drawn, 6, params={"node_ready": "never"}, node_until="all")
    assert sum(column(ready, "lost")) == 0
    assert column(never, "active")[:3] == [1, 2, 3]  # a new node pays the turn it is set
    assert never.milestones[MILESTONES.index("first_upkeep_loss")] == 5


def test_node_until_all_keeps_setting_nodes(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """By default the pilot stops at the deck's highest 必要ノード (here 1); ``node_until =
    "all"`` keeps setting a node while the hand holds a card."""
    drawn = stacked_charm(get, first=False)
    assert column(game(registry, drawn, 6), "nodes") == [1] * 6
    assert column(game(registry, drawn, 6, node_until="all"), "nodes") == [1, 2, 3, 4, 5, 6]


def test_surprise_and_doll_characters_have_their_own_slots(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """東方VISIONオンライン, 戦術: 奇襲 characters do not count toward the one character a turn
    (OFF 「ターンの流れ」), and 人形 characters have their own once-a-turn play. Turn 1, one
    node: リグル (奇襲, コスト 1), 大妖精 and 上海人形 (コスト 0) all come in; before, only one."""
    filler = [get("N854")] * 20
    hand = [get("N6"), get("N3"), get("N3"), get("N1"), get("N2"), *filler]
    record = game(registry, hand, 2)
    assert column(record, "characters")[0] == 3
    assert column(record, "characters")[1] == 5  # turn 2: the second 大妖精 and 蓬莱人形


def test_one_equipment_per_character_and_one_world_charm_a_turn(
    get: Callable[[str], Card],
) -> None:
    """キーワード用語集 「装備」 (1枚しかセット出来ない), 「呪符」 (制限が無い), 「世界呪符」 (1ターン
    中には1枚しかプレイする事が出来ない)."""
    equip, charm, world = get("N102"), get("N62"), get("N55")
    unit = Unit(get("N3"), 1, 1, False, equipped=True)
    board = Board(nodes=5, active=5, units=[unit])
    assert not playable(equip, [equip], board, 1)
    assert playable(charm, [charm], board, 1)
    unit.equipped = False
    assert playable(equip, [equip], board, 1)
    engine._put(equip, [equip], [], board, 1)
    assert unit.equipped and [e.card for e in board.placed] == [equip]
    assert playable(world, [world], board, 1)
    engine._put(world, [world], [], board, 1)
    assert not playable(world, [world], board, 1)  # a second 世界呪符 this turn


def test_turn_limit_is_one_of_that_name_a_turn(get: Callable[[str], Card]) -> None:
    """キーワード用語集 「ターン1枚制限」: 〔このカードと同名のカード〕を、1ターンに1枚."""
    resonance = get("N1167")  # 響符「パワーレゾナンス」: 必要ノード 1, コスト 1
    board = Board(nodes=4, active=4)
    hand = [resonance, resonance]
    engine._put(resonance, hand, [], board, 1)
    assert not playable(resonance, hand, board, 1)
    assert not playable(get("N541"), [get("N541")], board, 1)  # 相手ターン制限: not in your turn


def test_mana_charge_sleeps_the_character_for_sleeping_nodes(get: Callable[[str], Card]) -> None:
    """CR §10.12.2.a マナチャージ(X): (自分ターン)(S): the top X cards of the deck go to the node
    area asleep. Played, the character adds nothing; from the next turn it may charge, and
    then it does not attack."""
    sunny = get("N15")  # サニーミルク: マナチャージ(1), 必要ノード 2, コスト 1
    board, deck = Board(nodes=2, active=2), [get("N854"), get("N3")]
    engine._put(sunny, [sunny], deck, board, 1)
    assert (board.nodes, board.active, len(deck)) == (2, 1, 2)
    lim = dataclasses.replace(LIMITS, node_until=None)
    engine.charge(board, deck, 1, lim, None, None)  # asleep: it came into play this turn
    assert board.nodes == 2
    engine.charge(board, deck, 2, lim, None, None)
    assert (board.nodes, board.active, len(deck), board.units[0].charged) == (3, 1, 1, 2)


def test_the_hand_is_cut_to_seven_in_the_discard_phase(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """Discard phase: hand limit 7 (English fan wiki; the format's hand_limit, an assumption).
    Nothing here is ever played or set (node_until 0), so the hand would grow by one a turn."""
    drawn = [get("N854")] * 20
    record = game(registry, drawn, 4, on_play=False, node_until=0)
    assert column(record, "hand") == [7, 7, 7, 7]
    assert column(game(registry, drawn, 2, False, {"hand_limit": 9}, node_until=0), "hand") == [8, 9]


def test_opening_hand_and_hand_limit_are_labelled_assumptions(registry: FormatRegistry) -> None:
    fmt = registry.get("vision-standard")
    text = "\n".join(fmt.assumptions)
    for key in ("(opening_hand) = 7", "(hand_limit) = 7", "(node_ready) = maintenance"):
        assert key in text
    assert "fan source" in text and "deckcheck's reading" in text
