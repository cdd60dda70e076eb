"""The toy fifth game's own deal, through the library, the CLI and the service: a champion set
aside before the deal, its own mulligan rule (``bottom-two``) and its own loss reason
(``overflow``). Nothing in ``deckcheck/`` names them: the toy's spec declares them
(``tests/plugins/toygame``; its rules are deckcheck's test fixture, outside the rulebooks)."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from deckcheck import decklist, plugins
from deckcheck.cli import app
from deckcheck.errors import AsideError, GameContractError
from deckcheck.formats import Format, FormatError
from deckcheck.formats.registry import FormatRegistry, default_registry
from deckcheck.goldfish.run import GoldfishRequest, goldfish
from deckcheck.models import DeckList
from deckcheck.odds.api import OddsRequest, compute_odds
from deckcheck.odds.hands import HandsRequest, deal_hands
from deckcheck.plugins.deal import deck_out
from deckcheck.pool.store import Pool
from deckcheck.resolve import CardIndex
from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.cli_run import CliRunner
from tests.conftest import TOY

DECK = TOY / "legal.deck"
runner = CliRunner()

# The legal deck: 11 creatures (2 of them 大竜, cost 3, the champion the toy picks) and 9 spells.
# After the champion is set aside 19 cards are drawn from: 10 creatures, 9 spells.
DRAWN, SPELLS = 19, 9


@pytest.fixture(autouse=True)
def _forget_replacements() -> Iterator[None]:
    """Tests that swap the toy's spec with ``register(replace=True)`` leave the entry point's
    spec in force for the next test."""
    yield
    plugins.unregister("toy")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "toy.sqlite3"
    with Pool(path) as pool:  # the shipped cards, and the toy's
        pool.import_files([TOY / "cards.csv"])
    return path


@pytest.fixture
def setup(toy: plugins.GameSpec, db: Path) -> tuple[DeckList, Format, CardIndex]:
    with Pool(db) as pool:
        index = CardIndex(pool.all_cards(), names=pool.names)
    fmt = FormatRegistry([TOY]).get("toy-standard")
    return decklist.parse(DECK.read_text(encoding="utf-8"), "legal.deck"), fmt, index


def miss(total: int, hits: int, drawn: int) -> float:
    """P(no hit among ``drawn`` cards from ``total`` holding ``hits``): math.comb only."""
    return math.comb(total - hits, drawn) / math.comb(total, drawn)


def at_least(k: int, total: int, hits: int, drawn: int) -> float:
    return sum(
        math.comb(hits, j) * math.comb(total - hits, drawn - j) for j in range(k, drawn + 1)
    ) / math.comb(total, drawn)


def one_spell(turns: int) -> list[float]:
    """``type:spell>=1`` with bottom-two: a hand of 4 creatures puts 2 under the deck and
    draws 2 from the 15 cards left (9 spells); each turn draws one more (the first player
    too: the format keeps the common first_player_draws)."""
    bad = miss(DRAWN, SPELLS, 4)
    return [1 - bad * miss(DRAWN - 4, SPELLS, 2 + t) for t in range(turns + 1)]


def two_spells(turns: int) -> list[float]:
    """``type:spell>=2``: a hand with no spell puts 2 creatures under and needs 2 spells
    among the next 2 + t cards of 15 holding 8; a hand with 1 spell keeps it and needs 1 more
    among 2 + t of 15 holding 7. A good hand stays good (more cards only add spells)."""
    hand = [at_least(s, DRAWN, SPELLS, 4) - at_least(s + 1, DRAWN, SPELLS, 4) for s in range(5)]
    good = 1 - hand[0] - hand[1]
    return [
        good
        + hand[0] * at_least(2, DRAWN - 4, SPELLS, 2 + t)
        + hand[1] * at_least(1, DRAWN - 4, SPELLS - 1, 2 + t)
        for t in range(turns + 1)
    ]


# --- the library ----------------------------------------------------------------------------


def test_exact_odds_with_the_toy_mulligan_and_champion(setup: Any) -> None:
    deck, fmt, index = setup
    one = compute_odds(deck, fmt, index, OddsRequest(want=["type:spell>=1"], turns=4))
    assert one.method == "exact" and [r.cards_seen for r in one.rows] == [4, 5, 6, 7, 8]
    assert [r.probability for r in one.rows] == pytest.approx(one_spell(4), abs=1e-12)
    assert [(a.role, a.cards) for a in one.aside] == [("champion", ["大竜 (TOY-2)"])]
    assert one.mulligan.startswith("put 2 cards no condition needs under the deck and draw 2")
    two = compute_odds(deck, fmt, index, OddsRequest(want=["type:spell>=2"], turns=4))
    assert [r.probability for r in two.rows] == pytest.approx(two_spells(4), abs=1e-12)
    plain = compute_odds(
        deck, fmt, index, OddsRequest(want=["type:spell>=2"], turns=0, mulligan=False)
    )
    assert plain.rows[0].probability == pytest.approx(at_least(2, DRAWN, SPELLS, 4), abs=1e-12)
    assert plain.rows[0].probability < two.rows[0].probability


@pytest.mark.parametrize("want", [["type:spell>=1"], ["type:spell>=2", "cost<=1<=1"]])
def test_both_simulators_follow_the_toy_mulligan(setup: Any, want: list[str]) -> None:
    """The count sampler (``--simulate``) and the whole-deck sampler play bottom-two as the
    exact engine counts it, within 4.5 standard errors."""
    from deckcheck.odds.api import deck_cards
    from deckcheck.odds.conditions import parse_conditions
    from deckcheck.odds.setup import drawable, problem_of, rules_of
    from deckcheck.odds.simulate import Simulator

    deck, fmt, index = setup
    exact = compute_odds(deck, fmt, index, OddsRequest(want=want, turns=3))
    games_ = 40_000
    counted = compute_odds(
        deck, fmt, index, OddsRequest(want=want, turns=3, simulate=games_, seed=4)
    )
    rules = rules_of(fmt)
    cards, _ = drawable(deck_cards(deck, fmt, index), fmt, None)
    problem = problem_of(cards, parse_conditions(want, fmt.game), rules.forced)
    placed = Simulator(problem, rules, 5).rows_by_position(games_, 3, True, False, True)
    for e, c, p in zip(exact.rows, counted.rows, placed, strict=True):
        se = math.sqrt(max(e.probability * (1 - e.probability), 1e-9) / games_)
        assert abs(c.probability - e.probability) <= 4.5 * se, (e, c)
        assert abs(p.probability - e.probability) <= 4.5 * se, (e, p)


def test_sample_hands_show_the_champion_and_take_bottom_two(setup: Any) -> None:
    deck, fmt, index = setup
    dealt = deal_hands(deck, fmt, index, HandsRequest(count=40, seed=3, want=["type:spell>=2"]))
    assert all(
        [(a.role, a.cards) for a in h.aside] == [("champion", ["大竜 (TOY-2)"])]
        for h in dealt.hands
    )
    taken = [h for h in dealt.hands if h.mulligan is not None]
    assert taken  # some of 40 hands hold fewer than 2 spells
    for h in taken:
        assert h.returned is not None and len(h.returned) == 2 and len(h.mulligan or []) == 4
        stayed = list(h.hand)
        for card in h.returned:  # the two under the deck are creatures (they fill no slot)
            assert "TOY-3" not in card and "TOY-4" not in card and "TOY-7" not in card
            stayed.remove(card)
        assert stayed == (h.mulligan or [])[:2]  # the other two stay, two new ones follow
    chosen = deal_hands(deck, fmt, index, HandsRequest(count=2, seed=1, aside="小鬼"))
    assert chosen.hands[0].aside[0].cards == ["小鬼 (TOY-5)"]
    with pytest.raises(AsideError, match="the champion must be a creature"):
        deal_hands(deck, fmt, index, HandsRequest(count=1, seed=1, aside="火の玉"))


def test_goldfish_reports_the_toy_loss_with_its_label(toy: plugins.GameSpec, setup: Any) -> None:
    deck, fmt, index = setup
    req = GoldfishRequest(games=200, turns=10, seed=2)
    result = goldfish(deck, fmt, index, toy.play.default_policy, req)
    # hand_max = 7: 4 cards, +1 a turn, at most 2 creatures played: 8 cards after turn 6
    assert set(result.summary["losses"]) == {"deck-out", "overflow"}
    assert result.summary["losses"]["overflow"] > 0.9
    assert {r.name: r.label for r in result.loss_reasons} == {
        "deck-out": "deck-out",
        "overflow": "hand overflow",
    }
    assert all("test fixture" in r.rule for r in result.loss_reasons)
    assert [(a.role, a.cards) for a in result.aside] == [("champion", ["大竜 (TOY-2)"])]
    pilot = toy.play.default_policy.model_copy(update={"champion": "森の精"})  # the pilot's choice
    chosen = goldfish(deck, fmt, index, pilot, GoldfishRequest(games=20, turns=2))
    assert chosen.aside[0].cards == ["森の精 (TOY-6)"]


def test_an_undeclared_loss_reason_names_the_game_and_reason(
    toy: plugins.GameSpec, setup: Any
) -> None:
    deck, fmt, index = setup
    plugins.register(dataclasses.replace(toy, play=dataclasses.replace(toy.play, losses=(deck_out("toy"),))), replace=True)
    with pytest.raises(GameContractError, match=r"game 'toy'.*'overflow'.*declared: deck-out"):
        goldfish(deck, fmt, index, toy.play.default_policy, GoldfishRequest(games=20, turns=10))


def test_a_format_names_a_mulligan_its_game_has(toy: plugins.GameSpec, tmp_path: Path) -> None:
    text = (TOY / "toy-standard.toml").read_text(encoding="utf-8")
    (tmp_path / "x.toml").write_text(
        text.replace('id = "toy-standard"', 'id = "x"').replace("bottom-two", "bottom-three"),
        encoding="utf-8",
    )
    with pytest.raises(FormatError, match=r"'bottom-three' is not one of .*bottom-once, bottom-two"):
        FormatRegistry([tmp_path]).get("x")


# --- the CLI --------------------------------------------------------------------------------


def _cli(args: list[str], db: Path) -> Any:
    fmt = ["--format", str(TOY / "toy-standard.toml"), "--db", str(db)]
    return runner.invoke(app, [*args, *fmt])


def test_cli_odds_hand_goldfish(toy: plugins.GameSpec, db: Path) -> None:
    odds = _cli(["odds", str(DECK), "-w", "type:spell>=1", "--turns", "4", "--json"], db)
    assert odds.exit_code == 0, odds.output
    data = json.loads(odds.stdout)
    assert [r["probability"] for r in data["rows"]] == pytest.approx(one_spell(4), abs=1e-12)
    assert data["aside"][0]["role"] == "champion"
    text = _cli(["odds", str(DECK), "-w", "type:spell>=1"], db).stdout
    assert "champion, set aside: 大竜 (TOY-2)" in text and "draw 2, once" in text
    hand = _cli(["hand", str(DECK), "--aside", "TOY-5", "--seed", "1"], db)
    assert hand.exit_code == 0 and "champion, set aside: 小鬼 (TOY-5)" in hand.stdout
    bad = _cli(["hand", str(DECK), "--aside", "TOY-3"], db)
    assert bad.exit_code == 2 and "the champion must be a creature" in bad.stderr
    fish = _cli(["goldfish", str(DECK), "--games", "100", "--seed", "1"], db)
    assert fish.exit_code == 0, fish.output
    assert "(deck-out 0.0%, hand overflow " in fish.stdout and "refresh" not in fish.stdout
    assert "lost by hand overflow: toy rules" in fish.stdout
    assert "champion, set aside: 大竜 (TOY-2)" in fish.stdout
    data = json.loads(_cli(["goldfish", str(DECK), "--games", "50", "--json"], db).stdout)
    assert [r["name"] for r in data["loss_reasons"]] == ["deck-out", "overflow"]


def test_cli_undeclared_loss_is_exit_70_with_a_message(toy: plugins.GameSpec, db: Path) -> None:
    plugins.register(dataclasses.replace(toy, play=dataclasses.replace(toy.play, losses=(deck_out("toy"),))), replace=True)
    fish = _cli(["goldfish", str(DECK), "--games", "20"], db)
    assert fish.exit_code == 70
    assert "game 'toy': its engine ended a game with loss reason 'overflow'" in fish.stderr
    assert "Traceback" not in fish.output


# --- the service ----------------------------------------------------------------------------


@pytest.fixture
def http(toy: plugins.GameSpec, db: Path) -> Iterator[TestClient]:
    service = create_app(Settings(db=db, workers=1))
    service.state.registry = default_registry([TOY])
    with TestClient(service, raise_server_exceptions=False) as client:
        yield client


def test_service_odds_hand_goldfish(http: TestClient) -> None:
    deck = DECK.read_text(encoding="utf-8")
    body = {"deck": deck, "format": "toy-standard"}
    odds = http.post("/odds", json={**body, "want": ["type:spell>=1"], "turns": 4})
    assert odds.status_code == 200, odds.text
    rows = [r["probability"] for r in odds.json()["rows"]]
    assert rows == pytest.approx(one_spell(4), abs=1e-12)
    hand = http.post("/hand", json={**body, "aside": "小鬼", "seed": 3}).json()
    assert hand["hands"][0]["aside"] == [
        {
            "role": "champion",
            "label": "champion, set aside",
            "cards": ["小鬼 (TOY-5)"],
            "note": "toy rules (deckcheck's test fixture, outside the rulebooks): the champion",
            "in_hand": False,
        }
    ]
    bad = http.post("/hand", json={**body, "aside": "火の玉"})
    assert bad.status_code == 422 and "the champion must be a creature" in bad.json()["detail"]
    pilot = {"champion": "TOY-6"}
    fish = http.post("/goldfish", json={**body, "games": 100, "turns": 10, "policy": pilot})
    assert fish.status_code == 200, fish.text
    assert set(fish.json()["summary"]["losses"]) == {"deck-out", "overflow"}
    assert fish.json()["loss_reasons"][1]["label"] == "hand overflow"
    assert fish.json()["aside"][0]["cards"] == ["森の精 (TOY-6)"]


def test_service_undeclared_loss_is_a_500_that_says_why(toy: plugins.GameSpec, db: Path) -> None:
    plugins.register(dataclasses.replace(toy, play=dataclasses.replace(toy.play, losses=(deck_out("toy"),))), replace=True)
    service = create_app(Settings(db=db, workers=1))  # its worker starts with this spec
    service.state.registry = default_registry([TOY])
    body = {"deck": DECK.read_text(encoding="utf-8"), "format": "toy-standard", "games": 20}
    with TestClient(service, raise_server_exceptions=False) as client:
        answer = client.post("/goldfish", json=body)
    assert answer.status_code == 500
    assert "loss reason 'overflow'" in answer.json()["detail"]


def test_the_loader_knows_the_mulligans_odds_ship() -> None:
    """formats/schema.py checks a format's ``mulligan`` against plugins/deal.py's names without
    importing NumPy; they must be the mulligan rules ``odds.mulligan`` ships."""
    from deckcheck.odds.mulligan import COMMON
    from deckcheck.plugins.deal import COMMON_MULLIGANS

    assert tuple(COMMON) == COMMON_MULLIGANS
    assert all(rule.name == name for name, rule in COMMON.items())
