"""Goldfish: each phase rule on stacked decks, statistical laws, reproducibility, policies."""

from __future__ import annotations

import dataclasses
import json
import math
import pickle
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from deckcheck import decklist
from deckcheck.cli import app
from deckcheck.errors import AsideError, UnanswerableError
from deckcheck.formats.registry import FormatRegistry
from deckcheck.games.chaos import engine as chaos
from deckcheck.games.chaos import partner as chaos_partner
from deckcheck.games.chaos.tables import partner_of
from deckcheck.games.iris import engine as iris
from deckcheck.games.rakuen import engine as rakuen
from deckcheck.goldfish.common import DeckOut, Record
from deckcheck.goldfish.policy import Compiled, Policy, PolicyError, default_policy, load_policy
from deckcheck.goldfish.run import GoldfishRequest, chunks, goldfish, prepare, statistics
from deckcheck.goldfish.setup import Setup, game_seeds
from deckcheck.models import Card, Game
from deckcheck.odds.setup import rules_of
from deckcheck.resolve import CardIndex
from tests.agreement import chunks_agree, production_chunks
from tests.cli_run import CliRunner
from tests.conftest import EXAMPLES
from tests.test_exact_iris import FEW_UNITS
from tests.test_rules import IRIS_MAIN, RAKUEN_GATE, RAKUEN_MAIN, deck


class Stacked(random.Random):
    """Shuffles leave the list as it is: the deck's top is the end of the list."""

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        return None

    def random(self) -> float:  # equal sort keys: the stable sort keeps the order
        return 0.0


def card(index: CardIndex, game: Game, number: str) -> Card:
    found = index.resolve(game, number).card
    assert found is not None, number
    return found


@pytest.fixture(scope="module")
def formats(registry: FormatRegistry) -> FormatRegistry:
    return registry


def compiled(game: Game, **changes: object) -> Compiled:
    return Compiled(default_policy(game).model_copy(update=changes), game)


# --- rakuen phase rules ---------------------------------------------------------------------


def test_rakuen_level_card_face_down_on_first_players_first_turn(index: CardIndex) -> None:
    table = rakuen.Table([], Stacked(), 6, 4)
    table.hand = [card(index, "rakuen", "SAMPLE-R-T01")]
    rakuen._level_phase(table, compiled("rakuen"), face_up=False)
    assert table.level == [(card(index, "rakuen", "SAMPLE-R-T01"), False)]
    # face down, it still gives its color and world to a 合理体 (ch.2 §6 出撃条件 4)
    assert table.colors() == {"青", "見本ワールド"}


def deployable(table: rakuen.Table, card: Card) -> bool:
    """Whether the engine's main phase could deploy ``card`` now without covering members:
    its conditions (ch.3 §3) and room on the circles, as ``rakuen.play`` asks them."""
    return table.conditions(card) and table.room(card, (), over=False) is not None


def test_rakuen_level_gates_deployment(index: CardIndex) -> None:
    table = rakuen.Table([], Stacked(), 6, 4)
    level2 = card(index, "rakuen", "SAMPLE-R-004")  # level 2, cost 1
    table.stock = [card(index, "rakuen", "SAMPLE-R-T01")] * 3
    table.set_level([(card(index, "rakuen", "SAMPLE-R-T01"), True)])
    assert not deployable(table, level2)  # one level card: level 1 only
    table.set_level([*table.level, (card(index, "rakuen", "SAMPLE-R-T02"), True)])
    assert deployable(table, level2)
    table.stock = []
    assert not deployable(table, level2)  # its cost is paid from the stock


def test_rakuen_gouritai_needs_its_color_or_world(index: CardIndex) -> None:
    table = rakuen.Table([], Stacked(), 6, 4)
    gouritai = card(index, "rakuen", "SAMPLE-R-007")  # 合理体, level 3, 黄, 見本ワールド
    table.stock = [gouritai] * 5
    p03 = card(index, "rakuen", "SAMPLE-R-P03")
    other = p03.model_copy(update={"extra": {**p03.extra, "world": "別ワールド"}})
    table.set_level([(other, True)] * 3)  # 緑, another world
    assert not deployable(table, gouritai)
    table.set_level([(card(index, "rakuen", "SAMPLE-R-P03"), False)] * 3)  # 見本ワールド
    assert deployable(table, gouritai)


def test_rakuen_territory_fits_six_circles(index: CardIndex) -> None:
    table = rakuen.Table([], Stacked(), 6, 4)
    big = card(index, "rakuen", "SAMPLE-R-008")  # territory 4
    table.set_level([(card(index, "rakuen", "SAMPLE-R-P01"), True)] * 4)
    table.stock = [big] * 9
    member = card(index, "rakuen", "SAMPLE-R-004")  # territory 2
    table.place(member)
    table.place(member)
    assert not deployable(table, big)
    table.lift(member)
    assert deployable(table, big)


def test_rakuen_refresh_penalty_and_loss_at_two(index: CardIndex) -> None:
    filler = card(index, "rakuen", "SAMPLE-R-T01")
    table = rakuen.Table([], Stacked(), 6, 4)
    table.drop = [filler] * 5
    table.draw(1)  # empty deck: refresh, remove the top card, then draw
    assert (table.refreshes, table.penalties, len(table.deck), len(table.hand)) == (1, 1, 3, 1)
    table.deck = []
    table.drop = [filler] * 5
    with pytest.raises(DeckOut) as lost:
        table.draw(1)
    assert lost.value.reason == "refresh-penalty"
    empty = rakuen.Table([], Stacked(), 6, 4)
    with pytest.raises(DeckOut) as lost:
        empty.draw(1)
    assert lost.value.reason == "deck-out"


def test_rakuen_deck_shrinks_by_three_a_turn_without_luck_drive(
    index: CardIndex, formats: FormatRegistry
) -> None:
    fmt = formats.get("rakuen-standard")
    parsed = decklist.parse(deck("rakuen-standard", RAKUEN_MAIN, gate=RAKUEN_GATE))
    policy = default_policy("rakuen").model_copy(update={"luck_drive": False, "gattai": False})
    result = goldfish(parsed, fmt, index, policy, GoldfishRequest(games=300, turns=12, seed=4))
    decks = [row["deck_mean"] for row in result.per_turn]
    assert decks == [45 - 3 * t for t in range(1, 13)]
    assert all(row["deck_p10"] == row["deck_p90"] for row in result.per_turn)


# --- chaos phase rules ----------------------------------------------------------------------


def test_chaos_partner_card_must_be_the_partner(index: CardIndex, registry: FormatRegistry) -> None:
    partner = card(index, "chaos", "SAMPLE-C-P01")
    other = card(index, "chaos", "SAMPLE-C-001")
    rule = partner_of(registry.get("chaos-standard"))
    assert rule is not None
    with pytest.raises(AsideError):  # --aside cannot choose another than the partner card
        chaos_partner.choose(rule, [(other, 4), (partner, 1)], "SAMPLE-C-001", True)
    assert chaos_partner.choose(rule, [(other, 4), (partner, 1)], None, True) == partner
    assert chaos_partner.choose(rule, [(other, 4)], None, True) == other
    with pytest.raises(UnanswerableError):
        chaos_partner.choose(rule, [(card(index, "chaos", "SAMPLE-C-N01"), 4)], None, True)


def _chaos_game(
    index: CardIndex,
    formats: FormatRegistry,
    order: list[str],
    turns: int,
    fmt: str = "chaos-standard",
    **policy: object,
) -> Record:
    """Main deck listed bottom to top (the last card is drawn first), no mulligan. The first
    card is the partner, set aside."""
    cards = [card(index, "chaos", n) for n in order]
    main = [(c, 1) for c in cards]
    pilot = compiled("chaos", mulligan=False, **policy)
    rules = rules_of(formats.get(fmt))
    setup = Setup("chaos", {"main": main}, rules, pilot.policy, main[1:], (cards[0],))
    return chaos.play(setup, pilot, Stacked(), turns, True)


def test_chaos_level_up_needs_a_same_name_card(index: CardIndex, formats: FormatRegistry) -> None:
    # bottom to top: the partner card (set aside), then the cards drawn last to first
    plain = _chaos_game(index, formats, ["SAMPLE-C-P01", "SAMPLE-C-P01C", *["SAMPLE-C-001"] * 6], 1)
    assert plain.metrics[0][1] == 1  # its name's card stays at the bottom: no level-up
    levelled = _chaos_game(
        index, formats, ["SAMPLE-C-P01", *["SAMPLE-C-001"] * 5, "SAMPLE-C-P01C"], 1
    )
    assert levelled.metrics[0][1] == 2 and levelled.milestones[0] == 1


def test_chaos_one_friend_a_turn_into_four_areas_and_hand_limit(
    index: CardIndex, formats: FormatRegistry
) -> None:
    order = ["SAMPLE-C-P01"] + [f"SAMPLE-C-{i:03}" for i in range(1, 13)] * 3
    rec = _chaos_game(index, formats, order, 8, play_extras=False)
    friends = [m[2] for m in rec.metrics]
    assert friends == [1, 2, 3, 4, 4, 4, 4, 4]
    assert max(m[0] for m in rec.metrics) == 7  # hand_limit of chaos-standard (§7.6)
    no_attack = _chaos_game(index, formats, order, 2, attack_draw=False)
    attack = _chaos_game(index, formats, order, 2)
    # the partner's attack draw: none on the first player's first turn, one on turn 2
    assert attack.metrics[0][5] == no_attack.metrics[0][5]
    assert attack.metrics[1][5] == no_attack.metrics[1][5] - 1


def test_chaos_deck_out_loses_at_the_draw(index: CardIndex, formats: FormatRegistry) -> None:
    rec = _chaos_game(index, formats, ["SAMPLE-C-P01"] + ["SAMPLE-C-001"] * 7, 5)
    assert rec.loss == "deck-out" and rec.loss_turn == 3 and len(rec.metrics) == 2


# --- iris -----------------------------------------------------------------------------------


def test_iris_redraws_until_a_unit_and_fills_four_standby_slots(
    index: CardIndex, formats: FormatRegistry
) -> None:
    fmt = formats.get("iris-standard")
    parsed = decklist.parse(deck("iris-standard", IRIS_MAIN))
    result = goldfish(
        parsed, fmt, index, default_policy("iris"), GoldfishRequest(games=500, turns=8, seed=2)
    )
    assert max(r["standby_p90"] for r in result.per_turn) == 4
    assert result.milestones["standby_full"]["rate"] > 0.9
    no_units = decklist.parse(deck("iris-standard", [*IRIS_MAIN[6:-1], (26, "SAMPLE-I-T03")]))
    with pytest.raises(Exception, match="no unit"):
        prepare(no_units, fmt, index, default_policy("iris"))


def test_iris_enhancements_go_on_each_unit_that_entered_before_this_turn(
    formats: FormatRegistry,
) -> None:
    """あいりすミスティリア! TCG 詳しい遊び方 ターンの流れ (メインフェイズ): an enhancement goes
    on a unit that did not enter this turn. A deck's copies of a unit are one object in the
    engine, yet each copy is its own unit: the copy that entered on turn 1 takes an enhancement
    on turn 2, though another copy entered on turn 2."""
    unit = Card(game="iris", number="U", name="見本ユニット", type="unit", hp=3)
    enhancement = Card(game="iris", number="E", name="見本強化", type="enhancement")
    strategy = Card(game="iris", number="S", name="見本戦略", type="strategy")
    drawn = [unit, enhancement, enhancement, strategy, strategy, unit, unit, *[strategy] * 8]
    main = [(c, 1) for c in reversed(drawn)]
    pilot = Compiled(default_policy("iris"), "iris")
    setup = Setup("iris", {"main": main}, rules_of(formats.get("iris-standard")), pilot.policy, main)
    rec = iris.play(setup, pilot, Stacked(), 2, True)
    hand, standby, commands = ([m[i] for m in rec.metrics] for i in (0, 2, 4))
    assert standby == [1, 2] and commands == [1, 4] and hand == [3, 0]


def test_iris_one_unit_redraws_nine_times_on_average(
    index: CardIndex, formats: FormatRegistry
) -> None:
    fmt = formats.get("iris-standard")
    one_unit = [
        (1, "SAMPLE-I-U01"),
        *IRIS_MAIN[6:-1],
        (4, "SAMPLE-I-S03"),
        (4, "SAMPLE-I-S04"),
        (4, "SAMPLE-I-S05"),
        (4, "SAMPLE-I-T03"),
        (4, "SAMPLE-I-T04"),
        (4, "SAMPLE-I-T05"),
        (1, "SAMPLE-I-E03"),
    ]
    parsed = decklist.parse(deck("iris-standard", one_unit))
    games = 20_000
    result = goldfish(
        parsed, fmt, index, default_policy("iris"), GoldfishRequest(games=games, turns=1, seed=9)
    )
    # P(the unit is in 5 of 50) = 0.1: redraws are geometric with mean 9 and variance 90
    assert abs(result.summary["mulligans_mean"] - 9) <= 4.5 * math.sqrt(90 / games)


# --- runs -----------------------------------------------------------------------------------


def test_same_seed_same_results_with_any_workers(index: CardIndex, formats: FormatRegistry) -> None:
    fmt = formats.get("chaos-standard")
    parsed = decklist.parse((EXAMPLES / "chaos-standard-legal.deck").read_text(encoding="utf-8"))
    runs = [
        goldfish(
            parsed,
            fmt,
            index,
            default_policy("chaos"),
            GoldfishRequest(games=4500, turns=6, seed=11, workers=w),
        )
        for w in (1, 2)
    ]
    assert runs[0].summary == runs[1].summary
    assert runs[0].per_turn == runs[1].per_turn
    assert runs[0].milestones == runs[1].milestones
    other = goldfish(
        parsed, fmt, index, default_policy("chaos"), GoldfishRequest(games=4500, turns=6, seed=12)
    )
    assert other.per_turn != runs[0].per_turn


@pytest.mark.parametrize("games", [1, 4999, 5000, 12_345])
def test_every_chunk_carries_the_runs_game_seeds(
    index: CardIndex, formats: FormatRegistry, games: int
) -> None:
    """Game i gets the i-th seed of the run however the chunks are cut: a batch engine's chunks
    work out all but their first seed only when read, and keep them through a pickle (the
    way they travel to workers)."""
    fmt = formats.get("vision-standard")
    parsed = decklist.parse((EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8"))
    fast = prepare(parsed, fmt, index, default_policy("vision"))
    expected = game_seeds(5, games)
    for setup in (fast, dataclasses.replace(fast, fast=False)):
        parts = chunks(setup, games, 5)
        assert [start for start, _ in parts] == list(range(0, games, len(parts[0][1])))
        assert [seed for _, part in parts for seed in part] == expected
        assert [list(pickle.loads(pickle.dumps(part))) for _, part in parts] == [
            list(part) for _, part in parts
        ]
        assert [part[-1] for _, part in parts] == [list(part)[-1] for _, part in parts]
    assert len(chunks(fast, games, 5)) == -(-games // fast.spec.play.batch_size)


def test_statistics_of_nothing() -> None:
    setup = object.__new__(type("S", (), {}))
    assert statistics(setup, [], 3) == ({"games": 0}, [], {})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("keep = ['type:member']\n", "keep: 'type:member' is not 'SELECTOR OP K'"),
        ("play_first = ['colour:red']\n", "play_first: unknown selector"),
        ("luck_drive = 'often'\n", "luck_drive"),
        ("surprise = 1\n", "surprise"),
        ("game = 'chaos'\n", "game: the policy is for chaos"),
        ("keep = [\n", "not valid TOML"),
    ],
)
def test_bad_policy_files_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PolicyError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load_policy(path, "rakuen")


def test_yaml_policy(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("keep:\n  - 'type:paradox>=1'\nluck_drive: false\n", encoding="utf-8")
    policy = load_policy(path, "rakuen")
    assert policy.keep == ("type:paradox>=1",) and policy.luck_drive is False
    assert policy.level_area_first == default_policy("rakuen").level_area_first  # defaults kept
    assert isinstance(policy, Policy)


def test_cli_goldfish_outputs(tmp_path: Path) -> None:
    runner = CliRunner()
    db = ["--db", str(tmp_path / "g.sqlite3")]
    deck_file = str(EXAMPLES / "rakuen-standard-legal.deck")
    result = runner.invoke(
        app, ["goldfish", deck_file, "--games", "300", "--turns", "5", "--seed", "3", "--json", *db]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {
        "deck",
        "format",
        "games",
        "turns",
        "seed",
        "policy",
        "summary",
        "per_turn",
        "milestones",
    }
    assert data["summary"]["games"] == 300 and len(data["per_turn"]) == 5
    assert {"mulligans_mean", "loss_rate"} <= set(data["summary"])
    assert {
        "level_area_mean",
        "stock_mean",
        "members_mean",
        "refreshes_mean",
        "penalty_cards_mean",
        "hand_size_mean",
    } <= set(data["per_turn"][0])
    csv_file, pq, png = tmp_path / "g.csv", tmp_path / "g.parquet", tmp_path / "g.png"
    result = runner.invoke(
        app,
        [
            "goldfish",
            deck_file,
            "--games",
            "200",
            "--csv",
            str(csv_file),
            "--parquet",
            str(pq),
            "--plot",
            str(png),
            *db,
        ],
    )
    assert result.exit_code == 0, result.output
    import pandas as pd

    assert len(pd.read_csv(csv_file)) == 10 and len(pd.read_parquet(pq)) == 10
    assert png.read_bytes()[:4] == b"\x89PNG"
    bad = tmp_path / "bad.toml"
    bad.write_text("surprise = 1\n", encoding="utf-8")
    result = runner.invoke(app, ["goldfish", deck_file, "--policy", str(bad), *db])
    assert result.exit_code == 2 and "surprise" in result.stderr


def test_iris_fast_engine_agrees_with_the_reference(
    index: CardIndex, formats: FormatRegistry
) -> None:
    """Each engine on its production random numbers, which cannot be shared: the same
    distribution (game by game on one tape: tests/test_exact_iris.py)."""
    fmt = formats.get("iris-standard")
    for cards in (IRIS_MAIN, FEW_UNITS):
        setup = prepare(
            decklist.parse(deck("iris-standard", cards)), fmt, index, default_policy("iris")
        )
        chunks_agree(*production_chunks(setup, 6000, 12))


def test_histogram_percentiles_equal_numpys() -> None:
    import numpy as np

    from deckcheck.goldfish.histogram import percentile, quantiles
    from deckcheck.goldfish.run import BINS

    rng = np.random.default_rng(3)
    samples = [rng.integers(0, 40, size=int(rng.integers(1, 300))) for _ in range(100)]
    hists = np.stack([np.bincount(v, minlength=BINS) for v in samples]).astype(np.int64)
    for values, hist in zip(samples, hists, strict=True):
        for q in (10, 50, 90):
            assert percentile(hist, q) == pytest.approx(float(np.percentile(values, q)))
    # all at once, as a run's statistics take them, with a histogram that counts nothing
    table = quantiles(np.stack([hists, np.zeros_like(hists)]))
    for i, values in enumerate(samples):
        assert table["mean"][0, i] == pytest.approx(float(np.mean(values)))
        for key, q in (("p10", 10), ("p50", 50), ("p90", 90)):
            assert table[key][0, i] == pytest.approx(float(np.percentile(values, q)))
    assert all(np.isnan(table[key][1]).all() for key in ("mean", "p10", "p50", "p90"))


def test_a_slow_first_batch_chunk_is_explained_once(
    index: CardIndex, formats: FormatRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch engine's first run on a machine compiles it; the user hears why it waits."""
    from deckcheck.goldfish import compiling, run

    fmt = formats.get("iris-standard")
    parsed = decklist.parse(deck("iris-standard", IRIS_MAIN))
    play = run.play_chunk
    heard: list[str] = []
    told = threading.Event()

    def notice(message: str) -> None:
        heard.append(message)
        told.set()

    def slow_first(*args: object, **kwargs: object) -> object:
        # as a first call that compiles the engine: slow until the user was told (a fixed
        # sleep raced the notice's timer on a loaded machine; the guard only ends a hang);
        # later calls slow too, so a notice they wrongly gave would be heard
        if told.is_set():
            time.sleep(0.3)
        else:
            told.wait(timeout=120)
        return play(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(run, "play_chunk", slow_first)
    monkeypatch.setattr(compiling, "NOTICE_AFTER", 0.05)
    monkeypatch.setattr(compiling, "_STARTED", set())
    req = GoldfishRequest(games=50, turns=3)
    result = goldfish(parsed, fmt, index, default_policy("iris"), req, notice=notice)
    assert result.engine == "batch" and result.games == 50
    assert len(heard) == 1 and "iris goldfish engine is compiled on its first run" in heard[0]
    goldfish(parsed, fmt, index, default_policy("iris"), req, notice=notice)
    assert len(heard) == 1  # loaded now: a later run is not explained again


def test_both_sides_with_a_csv_is_refused_before_any_game(tmp_path: Path) -> None:
    """--both-sides plays two results; a CSV holds one side's rows, so it is refused up front
    (it used to write only the first side and say nothing of the second)."""
    out = tmp_path / "t.csv"
    deck = str(EXAMPLES / "rakuen-standard-legal.deck")
    done = CliRunner().invoke(
        app, ["goldfish", deck, "--games", "20", "--both-sides", "--csv", str(out)]
    )
    assert done.exit_code == 2 and "--both-sides" in done.output
    assert not out.exists()


def test_a_policy_file_naming_no_card_of_the_pool_is_refused(
    shipped_pool: Any, tmp_path: Path
) -> None:
    """A misspelt card in a policy file's ``keep`` or ``play_first`` matched nothing, and the
    run went on as if the key were empty (exit 0). Now it is exit 2 naming the key, with the
    pool's suggestion; a card the deck does not hold (N30) and a keyword are still fine."""
    deck = str(EXAMPLES / "vision-standard-legal.deck")
    db = ["--db", str(shipped_pool.path)]

    def run(text: str) -> Any:
        policy = tmp_path / "p.toml"
        policy.write_text(text, encoding="utf-8")
        return CliRunner().invoke(
            app, ["goldfish", deck, "--policy", str(policy), "--games", "50", *db]
        )

    typo = run("keep = ['name:霧雨 魔理紗>=1']\n")
    assert typo.exit_code == 2, typo.output
    assert "keep: 'name:霧雨 魔理紗'" in typo.stderr and "did you mean '霧雨 魔理沙'" in typo.stderr
    kind = run("play_first = ['kind:人形x']\n")
    assert kind.exit_code == 2 and "play_first: 'kind:人形x'" in kind.stderr, kind.output
    fine = run("play_first = ['N30', 'keyword:人形']\nkeep = ['type:キャラクター 1枚以上']\n")
    assert fine.exit_code == 0, fine.output
