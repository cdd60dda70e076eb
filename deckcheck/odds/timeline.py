"""From a game's draw timeline (``Draws``, which its spec supplies) to what the odds engines
count: the cards off the top of the deck after the opening hand, in order, and which of them
reach the hand."""

from __future__ import annotations

from dataclasses import dataclass

from deckcheck.i18n import _
from deckcheck.odds.errors import OddsError
from deckcheck.plugins.deal import Draws


@dataclass(frozen=True)
class Timeline:
    """Cards in hand at each row: ``seen[t]`` (row 0: the kept opening hand) and how many cards
    have left the top of the deck by then (``consumed[t]``, stock included)."""

    hand: int
    seen: tuple[int, ...]
    consumed: tuple[int, ...]


def pattern(draws: Draws, turns: int, on_play: bool, optional: bool) -> tuple[list[int], list[int]]:
    """Positions after the opening hand: 1 = to hand, 0 = out of reach (a stock); and, per row
    (0: the opening hand; t: the start of your t-th main phase), how many of them are used up
    by then. ``optional``: count the draws the timeline lets a player choose to take."""
    if optional and not draws.optional:
        raise OddsError(
            _("this format's draw timeline has no optional draws; drop --optional-draws")
        )
    marks: list[int] = []
    used = [0]
    for t in range(1, turns + 1):
        marks += [int(card) for card in draws.before_main(t, on_play)]
        used.append(len(marks))
        if optional and t < turns:  # later in this turn, after this row's main phase starts
            marks += [int(card) for card in draws.after_main(t, on_play)]
    return marks, used


def timeline(hand: int, draws: Draws, turns: int, on_play: bool, optional: bool) -> Timeline:
    """Cards in hand (``seen``) and cards gone from the deck (``consumed``) at each row."""
    marks, used = pattern(draws, turns, on_play, optional)
    seen = tuple(hand + sum(marks[:u]) for u in used)
    return Timeline(hand, seen, tuple(hand + u for u in used))
