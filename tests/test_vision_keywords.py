"""VISION keywords by their rules (issue 30), each on a stacked deck of real cards that both
engines play (tests/agreement.py ``stacked_games``: the reference and the batch engine draw
the deck in the order written and must give identical records). Every deck here was played
wrongly before the rule it tests was modelled."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from deckcheck import decklist
from deckcheck.formats.registry import FormatRegistry
from deckcheck.games.vision import METRICS, engine
from deckcheck.games.vision.cards import facts
from deckcheck.games.vision.fast import play_tape
from deckcheck.goldfish.common import Record
from deckcheck.goldfish.policy import Compiled, default_policy
from deckcheck.goldfish.run import prepare
from deckcheck.goldfish.trace import Trace
from deckcheck.models import Card
from deckcheck.resolve import CardIndex
from tests.agreement import stacked_games
from tests.conftest import EXAMPLES
from tests.test_goldfish import Stacked, card
from tests.test_vision_cr import column, vision_setup


@pytest.fixture(scope="module")
def get(index: CardIndex) -> Callable[[str], Card]:
    return lambda number: card(index, "vision", number)


def both(registry: FormatRegistry, drawn: list[Card], turns: int, **keys: Any) -> Record:
    """``drawn`` (first card drawn first) played by both engines; the reference's record.
    ``keys``: ``on_play`` (default True), ``params`` (format parameters), pilot keys."""
    on_play, params = keys.pop("on_play", True), keys.pop("params", None)
    setup = vision_setup(registry, drawn, params, **keys)
    return stacked_games(play_tape, setup, turns, on_play)[1]


# --- 必要ノード and コスト 「-」 ------------------------------------------------------------------


@pytest.mark.parametrize("number", ["N48", "N820", "N1060"])  # 西行妖, 嫦娥, 龍神
def test_a_dash_cost_character_is_never_played(
    registry: FormatRegistry, get: Callable[[str], Card], number: str
) -> None:
    """東方VISIONオンライン rules, カードのプレイ: 「必要ノードとコストが-(ハイフン)であるカードは
    プレイする事ができません」. Before, the build wrote '-' as none and both engines read 0/0:
    西行妖 came in on turn 1 for nothing. Now it never does; it is set as a node instead."""
    card = get(number)
    drawn = [card, card, card, *[get("N3")] * 2, *[get("N854")] * 25]
    record = both(registry, drawn, 8)
    assert column(record, "played")[0] == 1  # turn 1: one 大妖精 (node 1), not the 「-」 card
    assert max(column(record, "characters")) == 2  # the two 大妖精 only
    assert card.text_of("dash") == "-" and facts(card).never


def test_a_dash_last_word_is_played_free_by_its_caster(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """「夢想天生」 (ラストワード, 「-」 costs) with 博麗 霊夢 (N1130, 必要ノード 2) on the field: free
    through its 術者 (ONL カードの種類), the only way a 「-」 spell is played (deckcheck's reading);
    without her it stays in hand."""
    spell, reimu = get("N1354"), get("N1130")
    filler = [get("N854")] * 25
    record = both(registry, [spell, reimu, *filler], 4, node_until="all")
    assert column(record, "free") == [0, 1, 0, 0]  # turn 2: 霊夢, then the spell for nothing
    alone = both(registry, [spell, *filler], 4, node_until="all")
    assert column(alone, "played") == [0, 0, 0, 0]
    assert facts(spell).dash and not facts(spell).never


def test_hangonchou_never_plays_saigyou_ayakashi(
    registry: FormatRegistry, index: CardIndex
) -> None:
    """The 調布公認大会 list (a real deck): in 40 replayed games the pilot never plays 西行妖
    (before: on turn 1 of game 1 of seed 1), and the replay says why it keeps it."""
    name = "vision-standard-hangonchou.deck"
    parsed = decklist.parse((EXAMPLES / name).read_text(encoding="utf-8"), name)
    setup = prepare(parsed, registry.get("vision-standard"), index, default_policy("vision"))
    saigyou = next(c for c, _ in setup.drawable if c.number == "N48")
    assert facts(saigyou).never
    said = 0
    for seed in range(40):
        trace = Trace()
        engine.play(setup, Compiled(setup.policy, "vision"), random.Random(seed), 6, True, trace)
        for turn in trace.turns:
            for step in turn.steps:
                assert not (step.action == "play" and "西行妖" in step.text), step.text
                said += step.action == "hold" and "西行妖" in step.text and "「-」" in step.text
    assert said > 0


# --- 人形, 神器, 連結 -------------------------------------------------------------------------


def test_doll_characters_do_not_attack(registry: FormatRegistry, get: Callable[[str], Card]) -> None:
    """東方VISIONオンライン rules, 戦術: 「人形を持つキャラクターは攻撃できない」. A deck whose only
    characters are 人形 (ゴリアテ人形 3, ティターニア 4, 藁人形 1 with 速攻) deals no damage;
    before, they attacked for 8 a turn."""
    dolls = [get("N781"), get("N782"), get("N662")]
    record = both(registry, [*dolls, *[get("N854")] * 25], 6)
    assert column(record, "characters")[:3] == [1, 2, 3]  # one 人形 a turn (dolls_per_turn)
    assert column(record, "damage") == [0] * 6
    assert all(facts(d).no_attack for d in dolls)


def test_a_sacred_treasure_is_set_only_on_a_legend(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """キーワード用語集 「神器」: 「伝説」を持つキャラクターにしかセットすることが出来ない. 草薙剣
    (装備, 神器, +3, 必要ノード 4) never goes on 大妖精; before, it added 3 on turn 4. With 星熊
    勇儀 (伝説, attack 5, played turn 4) it goes on her when she first attacks, turn 5."""
    fairy, sword, yuugi = get("N3"), get("N146"), get("N1722")
    filler = [get("N854")] * 25
    alone = both(registry, [fairy, sword, *filler], 6, node_until="all")
    assert column(alone, "damage") == [0, 1, 2, 3, 4, 5]  # 大妖精's 1 a turn, nothing more
    legend = both(registry, [fairy, yuugi, sword, *filler], 6, node_until="all")
    assert column(legend, "damage") == [0, 1, 2, 3, 12, 21]  # turn 5: 1 + 5 + 3


def test_a_union_character_counts_as_its_linked_names(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """キーワード用語集 「連結」 (自動α): the card's name is also 「博麗 霊夢」 and 「八雲 紫」. 幻想の
    結界チーム (連結 of those two; here from 符ノ弐 cards in hand) enters on turn 5 and makes
    霊夢's 散霊「夢想封印 寂」 (必要ノード 5, コスト 5) free the same turn; before, it was not free
    and waited until turn 6. Both engines (the batch engine played no 連結 deck before)."""
    team, spell = get("N401"), get("N730")
    drawn = [team, get("N187"), get("N339"), spell, *[get("N854")] * 25]
    record = both(registry, drawn, 7, node_until="all")
    assert column(record, "free")[4] == 1  # turn 5
    assert column(record, "played")[4] == 2


# --- マナチャージ --------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["nodes", "never"])
def test_mana_charge_is_an_ability_used_instead_of_an_attack(
    registry: FormatRegistry, get: Callable[[str], Card], policy: str
) -> None:
    """総合ルール §10.12.2.a: マナチャージ(X) is 「(自分ターン)(S):〔あなたのデッキの上のカード
    X枚〕をスリープ状態でノードに加える」. サニーミルク (マナチャージ(1), attack 1) enters on
    turn 2 asleep: no node that turn (before: one at once, and never again). From turn 3 the
    pilot ("nodes", node_until "all") charges each turn instead of attacking; "never" attacks."""
    sunny = get("N15")
    record = both(registry, [sunny, *[get("N854")] * 25], 5, node_until="all", mana_charge=policy)
    if policy == "nodes":
        assert column(record, "nodes") == [1, 2, 4, 6, 8]  # a node set + one charged a turn
        assert column(record, "damage") == [0] * 5
        assert column(record, "deck")[-1] == 26 - 7 - 4 - 3  # 4 draws, 3 charged
    else:
        assert column(record, "nodes") == [1, 2, 3, 4, 5]
        assert column(record, "damage") == [0, 0, 1, 2, 3]


def test_nandai_kaguya_has_one_node_after_turn_one_on_the_play(
    registry: FormatRegistry, index: CardIndex
) -> None:
    """No character can charge on turn 1 (all enter asleep; none has 速攻 and マナチャージ), so
    the turn-1 node mean on the play is exactly 1.00 in 2,000 games of the batch engine (the
    issue measured 1.37 before)."""
    from deckcheck.games.vision.fast import play_batch

    name = "vision-standard-nandai-kaguya.deck"
    parsed = decklist.parse((EXAMPLES / name).read_text(encoding="utf-8"), name)
    setup = prepare(parsed, registry.get("vision-standard"), index, default_policy("vision"))
    metrics = play_batch(setup, 7, 2_000, 5, True)[0]
    assert metrics[:, 0, METRICS.index("nodes")].mean() == 1.0
    assert metrics[:, 4, METRICS.index("nodes")].mean() > 4.0  # charges do add nodes later


# --- turn structure and the pilot ------------------------------------------------------------


@pytest.mark.parametrize("first_attack", [True, False])
def test_a_haste_character_attacks_on_the_first_turn(
    registry: FormatRegistry, get: Callable[[str], Card], first_attack: bool
) -> None:
    """総合ルール §4.1.1 names no first-turn exception; the format's first_turn_attack (an
    assumption, deckcheck's reading) lets 小悪魔 (速攻, attack 3) attack on turn 1 on the play.
    Before, no battle was played on the first player's first turn, silently."""
    imp = get("N1243")
    params = {"first_turn_attack": first_attack}
    record = both(registry, [imp, *[get("N854")] * 25], 3, params=params)
    assert column(record, "damage") == ([3, 6, 9] if first_attack else [0, 3, 6])


def test_the_pilot_keeps_nodes_for_upkeep(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """The default pilot sets nodes up to the deck's highest 必要ノード (here 3: 霊符「夢想封印
    散」 at the bottom) plus the 維持コスト due on its field: with 霧符「ガシングガーデン」
    (維持コスト 2) played on turn 3 it goes on to 5 nodes; before, it stopped at 3."""
    filler = [get("N854")] * 30
    drawn = [*filler[:8], get("N109"), *filler[8:], get("N209")]
    record = both(registry, drawn, 7)
    assert column(record, "nodes") == [1, 2, 3, 4, 5, 5, 5]
    assert sum(column(record, "lost")) == 0


@pytest.mark.parametrize("field_commands", [True, False])
def test_field_commands_are_played_by_policy(
    registry: FormatRegistry, get: Callable[[str], Card], field_commands: bool
) -> None:
    """装備/場 commands (マナシールド: 必要ノード 1, コスト 1, 維持コスト 1) are played in the main
    phase by default, one on the field (キーワード用語集 「装備/場」), and pay 維持コスト; before,
    commands were only played for attack, so these never were."""
    shield = get("N546")
    drawn = [shield, shield, *[get("N854")] * 25]
    record = both(registry, drawn, 4, node_until="all", field_commands=field_commands)
    if field_commands:
        assert column(record, "played") == [1, 0, 0, 0]  # the second waits: one on the field
        assert column(record, "asleep")[1:] == [1, 1, 1]  # 維持コスト 1 each turn
    else:
        assert column(record, "played") == [0, 0, 0, 0]


# --- the keyword table -----------------------------------------------------------------------


def test_every_keyword_form_of_the_cards_has_a_row() -> None:
    """The 43 keyword forms of card_pool/vision/cards.csv, each with a status and a source or
    reason in deckcheck/games/vision/keywords.py, and no row for a form no card prints."""
    import csv

    from deckcheck.games.vision import keywords
    from tests.conftest import ROOT

    path = ROOT / "card_pool" / "vision" / "cards.csv"
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    printed = {keywords.form(k) for r in rows for k in r["keywords"].split(";") if k}
    table = {f: (status, why) for f, status, why in keywords.ROWS}
    assert len(printed) == 43 and set(table) == printed
    assert len(table) == len(keywords.ROWS)  # no form twice
    statuses = {keywords.MODELLED, keywords.IRRELEVANT, keywords.NOT_YET}
    assert all(status in statuses and why for status, why in table.values())


def test_formats_show_prints_the_keyword_table(registry: FormatRegistry) -> None:
    from tests.test_cli import run

    code, out, _ = run("formats", "show", "vision-standard")
    assert code == 0
    table = out.split("keywords (goldfish):", 1)[1]
    assert "マナチャージ(X)  modelled" in table and "先制  not relevant to solitaire play" in table
    assert table.count("\n  ") >= 43


# --- the replay ------------------------------------------------------------------------------


def test_the_replay_tells_every_rule_step(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """サニーミルク enters on turn 2, charges on turn 3 (and does not attack), 霧符「ガシング
    ガーデン」 (世界呪符, 維持コスト 2) enters on turn 3 and is paid for on turn 4. The replay
    says each: the hand at the start of each turn, the charge, the payment, and the charm on
    the field (before, the field showed characters only and none of these steps was told)."""
    filler = [get("N854")] * 25
    drawn = [get("N15"), *filler[:7], get("N109"), *filler[7:]]
    setup = vision_setup(registry, drawn, None, node_until="all")
    trace = Trace()
    engine.play(setup, Compiled(setup.policy, "vision"), Stacked(), 4, True, trace)
    turns = {t.turn: t for t in trace.turns}
    assert all(t.steps[0].action == "hand" for n, t in turns.items() if n)
    texts = {n: " / ".join(s.text for s in t.steps) for n, t in turns.items()}
    assert "“サニーミルク” sleeps for マナチャージ: nodes +1" in texts[3]
    assert "attacks" not in texts[3]
    assert "pays 維持コスト 2 for “霧符「ガシングガーデン」”" in texts[4]
    assert "field: “サニーミルク”, “霧符「ガシングガーデン」”" in turns[3].state


@pytest.mark.parametrize("page", ["docs/goldfish.md", "docs/goldfish.ja.md"])
def test_the_goldfish_pages_print_the_keyword_table(page: str) -> None:
    from deckcheck.games.vision import keywords
    from tests.conftest import ROOT

    text = (ROOT / page).read_text(encoding="utf-8")
    rows = {line.split(" | ")[0].removeprefix("| ") for line in text.splitlines()}
    assert all(f in rows for f, _, _ in keywords.ROWS)


@pytest.mark.parametrize(("number", "node"), [("N1167", 1), ("N1664", 6)])
def test_the_turn_limit_family_plays_one_of_a_name_a_turn(
    registry: FormatRegistry, get: Callable[[str], Card], number: str, node: int
) -> None:
    """キーワード用語集 「ターン1枚制限」 (響符「パワーレゾナンス」) and its 自分ターン1枚制限 form
    (響符「平安の残響」: 自分ターンに1枚しかプレイする事が出来ない): three copies in hand and the
    nodes to pay for all of them, one played a turn, in both engines."""
    spell = get(number)
    drawn = [spell, spell, spell, *[get("N854")] * 25]
    record = both(registry, drawn, node + 3, node_until="all")
    played = column(record, "played")
    assert played[node - 1 :] == [1, 1, 1, 0] and sum(played) == 3


@pytest.mark.parametrize("fuel", [False, True])
def test_overdrive_needs_a_card_of_its_caster_in_the_underworld(
    registry: FormatRegistry, get: Callable[[str], Card], fuel: bool
) -> None:
    """キーワード用語集 「オーバードライブ」: resolving it removes 1+ cards of its 術者 from 冥界
    (a character named after 響子, or a spell of hers), else the card itself is removed. The
    pilot plays 山彦「ヤマビコの本領発揮エコー」 (必要ノード 5, コスト 3) only with one there:
    響符「パワーレゾナンス」 (響子's, played on turn 1). Before, it was played on turn 5
    either way."""
    echo, resonance = get("N1472"), get("N1167")
    filler = [get("N854")] * 25
    drawn = [echo, resonance, *filler] if fuel else [echo, *filler]
    record = both(registry, drawn, 6, node_until="all")
    assert column(record, "played") == ([1, 0, 0, 0, 1, 0] if fuel else [0] * 6)


def test_the_default_pilot_charges_up_to_its_node_target_with_upkeep(
    registry: FormatRegistry, get: Callable[[str], Card]
) -> None:
    """The default pilot's node target is the deck's highest 必要ノード (3: 霊符「夢想封印 散」 at
    the bottom) plus the 維持コスト due on its field. サニーミルク attacks on turn 3 (3 nodes:
    the target); with 霧符「ガシングガーデン」 (維持コスト 2) played on turn 3 the target is 5, so
    on turn 4 she charges (before, with the target without upkeep, she attacked), and on turn
    5, at 5 nodes, she attacks again."""
    filler = [get("N854")] * 30
    drawn = [get("N15"), *filler[:7], get("N109"), *filler[7:], get("N209")]
    record = both(registry, drawn, 5)
    assert column(record, "nodes") == [1, 2, 3, 5, 5]
    assert column(record, "damage") == [0, 0, 1, 1, 2]
