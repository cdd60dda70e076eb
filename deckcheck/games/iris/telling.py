"""What the あいりすミスティリア! reference engine tells a replay (``goldfish.trace``), in this
game's words: each step of the pilot, with why (engine.py)."""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.sdk import Card, _p, told
from deckcheck.sdk import card_names as names


def main_unit(card: Card) -> str:
    return _p(
        "iris", "{card} face down as the main unit (the pilot's first unit)", card=names([card])
    )


def charge(charges: int) -> str:
    return _p("iris", "charges a unit (once a turn; {n} in all)", n=charges)


def standby(card: Card) -> str:
    return _p("iris", "puts {card} into a standby slot (the pilot's order)", card=names([card]))


def command(card: Card, role: str) -> str:
    """A strategy (one a turn), a tactic (any) or an enhancement (on a unit that did not enter
    this turn)."""
    if role == "strategy":
        return _p("iris", "plays the strategy {card} (one a turn)", card=names([card]))
    if role == "tactic":
        return _p("iris", "plays the tactic {card}", card=names([card]))
    return _p(
        "iris",
        "sets the enhancement {card} on a unit that did not enter this turn",
        card=names([card]),
    )


def retreat(card: Card) -> str:
    return _p("iris", "retreats: {card} becomes the main unit", card=names([card]))


def state(
    main: Card, standby: Sequence[Card], slots: int, charges: int, hand: int, deck: int
) -> str:
    return _p(
        "iris",
        "main unit {main}; standby {n}/{slots}: {standby}; charges {charges}; hand {hand}, "
        "deck {deck}",
        n=len(standby),
        **told(main=main, slots=slots, standby=standby, charges=charges, hand=hand, deck=deck),
    )
