"""Today's odds, pinned: every shipped format with its example decks, exact and seeded.

``data/odds_pinned.json`` was computed on main at 35b01d1, before the draw timeline and the
mulligan became strategy objects the game's spec supplies (issue 20), by ``compute_odds`` and
``deal_hands`` with the options each entry names. The refactor must not move a single figure:
exact rows compare with ``==``, not within a tolerance. Names from then: ``attack_draws`` is
the request's ``optional_draws`` now; a hand's ``partner``, ``gates`` and ``main_unit`` are
its ``aside`` entries of those roles.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from deckcheck import decks
from deckcheck.formats.registry import FormatRegistry
from deckcheck.odds.api import OddsRequest, compute_odds
from deckcheck.odds.hands import DealtHand, HandsRequest, deal_hands
from deckcheck.resolve import CardIndex
from tests.conftest import EXAMPLES

PINNED = json.loads((Path(__file__).parent / "data" / "odds_pinned.json").read_text("utf-8"))


def _case_id(case: dict[str, Any]) -> str:
    flags = [
        "play" if case.get("on_play", True) else "draw",
        "mull" if case.get("mulligan", True) else "nomull",
        *(["attack"] if case.get("attack_draws") else []),
    ]
    return f"{case['format']}:{case['deck']}:{'&'.join(case['want'])}:{','.join(flags)}"


@pytest.mark.parametrize("case", PINNED["exact"], ids=_case_id)
def test_exact_odds_are_unchanged(
    case: dict[str, Any], index: CardIndex, registry: FormatRegistry
) -> None:
    req = OddsRequest(
        want=case["want"],
        turns=6,
        on_play=case["on_play"],
        mulligan=case["mulligan"],
        optional_draws=case["attack_draws"],
    )
    deck = decks.read(EXAMPLES / case["deck"])
    result = compute_odds(deck, registry.get(case["format"]), index, req)
    assert [r.cards_seen for r in result.rows] == case["seen"]
    assert [r.probability for r in result.rows] == case["p"]
    assert result.mulligan == case["label"]


@pytest.mark.parametrize("case", PINNED["simulate"], ids=_case_id)
def test_seeded_simulation_is_unchanged(
    case: dict[str, Any], index: CardIndex, registry: FormatRegistry
) -> None:
    req = OddsRequest(want=case["want"], turns=3, simulate=20_000, seed=7)
    deck = decks.read(EXAMPLES / case["deck"])
    result = compute_odds(deck, registry.get(case["format"]), index, req)
    assert [r.probability for r in result.rows] == case["p"]
    assert [r.low for r in result.rows] == case["low"]


@pytest.mark.parametrize("case", PINNED["hands"], ids=_case_id)
def test_seeded_hands_are_unchanged(
    case: dict[str, Any], index: CardIndex, registry: FormatRegistry
) -> None:
    deck = decks.read(EXAMPLES / case["deck"])
    result = deal_hands(
        deck, registry.get(case["format"]), index, HandsRequest(count=4, seed=11, want=case["want"])
    )
    assert [_then(h) for h in result.hands] == case["hands"]


def _then(dealt: DealtHand) -> dict[str, Any]:
    """A dealt hand in the shape it had when the figures were pinned."""
    roles = {a.role: a.cards for a in dealt.aside}
    assert set(roles) <= {"partner", "gates", "main_unit"}
    return {
        **dealt.model_dump(exclude={"aside", "meets", "mulligan_meets"}),  # fields added after the pin
        "partner": roles["partner"][0] if "partner" in roles else None,
        "main_unit": roles["main_unit"][0] if "main_unit" in roles else None,
        "gates": roles.get("gates"),
    }


def test_copies_table_is_unchanged(index: CardIndex, registry: FormatRegistry) -> None:
    deck = decks.read(EXAMPLES / "rakuen-standard-legal.deck")
    req = OddsRequest(
        want=["type:paradox>=1", "kind:合理体>=1"], turns=4, table="name:SAMPLE-R-P01"
    )
    result = compute_odds(deck, registry.get("rakuen-standard"), index, req)
    got = [{"copies": e.copies, "p": [r.probability for r in e.rows]} for e in result.table or []]
    assert got == PINNED["table"]
