"""The ChaosTCG engines proved equal game by game: the batch engine (games/chaos/fast.py and
its compiled loop fast_core.py) and the reference (engine.py) play the same games from one tape
of random numbers (tests/agreement.py ``same_games``), and every record must be identical: each
metric on each turn, the milestones, the mulligan, the loss and its turn. On every shipped
example deck the goldfish plays, with several pilots, and on a deck for each rule of ChaosTCG
総合ルール (2016-05-17) the engines model (the decks of tests/test_fast_chaos.py and
tests/test_play_rules.py, shuffled)."""

from __future__ import annotations

from typing import Any

import pytest

from deckcheck import decklist
from deckcheck.formats.registry import FormatRegistry
from deckcheck.games.chaos import encode, fast_core
from deckcheck.games.chaos.fast import play_batch, play_tape
from deckcheck.goldfish.common import GoldfishError
from deckcheck.goldfish.policy import default_policy
from deckcheck.goldfish.run import Chunk, prepare
from deckcheck.goldfish.setup import Setup
from deckcheck.resolve import CardIndex
from tests.agreement import DeckOut, deck_out_turn, decks_out, same_games, tapes
from tests.conftest import EXAMPLES
from tests.test_fast_chaos import POLICIES, SOLRAL, _hand_limit_setup, _named_setup
from tests.test_play_rules import chaos_card, chaos_setup, filler_chaos

# Games per case, a quarter of the 3,000 of before (issue 35): every branch of deckcheck/ that
# this file's run takes with 3,000 it still takes with 1,500 (coverage.py --branch: the same
# 655), and with 750 (the same 8,865 arcs as 1,500, 2026-12-04); the two engines' records are
# compared game by game.
GAMES = 750
DECK = 5  # the deck metric's column (games/chaos METRICS)
DECKS = sorted(p.name for p in EXAMPLES.glob("chaos-*.deck"))
REFUSED = {"chaos-standard-illegal.deck": "names a card no pool has"}


def exact(setup: Setup, turns: int, on_play: bool = True, games: int = GAMES) -> Chunk:
    assert encode.batch_ok(setup)
    return same_games(play_tape, setup, games, turns, on_play, seed=20, rows=2)


def rules_deck_out(setup: Setup, on_play: bool) -> DeckOut:
    """When ChaosTCG 総合ルール (2016-05-17) ends a game of ``setup`` by deck-out (§1.2: the
    draw of §7.3, 1 a turn, meets an empty deck), the pilot's attack draw (§8.3: the partner's
    attack draws 1 while the deck has one; none on the first player's first turn unless the
    format says) taking a card too."""
    first_attack = setup.rules.param_bool("first_player_first_turn_attack")
    pol = setup.policy.model_dump()

    def attack_draws(turn: int) -> int:
        return int(pol["attack_draw"] and not (turn == 1 and on_play and not first_attack))

    cards = sum(n for _, n in setup.drawable) - setup.rules.hand
    return deck_out_turn(cards, lambda turn: 1, attack_draws)


def example(index: CardIndex, registry: FormatRegistry, name: str, **changes: Any) -> Setup:
    parsed = decklist.parse((EXAMPLES / name).read_text(encoding="utf-8"), name)
    policy = default_policy("chaos").model_copy(update=changes)
    return prepare(parsed, registry.get(parsed.format or ""), index, policy)


@pytest.mark.parametrize("name", [d for d in DECKS if d not in REFUSED])
@pytest.mark.parametrize("changes", POLICIES, ids=["default", "no-sets-no-draw", "keep", "solral"])
def test_example_decks(
    index: CardIndex, registry: FormatRegistry, name: str, changes: dict[str, Any]
) -> None:
    fast = exact(example(index, registry, name, **changes), turns=10)
    if changes.get("keep"):
        assert fast.mulligans.mean() > 0.1  # the mulligan and its reshuffle were played


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_examples_left_out_are_refused_by_the_goldfish(
    index: CardIndex, registry: FormatRegistry, name: str
) -> None:
    with pytest.raises(GoldfishError):
        example(index, registry, name)


@pytest.mark.parametrize(
    ("beta", "changes", "on_play"),
    [
        (False, {}, True),
        (False, {"solral_charge": True, "keep": ("type:set>=1",)}, False),
        (True, {"play_first": ("power<=3", "type:chara")}, True),
    ],
    ids=["default", "solral-keep-second", "beta-low-first"],
)
def test_names_sets_and_extras(
    registry: FormatRegistry, beta: bool, changes: dict[str, Any], on_play: bool
) -> None:
    """ネーム (§2.1, §11.4), [TST ゲージ] (§13), level-ups (§10.3), extra charas paid from hand
    and arena (§10.1), [ソルラルチャージ] (§13), [BETA]: 25 turns, so every game decks out;
    going second, the partner attacks on turn 1 too, and on turn 22 the attack draw (§8.3)
    takes the deck's last card."""
    setup = _named_setup(registry, ("BETA",) if beta else (), **changes)
    fast = exact(setup, turns=25, on_play=on_play, games=1_000)
    out = rules_deck_out(setup, on_play)
    # 49 cards, 5 dealt: 2 a turn (1 on the first player's first turn); turn 24 (23) draws none
    assert out == ((24, 0) if on_play else (23, 0))
    decks_out(fast, out, deck=DECK)


@pytest.mark.parametrize("changes", [{}, {"solral_charge": True}], ids=["default", "solral"])
def test_hand_limit_level_up_and_append_rules(
    registry: FormatRegistry, changes: dict[str, Any]
) -> None:
    """§7.6 (events go first), §10.3, §13 [アラガミ] and [ソルラルチャージ]."""
    fast = exact(_hand_limit_setup(registry, **changes), turns=12)
    assert (fast.metrics[:, :, 0] == 7).any()  # the hand limit binds


def rule_decks(formats: FormatRegistry) -> dict[str, Setup]:
    """The decks of tests/test_play_rules.py's ChaosTCG rules, each a whole deck to shuffle."""
    partner = chaos_card("P", "相棒", "partner")
    okabe = chaos_card("P", "“所長”「岡部」", "partner")
    mitsuki = chaos_card("M", "“先輩”「神前 美月」", "partner")
    a = chaos_card("A", "見本キャラ A", power=9)
    b = chaos_card("B", "見本キャラ B", power=1)
    sets = [chaos_card(f"S{i}", f"道具{i}", "set") for i in range(4)]
    tst = [chaos_card(f"T{i}", f"ゲージ{i}", "set", append=("TST ゲージ",)) for i in range(3)]
    same = [chaos_card(f"O{i}", f"“助手{i}”「岡部」") for i in range(12)]
    kurisu = [chaos_card(f"K{i}", f"“助手{i}”「紅莉栖」") for i in range(12)]
    cost_ab = "見本キャラ A&見本キャラ B"
    x = chaos_card("X", "見本エクストラ", "extra", extra_cost=cost_ab)
    solral = chaos_card("SC", "“覚醒”「岡部」", "extra", append=(SOLRAL,))
    weak = [chaos_card(f"W{i}", f"“弱{i}”「岡部」", power=1) for i in range(8)]
    strong = chaos_card("S", "“強”「名S」", power=9)
    named = [chaos_card("S", "相棒", "set"), chaos_card("E", "相棒", "event")]
    aragami = chaos_card("X", "見本アラガミ", "extra", append=("アラガミ",), extra_cost="見本キャラ A")
    plain = chaos_card("Y", "見本エクストラ", "extra", extra_cost="見本キャラ A")
    aragami_chara = chaos_card("G", "見本アラガミ キャラ", append=("アラガミ",), power=9)
    solral_a = chaos_card(
        "SC", "“覚醒”「紅莉栖」", "extra", append=(SOLRAL,), extra_cost="見本キャラ A"
    )
    keep = {"mulligan": True, "keep": ("type:chara>=1",)}
    return {
        "§3.9 one set a chara": chaos_setup(formats, partner, [*sets, *sets, *sets, a]),
        "§13 TST ゲージ on 神前美月": chaos_setup(formats, mitsuki, [*tst, *tst, *tst, b]),
        "§11.4 ネーム clash": chaos_setup(formats, okabe, [*same, *kurisu], **keep),
        "§10.1 extra chara pays": chaos_setup(formats, partner, [a, b, a, *filler_chaos(6)], [x]),
        "§13 ソルラルチャージ covers the partner": chaos_setup(
            formats, okabe, [*filler_chaos(8), a], [solral], solral_charge=True
        ),
        "§7.6 events first": chaos_setup(formats, partner, [*filler_chaos(11), b], **keep),
        "§7.6 least wanted": chaos_setup(formats, okabe, [*weak, strong]),
        "§10.3 level-up by a chara card": chaos_setup(
            formats, partner, [*named * 3, chaos_card("C", "相棒"), *filler_chaos(6)]
        ),
        "§13 アラガミ": chaos_setup(
            formats, partner, [a, aragami_chara, *filler_chaos(7)], [aragami, plain]
        ),
        "§13 ソルラルチャージ only by its rule": chaos_setup(
            formats, partner, [a, *filler_chaos(7)], [solral_a], solral_charge=True
        ),
    }


RULES = [
    "§3.9 one set a chara",
    "§13 TST ゲージ on 神前美月",
    "§11.4 ネーム clash",
    "§10.1 extra chara pays",
    "§13 ソルラルチャージ covers the partner",
    "§7.6 events first",
    "§7.6 least wanted",
    "§10.3 level-up by a chara card",
    "§13 アラガミ",
    "§13 ソルラルチャージ only by its rule",
]


@pytest.mark.parametrize("rule", RULES)
def test_rule_decks(registry: FormatRegistry, rule: str) -> None:
    """Small decks: most games deck out, and the attack draw meets a one-card deck."""
    decks = rule_decks(registry)
    assert list(decks) == RULES
    fast = exact(decks[rule], turns=12)
    out = rules_deck_out(decks[rule], True)
    if out.turn <= 12:
        decks_out(fast, out, deck=DECK)
    else:  # the deck of 24 cards lasts 12 turns
        assert not fast.loss.any() and (fast.metrics[:, -1, DECK] == out.left).all()


def test_runs_and_tests_play_one_compiled_function(
    index: CardIndex, registry: FormatRegistry
) -> None:
    """What the exact tests prove holds for a run: a run (numba's numbers) and a test (a tape)
    call the same compiled game function, one machine code for both."""
    setup = example(index, registry, "chaos-standard-legal.deck")
    play_batch(setup, 1, 10, 5, True)
    play_tape(setup, tapes(10, 2, sum(n for _, n in setup.drawable), 0), 5, True)
    assert len(fast_core._games.signatures) == 1
