"""What every reference engine opens with: its arguments as one ``GameArgs`` (``reference_engine``
gives a function of it the contract's ``play`` signature), and the deal: shuffle the main deck,
draw the opening hand, take the mulligans the game's rule or the pilot asks for, and tell the
trace (``sdk.deal``)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from deckcheck.goldfish.common import Keep, Record, expand, redeal, shuffled
from deckcheck.goldfish.policy import Compiled
from deckcheck.goldfish.setup import Setup
from deckcheck.goldfish.trace import Redeal, Trace
from deckcheck.models import Card
from deckcheck.odds.setup import Rules


@dataclass(frozen=True)
class GameArgs:
    """One goldfish game to play: the arguments of a reference engine's ``play``
    (``contract.Engine``): the set-up, the pilot, the random source (a ``Tape`` in the exact
    tests), how many turns, whether the deck goes first, and the trace a replay tells (None:
    none)."""

    setup: Setup
    policy: Compiled
    rng: random.Random
    turns: int
    on_play: bool
    trace: Trace | None = None

    @property
    def rules(self) -> Rules:
        """The format's rules and parameters (``setup.rules``)."""
        return self.setup.rules


def reference_engine(body: Callable[[GameArgs], Record]) -> Callable[..., Record]:
    """A game's ``play`` (``GameSpec.play``, ``contract.Engine``) from a function of one
    ``GameArgs``: the arguments every reference engine takes are listed once, by ``GameArgs``."""

    @functools.wraps(body)
    def play(*args: Any, **kwargs: Any) -> Record:
        return body(GameArgs(*args, **kwargs))

    return play


@dataclass
class Opening:
    """A game after its deal: the deck (top = end of the list), the hand, and the record
    (``mulligans`` counted, every milestone still 0)."""

    deck: list[Card]
    hand: list[Card]
    record: Record


def deal(
    setup: Setup,
    rng: random.Random,
    milestones: int,
    trace: Trace | None = None,
    redeal_while: Callable[[list[Card]], bool] | None = None,
    most: int = 1,
    bottom: Keep | None = None,
    short: bool = False,
) -> Opening:
    """Shuffle ``setup.drawable``, draw ``rules.hand`` cards, then while ``redeal_while(hand)``
    holds, up to ``most`` times: the hand goes back, the deck is shuffled and a new hand drawn
    (``common.redeal``), each one a mulligan. With ``bottom`` instead, the bottom mulligan once
    when the hand fails that keep rule: the cards that fill no unmet slot go to the bottom of
    the deck, as many are drawn (``Keep.bottom``). The trace gets the opening hand and each
    mulligan's cards returned and drawn. A deck too small for the hand raises IndexError
    (``goldfish.run`` words it), unless ``short``: then the hand is what there is."""
    size = setup.rules.hand
    deck = shuffled(expand(setup.drawable), rng)
    record = Record(milestones=[0] * milestones)
    hand = [deck.pop() for _ in range(min(size, len(deck)) if short else size)]
    first, redeals = list(hand), list[Redeal]()
    while redeal_while is not None and record.mulligans < most and redeal_while(hand):
        returned = hand
        hand = redeal(deck, hand, size, rng)
        record.mulligans += 1
        if trace is not None:
            redeals.append((returned, list(hand)))
    if bottom is not None and bottom.unmet(hand):
        hand, returned = bottom.bottom(hand)
        deck[:0] = returned  # to the bottom, in any order
        drawn = [deck.pop() for _ in range(len(returned))]
        hand += drawn
        record.mulligans = 1
        if trace is not None and returned:
            redeals.append((returned, drawn))
    if trace is not None:
        trace.opening(first, redeals)
    return Opening(deck, hand, record)
