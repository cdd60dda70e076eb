"""The deal and the end of a game, as a game's spec declares them (issue 20, branch i20-deal).

Everything here is data or a small pure object the core asks about, so that odds, sample
hands and goldfish never name a game:

- ``Loss``: a way a goldfish game ends, with its label and its rule;
- ``Aside``: cards the deal sets aside, lays out or marks (a partner, gates, a main unit);
- ``Draws``: the draw timeline, which cards leave the deck each turn and which reach the hand;
- ``COMMON_MULLIGANS``: the mulligan rules the core ships (``deckcheck.odds.mulligan``); a
  game names its own in its spec's ``mulligans``.

Imports only the standard library and ``deckcheck.i18n`` (which imports only the standard
library), so it can sit at the bottom of the import graph beside the game contract. Labels and
rules are marked ``N_``: they are translated where they are shown.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from deckcheck.i18n import N_

C = TypeVar("C")

# The mulligan rules ``deckcheck.odds.mulligan`` ships; a format's ``mulligan`` is one of these
# or one of its game's own (``GameSpec.deal.mulligans``).
COMMON_MULLIGANS = ("none", "return-all-once", "bottom-once")


@dataclass(frozen=True)
class Loss:
    """A way a goldfish game is lost. An engine ends a game with ``Record.loss = name``; a
    batch engine reports the loss as ``1 + `` its index in the spec's ``losses``."""

    name: str  # the key in JSON output: "deck-out"
    label: str  # what people read
    rule: str  # the rulebook (title, edition, section), or "deckcheck's reading"


def deck_out(rule: str) -> Loss:
    """The loss most games share: a draw the rules require from an empty deck."""
    return Loss("deck-out", N_("deck-out"), rule)


@dataclass(frozen=True)
class Aside(Generic[C]):
    """Cards the deal puts somewhere the draw does not reach, or marks in the hand.

    ``role`` is a key for programs, ``label`` what people read, ``note`` the rule; ``in_hand``:
    the cards were taken from the dealt hand and are still listed there (a face-down unit)."""

    role: str
    label: str
    cards: tuple[C, ...]
    note: str = ""
    in_hand: bool = False


# (main deck, format, the player's choice or None, whether to pick when none is named)
#   -> (the cards that can be drawn, what was set aside before the deal)
SetAside = Callable[
    [Sequence[tuple[Any, int]], Any, "str | None", bool],
    tuple[list[tuple[Any, int]], list[Aside[Any]]],
]
# (every section of the deck, format, the deal's random source) -> what is laid out
LayOut = Callable[[Mapping[str, Sequence[tuple[Any, int]]], Any, random.Random], list[Aside[Any]]]
# (the dealt hand, format) -> cards of it the deal marks (in_hand)
FromHand = Callable[[Sequence[Any], Any], list[Aside[Any]]]


@dataclass(frozen=True)
class Draws:
    """A draw timeline: the cards that leave the top of the deck in each turn.

    ``before_main`` lists, in order, the cards taken before the turn's main phase: True reaches
    the hand, False goes out of reach (a stock). ``after_main`` lists cards a player may choose
    to draw later in the turn; they count only when asked for (``optional`` describes them, ""
    when the timeline has none). The common timeline: ``per_turn`` cards a turn, none on the
    first player's first turn unless ``first_player_draws``. Games subclass it."""

    per_turn: int = 1
    first_player_draws: bool = True

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> Draws:
        return cls(int(params["draw_per_turn"]), bool(params["first_player_draws"]))

    @property
    def optional(self) -> str:
        return ""

    def before_main(self, turn: int, on_play: bool) -> tuple[bool, ...]:
        skip = turn == 1 and on_play and not self.first_player_draws
        return (True,) * (0 if skip else self.per_turn)

    def after_main(self, turn: int, on_play: bool) -> tuple[bool, ...]:
        return ()
