"""The ラクエンロジック engines proved equal game by game: the batch engine (games/rakuen/fast.py,
fast_core.py) and the reference (engine.py) play the same games from one tape of random numbers
(tests/agreement.py ``same_games``: the deal, every refresh of the deck, every shuffle after a
合体 search), and every record must be identical. On every shipped example deck with the
pilots of tests/test_fast_rakuen.py, under the format in force (hand limit 8) and ルールブック
Ver1.0 (none), and on a deck built for the rules the engines model."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from deckcheck import decklist
from deckcheck.formats.registry import FormatRegistry
from deckcheck.games.rakuen import fast_core, table
from deckcheck.games.rakuen.fast import batch_ok, play_batch, play_tape
from deckcheck.goldfish.policy import policy_from_keys
from deckcheck.goldfish.run import Chunk, prepare
from deckcheck.goldfish.setup import Setup
from deckcheck.models import Card
from deckcheck.odds.setup import rules_of
from deckcheck.resolve import CardIndex
from tests.agreement import deck_out_turn, same_games, tapes
from tests.conftest import EXAMPLES
from tests.test_fast_rakuen import LUCK
from tests.test_play_rules import filler, member

# Halved as the other games' were (issue 35); the one branch 1,000 games no longer take, a 合体
# search that empties the deck, has its own test: ``test_a_search_that_empties_the_deck``.
# Halved again: 500 games take the same 8,591 arcs of deckcheck/ as 1,000 (coverage.py
# --branch, 2026-12-04).
GAMES = 500
DECKS = sorted(p.name for p in EXAMPLES.glob("rakuen-*.deck"))
FORMATS = ("rakuen-standard", "rakuen-standard-1.0")
PILOTS: list[tuple[dict[str, Any], int]] = [  # (pilot keys, turns)
    ({}, 12),
    ({"gattai": False, "deploy_over": False, "luck_drive": False}, 12),
    (LUCK, 22),  # luck drives, refreshes, their penalties and the loss they bring
    ({"mulligan": False, "keep": ["kind:合理体>=1", "level<=1>=2"]}, 16),
    ({"keep": ["kind:合理体>=1", "type:member>=2"]}, 12),  # the bottom mulligan, often
]


def exact(setup: Setup, turns: int, on_play: bool = True) -> Chunk:
    assert batch_ok(setup)
    # a shuffle for the deal, each refresh (two at most: the second penalty loses) and each
    # 合体 from the deck (once a turn)
    return same_games(play_tape, setup, GAMES, turns, on_play, seed=30, rows=turns + 4)


# every pilot on the legal deck under the format in force; the default pilot and the luck
# drives on every deck and format
EXAMPLES_CASES = [
    *(("rakuen-standard-legal.deck", "rakuen-standard", keys, turns) for keys, turns in PILOTS),
    *(
        (name, format_id, keys, turns)
        for name in DECKS
        for format_id in FORMATS
        for keys, turns in (PILOTS[0], PILOTS[2])
        if (name, format_id) != ("rakuen-standard-legal.deck", "rakuen-standard")
    ),
]


@pytest.mark.parametrize(
    ("name", "format_id", "keys", "turns"),
    EXAMPLES_CASES,
    ids=[f"{c[0]}-{c[1]}-pilot{PILOTS.index((c[2], c[3]))}" for c in EXAMPLES_CASES],
)
def test_example_decks(
    index: CardIndex,
    registry: FormatRegistry,
    name: str,
    format_id: str,
    keys: dict[str, Any],
    turns: int,
) -> None:
    parsed = decklist.parse((EXAMPLES / name).read_text(encoding="utf-8"), name)
    policy = policy_from_keys("rakuen", keys, "test")
    fast = exact(prepare(parsed, registry.get(format_id), index, policy), turns)
    if keys is LUCK:
        assert (fast.loss == 2).any()  # refresh penalties lose


# The games of a 2,000-game tape (seed 30) whose 合体 search takes the deck's last card: the
# refresh of ラクエンロジック ルールブック Ver1.0 ch.3 §6 then interrupts the search (table.py,
# ``take_from_deck``). Found by playing the reference on all 2,000 with that branch counted.
EMPTIED_BY_SEARCH = [(2, [1809]), (3, [1748])]  # (pilot, games) on the legal deck


@pytest.mark.parametrize(("pilot", "games"), EMPTIED_BY_SEARCH, ids=["luck", "keep"])
def test_a_search_that_empties_the_deck(
    index: CardIndex,
    registry: FormatRegistry,
    monkeypatch: pytest.MonkeyPatch,
    pilot: int,
    games: list[int],
) -> None:
    """The rare branch, on the games that take it: both engines refresh the deck the search
    emptied, and play on alike (their records compared as in the exact test)."""
    emptied: list[int] = []
    take = table.Table.take_from_deck

    def counted(self: table.Table, card: Card) -> None:
        before = self.refreshes
        take(self, card)
        if self.refreshes > before:  # the search took the last card: the deck refreshed
            emptied.append(self.refreshes)

    monkeypatch.setattr(table.Table, "take_from_deck", counted)
    name = "rakuen-standard-legal.deck"
    parsed = decklist.parse((EXAMPLES / name).read_text(encoding="utf-8"), name)
    keys, turns = PILOTS[pilot]
    setup = prepare(parsed, registry.get("rakuen-standard"), index, policy_from_keys(
        "rakuen", keys, "test"
    ))  # fmt: skip
    assert batch_ok(setup)
    same_games(play_tape, setup, 2_000, turns, True, seed=30, rows=turns + 4, picked=games)
    assert emptied, "the picked games no longer empty the deck with a search"


def rules_deck(registry: FormatRegistry, format_id: str, **keys: Any) -> Setup:
    """40 constructed cards for ラクエンロジック ルールブック Ver1.0's rules the engines model:
    合体 from hand and from the deck (ch.3 §4) with copies of one 合理体 (each its own soul,
    ch.3 §5), deploying over lower members (ch.2 §6 出撃条件 3) of territory 1, 2 and 4 (ch.1
    §2), 合理体 color and world conditions from face-down level cards (出撃条件 4), a level area
    of other colors to swap, refreshes and their penalties (ch.3 §6, §10) through luck drives."""
    paradox = [
        Card(game="rakuen", number=f"P{i}", name=f"試験 P{i}", type="paradox", color=color)
        for i, color in enumerate(("赤", "青", "黄"))
    ]
    cards: list[tuple[Card, int]] = [
        (member("T1", "定理者", 1), 4),
        (member("E1", "使者", 1), 4),
        (member("T2", "定理者", 2, cost=1, territory=2), 3),
        (member("E2", "使者", 2, cost=1, territory=2), 3),
        (member("G2", "合理体", 3, cost=2, territory=2), 4),
        (member("G4", "合理体", 3, cost=2, territory=4), 3),
        (member("T4", "定理者", 4, cost=3, territory=4), 2),
        (member("E3", "使者", 3, cost=2), 4),
        (filler(1)[0], 6),
        (paradox[0], 3),
        (paradox[1], 2),
        (paradox[2], 2),
    ]
    policy = policy_from_keys("rakuen", keys, "test")
    rules = rules_of(registry.get(format_id))
    return Setup("rakuen", {"main": cards}, rules, policy, cards)


@pytest.mark.parametrize("format_id", FORMATS)
@pytest.mark.parametrize(
    ("keys", "turns"),
    [({}, 14), (LUCK, 22), ({"keep": ["kind:合理体>=1", "level<=1>=2"]}, 14)],
    ids=["default", "luck-swap", "keep"],
)
def test_rules_deck(
    registry: FormatRegistry, format_id: str, keys: dict[str, Any], turns: int
) -> None:
    setup = rules_deck(registry, format_id, **keys)
    fast = exact(setup, turns, on_play=keys is not LUCK)
    assert (fast.milestones[:, 2] > 0).mean() > 0.5  # 合理体 deployed in most games
    assert (fast.metrics[:, :, 5] > 0).any()  # refreshes


REFRESHES, DECK = 5, 7  # metric columns (games/rakuen METRICS)


@pytest.mark.parametrize(
    ("format_id", "on_play"), [(FORMATS[0], True), (FORMATS[1], False)], ids=["play", "draw"]
)
def test_the_deck_runs_out_on_the_turn_the_rules_give(
    registry: FormatRegistry, format_id: str, on_play: bool
) -> None:
    """ラクエンロジック ルールブック Ver1.0 ch.2 §4: 2 cards drawn and 1 to the stock a turn,
    from the first player's first turn on; without 合体 from the deck or luck drives nothing
    else leaves it. The draw that takes the last card refreshes it at once (ch.3 §6, §10):
    on that turn every game refreshes, or ends (deck-out) when its drop zone is empty; the
    second refresh penalty loses (敗北判定処理). So a refresh a card early or late fails."""
    setup = rules_deck(registry, format_id, gattai=False, luck_drive=False)
    rules = setup.rules
    per_turn = rules.draw_per_turn + rules.param_int("stock_per_turn")
    # the deck empties, and refreshes, in the turn a deck one card smaller could not give
    out = deck_out_turn(40 - rules.hand - 1, lambda turn: per_turn)
    assert out == (12, 1)  # 40 cards, 5 dealt: the 35th leaves with the 2nd draw of turn 12
    assert batch_ok(setup)
    fast = same_games(play_tape, setup, 500, 24, on_play, seed=31, rows=28)
    refreshed = fast.metrics[:, :, REFRESHES] > 0
    deck_out = np.where(fast.loss == 1, fast.loss_turn, 0)
    first = np.where(refreshed.any(axis=1), refreshed.argmax(axis=1) + 1, deck_out)
    assert (first == out.turn).all(), np.unique(first, return_counts=True)
    assert (fast.metrics[:, out.turn - 2, DECK] == out.left + 1).all()
    # then every game ends by turn 24: a second refresh penalty, or deck and drop zone empty
    assert (fast.loss > 0).all() and (fast.loss == 2).any()


def test_runs_and_tests_play_one_compiled_function(registry: FormatRegistry) -> None:
    """A run (numba's numbers) and a test (a tape) call the same compiled game function."""
    setup = rules_deck(registry, "rakuen-standard")
    play_batch(setup, 1, 10, 5, True)
    play_tape(setup, tapes(10, 9, sum(n for _, n in setup.drawable), 0), 5, True)
    assert len(fast_core.play_games.signatures) == 1
