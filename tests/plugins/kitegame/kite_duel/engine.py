"""Kite Duel's reference engine: one game, card by card, telling a ``Trace`` each step."""

from __future__ import annotations

import random

from deckcheck.sdk import (
    Card,
    Compiled,
    Record,
    Setup,
    Trace,
    _,
    card_names,
    expand,
    shuffled,
    take,
)


def play(
    setup: Setup, policy: Compiled, rng: random.Random, turns: int, on_play: bool,
    trace: Trace | None = None,
) -> Record:  # fmt: skip
    rules = setup.rules
    launch = bool(getattr(policy.policy, "launch", True))
    deck = shuffled(expand(setup.drawable), rng)  # the top is the end of the list
    record = Record(milestones=[0])
    hand: list[Card] = [deck.pop() for _ in range(rules.hand)]
    if trace is not None:
        trace.opening(hand)
    gliders = 0
    for turn in range(1, turns + 1):
        if trace is not None:
            trace.turn(turn)
        draws = len(rules.draws.before_main(turn, on_play))
        if len(deck) < draws:
            record.loss, record.loss_turn = "deck-out", turn  # the spec's one loss
            break
        drawn = [deck.pop() for _ in range(draws)]
        hand += drawn
        if trace is not None and drawn:
            trace.draw(drawn)
        ready = [c for c in hand if c.type == "glider"]
        if launch and ready and gliders < rules.param_int("gust"):
            card = ready[0]
            take(hand, card)
            gliders += 1
            record.milestones[0] = record.milestones[0] or turn
            if trace is not None:
                trace.step("play", _("launches {cards}", cards=card_names([card])))
        record.metrics.append((len(hand), gliders, len(deck)))
        if trace is not None:
            trace.state(_("{n} gliders in the air", n=gliders))
    return record
