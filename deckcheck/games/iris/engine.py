"""あいりすミスティリア! TCG goldfish (詳しい遊び方): no opponent, card text not executed.

Setup (対戦の準備): shuffle, draw 5; a hand with no unit is revealed, shuffled back and redrawn,
as often as needed (each counts as a mulligan); one unit goes face down to the main area.
Turn (ターンの流れ): draw the format's ``draw_per_turn`` (1: 1. ドローフェイズ ①; a deck that
cannot give them loses, ※), on the first player's first turn too unless the format's
``first_player_draws`` says otherwise (the page gives no exception); main phase: one charge a
turn on a unit, units from hand into free standby slots (4, an assumption from the Q&A), one
strategy a turn, any tactics, enhancements on units that did not enter this turn and were not
set this turn (none on your own first turn), retreat at most once a turn (off by default:
nothing attacks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from deckcheck.games.iris import MILESTONES, telling
from deckcheck.sdk import (
    Card,
    DeckOut,
    GameArgs,
    GoldfishError,
    Record,
    Trace,
    _,
    deal,
    ranker,
    reference_engine,
    take,
)

if TYPE_CHECKING:
    from deckcheck.games.iris import IrisPolicy

MAX_REDRAWS = 100_000


def _no_unit(hand: list[Card]) -> bool:
    return not any(c.type == "unit" for c in hand)


class SetupError(GoldfishError):
    """A deck without units can never start a game."""


@reference_engine
def play(game: GameArgs) -> Record:
    setup, rules, policy, rng, trace = game.setup, game.rules, game.policy, game.rng, game.trace
    pol = cast("IrisPolicy", policy.policy)
    standby_slots = rules.param_int("standby_slots")
    if not any(c.type == "unit" and n > 0 for c, n in setup.drawable):
        raise SetupError(_("the deck has no unit: the opening hand can never be kept"))
    # a hand with no unit is revealed, shuffled back and drawn again (each a mulligan)
    dealt = deal(setup, rng, len(MILESTONES), trace, _no_unit, MAX_REDRAWS)
    deck, hand, record = dealt.deck, dealt.hand, dealt.record
    if _no_unit(hand):  # pragma: no cover - needs a unit to be impossible
        raise SetupError(_("no unit after 100,000 redraws"))
    rank = ranker(policy, policy.play_first)
    main_unit = min((c for c in hand if c.type == "unit"), key=rank)
    take(hand, main_unit)
    if trace is not None:
        trace.step("play", telling.main_unit(main_unit))
    standby: list[Card] = []
    charges = commands = 0
    for turn in range(1, game.turns + 1):
        if trace is not None:
            trace.turn(turn)
        try:
            drawn = len(rules.draws.before_main(turn, game.on_play))
            if len(deck) < drawn:
                raise DeckOut("deck-out")
            hand.extend(deck.pop() for _ in range(drawn))
            if trace is not None and drawn:
                trace.draw(hand[len(hand) - drawn :])
            entered = 0  # units into standby this turn: the last ones of ``standby``
            if pol.charge:
                charges += 1  # once a turn, on one unit
                if trace is not None:
                    trace.step("resource", telling.charge(charges))
            free_slots = max(standby_slots - len(standby), 0)
            units = sorted((c for c in hand if c.type == "unit"), key=rank) if free_slots else []
            for card in units[:free_slots]:  # the pilot's first, while a slot is free
                take(hand, card)
                standby.append(card)
                entered += 1
                if trace is not None:
                    trace.step("play", telling.standby(card))
            if len(standby) >= standby_slots and not record.milestones[0]:
                record.milestones[0] = turn
            if pol.use_commands:
                commands += _commands(hand, [main_unit, *standby], entered, turn, trace)
            if pol.retreat and standby:  # at most once a turn: the main unit swaps out
                main_unit, standby[0] = standby[0], main_unit
                if trace is not None:
                    trace.step("play", telling.retreat(main_unit))
        except DeckOut as out:
            record.loss, record.loss_turn = out.reason, turn
            break
        if trace is not None:
            slots = standby_slots
            trace.state(telling.state(main_unit, standby, slots, charges, len(hand), len(deck)))
        record.metrics.append(
            (len(hand), 1 + len(standby), len(standby), charges, commands, len(deck))
        )
    return record


def _commands(
    hand: list[Card], units: list[Card], entered: int, turn: int, trace: Trace | None
) -> int:
    """The main phase's commands: one strategy a turn, any tactics, and enhancements on units
    that did not enter this turn (the last ``entered`` of ``units``); returns how many."""
    commands = 0
    strategy = next((c for c in hand if c.type == "strategy"), None)
    if strategy is not None:  # one strategy a turn
        take(hand, strategy)
        commands += 1
        if trace is not None:
            trace.step("play", telling.command(strategy, "strategy"))
    for card in [c for c in hand if c.type == "tactic"]:  # any number
        take(hand, card)
        commands += 1
        if trace is not None:
            trace.step("play", telling.command(card, "tactic"))
    if turn > 1:  # nobody sets on their own first turn
        # by position: a deck's copies of a unit are one object, each its own unit
        targets = units[: len(units) - entered]
        for card in [c for c in hand if c.type == "enhancement"]:
            if not targets:
                break
            targets.pop(0)  # one enhancement per unit per turn
            take(hand, card)
            commands += 1
            if trace is not None:
                trace.step("play", telling.command(card, "enhancement"))
    return commands
