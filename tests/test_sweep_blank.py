"""The blank fill card (deckcheck/blank.py, deckcheck/sweep/blank.py): deckcheck's device for
comparing copy counts, outside the rulebooks. It keeps the deck's size and counts for nothing:
it matches no condition, the pilot never plays it (both engines of every game hold it alike),
and a variant is judged without it, except for the size it keeps. Intervals: each milestone
share of a sweep comes with its 95% Wilson score interval (statistics, not a game rule)."""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

import pytest
from fastapi.testclient import TestClient

from deckcheck import decklist
from deckcheck.blank import BLANK_NUMBER, blank_card
from deckcheck.formats.registry import FormatRegistry
from deckcheck.goldfish.policy import policy_from_keys
from deckcheck.goldfish.run import play_chunk, prepare
from deckcheck.models import DeckEntry, DeckList
from deckcheck.odds.conditions import parse_conditions
from deckcheck.odds.simulate import wilson
from deckcheck.resolve import CardIndex
from deckcheck.sweep.blank import with_blank
from deckcheck.sweep.run import SweepRequest, sweep
from tests.agreement import same_games
from tests.conftest import EXAMPLES
from tests.test_jobs import _done, _result, http, service

__all__ = ["http", "service"]

GAMES = {"vision": "vision-standard", "rakuen": "rakuen-standard", "chaos": "chaos-standard",
         "iris": "iris-standard"}  # fmt: skip
ROWS = {"vision": 2, "rakuen": 10, "chaos": 2, "iris": 16}  # shuffles a game's tape holds


def legal(fmt: str) -> DeckList:
    return decklist.parse((EXAMPLES / f"{fmt}-legal.deck").read_text(encoding="utf-8"))


def blanked(deck: DeckList, lines: int) -> DeckList:
    """``deck`` with its first ``lines`` main-deck lines replaced by as many blank cards."""
    main = [e for e in deck.entries if e.section == "main"][:lines]
    n = sum(e.count for e in main)
    entries = [e for e in deck.entries if e not in main] + [DeckEntry("main", n, BLANK_NUMBER, None)]
    return deck.model_copy(update={"entries": entries})


def blank_index(index: CardIndex, deck: DeckList, game: str) -> CardIndex:
    return with_blank(index, game, [e.ref for e in deck.entries])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_both_engines_play_a_deck_with_blanks_alike(
    index: CardIndex, registry: FormatRegistry, game: str
) -> None:
    # before the blank: VISION's and iris's batch engines had no code for a card of no type
    fmt = GAMES[game]
    deck = blanked(legal(fmt), 3)
    setup = prepare(deck, registry.get(fmt), blank_index(index, deck, game),
                    policy_from_keys(game, {}, "test"))  # fmt: skip
    play_tape = importlib.import_module(f"deckcheck.games.{game}.fast").play_tape
    same_games(play_tape, setup, 400, 8, True, seed=22, rows=ROWS[game])


def test_the_vision_pilot_never_plays_a_blank(index: CardIndex, registry: FormatRegistry) -> None:
    # a deck of blanks only: nothing is ever playable or played (before: a blank, needing no
    # node and costing nothing, was counted playable and played every turn)
    deck = decklist.parse("format: vision-standard\n[main]\n50 BLANK\n")
    setup = prepare(deck, registry.get("vision-standard"), blank_index(index, deck, "vision"),
                    policy_from_keys("vision", {}, "test"))  # fmt: skip
    names = setup.spec.play.metrics
    for fast in (True, False):
        chunk = play_chunk(dataclasses.replace(setup, fast=fast), 0, list(range(1, 201)), 5, True)
        for metric in ("playable", "played", "characters", "damage"):
            assert (chunk.metrics[:, :, names.index(metric)] == 0).all(), (fast, metric)


@pytest.mark.parametrize("selector", ["name:blank", "number:BLANK"])
def test_a_blank_matches_no_condition(selector: str) -> None:
    (condition,) = parse_conditions([f"{selector}>=1"], "vision")
    assert not condition.matches(blank_card("vision"))


def run(index: CardIndex, registry: FormatRegistry, **options: Any) -> Any:
    req = SweepRequest(vary=["name:大妖精=0..3"], want=["name:大妖精>=1"], games=300, seed=3,
                       turns=4, **options)  # fmt: skip
    return sweep([(None, legal("vision-standard"))], registry.get("vision-standard"), index, req)


def test_a_blank_fill_plays_every_legal_copy_count(
    index: CardIndex, registry: FormatRegistry
) -> None:
    # VISION's copy limit is 3 (「Phantom Magic Vision 総合ルール」 §1.2.2.b); the example holds
    # 3 大妖精, so 0..3 copies need 0..3 blanks to keep the 50 cards (§1.2.2.a)
    result = run(index, registry, fill="blank")
    assert [v.keys["name:大妖精"] for v in result.variants] == [0, 1, 2, 3]
    assert all(v.legal for v in result.variants), [v.violations for v in result.variants]
    odds = [v.odds["name:大妖精>=1"] for v in result.variants]
    assert odds[0] == [0.0] * 5  # no copy, never in hand: the blanks do not count as one
    assert odds[1][-1] < odds[2][-1] < odds[3][-1]
    for v in result.variants:
        for name, m in v.milestones.items():
            assert len(m["low"]) == len(m["high"]) == len(m["by_turn"]) == 4, name
            for share, low, high in zip(m["by_turn"], m["low"], m["high"], strict=True):
                assert (low, high) == wilson(round(share * 300), 300)
                assert low <= share <= high
            assert m["rate_interval"][0] <= m["rate"] <= m["rate_interval"][1]


def test_a_blank_fill_leaves_the_deck_rules_in_force(
    index: CardIndex, registry: FormatRegistry
) -> None:
    # 4 copies break the copy limit (§1.2.2.b) whatever fills the deck; and with no blank to
    # take out, the deck would be 51 cards: the sweep says the fill is short (before: a crash,
    # the message's _ shadowed by a variable)
    req = SweepRequest(vary=["name:大妖精=3..4"], fill="blank", games=0)
    result = sweep([(None, legal("vision-standard"))], registry.get("vision-standard"), index, req)
    assert [v.legal for v in result.variants] == [True, False]
    assert {x.rule for x in result.variants[1].violations} == {"sweep/fill", "vision/copies", "vision/main-size"}


def test_any_pool_card_can_fill(index: CardIndex, registry: FormatRegistry) -> None:
    # N4 (マエリベリー・ハーン) is in neither section: its copies rise as 大妖精's fall
    req = SweepRequest(vary=["name:大妖精=0..3"], fill="N4", want=["number:N4>=1"], games=0,
                       turns=3)  # fmt: skip
    result = sweep([(None, legal("vision-standard"))], registry.get("vision-standard"), index, req)
    assert [v.legal for v in result.variants] == [True] * 4
    last = [v.odds["number:N4>=1"][-1] for v in result.variants]
    assert last[0] > last[1] > last[2] > last[3] == 0.0
    # N12 is in the sideboard, 3 copies: main and side are limited together (§1.2.5.b)
    req = req.model_copy(update={"vary": ["name:大妖精=2..3"], "fill": "N12", "want": []})
    result = sweep([(None, legal("vision-standard"))], registry.get("vision-standard"), index, req)
    assert [v.legal for v in result.variants] == [False, True]
    assert {x.rule for x in result.variants[0].violations} == {"vision/copies"}


def test_the_service_takes_a_blank_fill(http: TestClient) -> None:
    deck = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    body = {"deck": deck, "vary": ["name:大妖精=0..3"], "fill": "blank", "want": ["name:大妖精>=1"],
            "games": 100, "turns": 3}  # fmt: skip
    started = http.post("/sweeps", json=body)
    assert started.status_code == 202, started.text
    result = _result(http, _done(http, started.headers["location"]))
    assert [v["legal"] for v in result["variants"]] == [True] * 4
    assert all(len(m["low"]) == 3 for v in result["variants"] for m in v["milestones"].values())
    unknown = http.post("/sweeps", json={**body, "fill": "no such card"})
    assert unknown.status_code == 422
