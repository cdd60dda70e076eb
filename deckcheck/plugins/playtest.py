"""A game's table for the builder's playtester (issue 32): its zones and the steps of its turn,
as its spec declares them (``GameSpec.play.playtest``).

The builder deals a deck onto these zones and lets the player move cards by hand; it applies
only what is declared here (the opening deal, each turn's draw, readying, a card put in a
zone) and shows the rest as reminders, the player's to follow. So every game gets a
playtester and nothing outside the game names a zone.

A game's ``playtest`` hook returns its table in the language of the moment: its labels are
the game's own words (literal ``_p(game id, ...)`` calls, which the catalogue extracts), and
each step names its rulebook. Imports only the standard library and ``deckcheck.i18n``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from deckcheck.i18n import _

# draw: cards from the deck to the hand; wake: every card of ``zones`` stands up (is woken);
# stock: cards from the top of the deck to ``zones[0]``; remind: shown, never applied.
StepAction = Literal["draw", "wake", "stock", "remind"]
ParamValue = int | float | str | bool

NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


@dataclass(frozen=True)
class Zone:
    """A place cards are in. ``hidden``: face down, the page shows how many, not which (the
    deck). ``sleeps``: its cards can be slept and woken (rested, stood). ``sections``: the deck
    sections laid here at the start (the main deck goes to the deck zone, shuffled); ``types``:
    card types of the main deck set here before the shuffle (a partner); ``take``: of the
    sections, only the first N after a shuffle, the rest going to zone ``rest``."""

    name: str
    label: str
    hidden: bool = False
    sleeps: bool = False
    sections: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    take: int | None = None
    rest: str | None = None
    rule: str = ""

    def __post_init__(self) -> None:
        if not NAME.match(self.name):
            raise ValueError(
                _("playtest zone {name}: use a-z, 0-9 and _, a letter first", name=repr(self.name))
            )
        if (self.take is None) != (self.rest is None):
            raise ValueError(
                _("playtest zone {name}: give both take and rest, or neither", name=repr(self.name))
            )


@dataclass(frozen=True)
class Step:
    """One step of a turn, in order. ``count``: cards (draw, stock), a number or the name of the
    format parameter that gives it. ``when``: applied only when the format's parameter has this
    value (else shown as not applying). ``first_turn``: the format's yes/no parameter saying
    whether the first player's first turn has this step; None: it has. ``param``: a format
    parameter a reminder shows as ``{n}`` in its label (a hand limit). ``rule``: the rulebook
    by title and section, or "deckcheck's reading"."""

    name: str
    label: str
    action: StepAction
    rule: str
    zones: tuple[str, ...] = ()
    count: int | str = 1
    when: tuple[str, ParamValue] | None = None
    first_turn: str | None = None
    param: str | None = None
    skips_first_turn: bool = False  # not on the first player's first turn, whatever the format

    def __post_init__(self) -> None:
        if self.action in ("wake", "stock") and not self.zones:
            raise ValueError(_("playtest step {name}: name its zones", name=repr(self.name)))


@dataclass(frozen=True)
class Playtest:
    """A game's table: its zones (the page shows them in this order), its turn's steps, which
    zone is the deck and which the hand, and notes (what the player must follow alone)."""

    zones: tuple[Zone, ...]
    steps: tuple[Step, ...]
    deck: str = "deck"
    hand: str = "hand"
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = [z.name for z in self.zones]
        if len(set(names)) != len(names) or {self.deck, self.hand} - set(names):
            raise ValueError(_("playtest: a zone named twice, or no deck or hand zone"))
        named = {z for s in self.steps for z in s.zones} | {
            z.rest for z in self.zones if z.rest is not None
        }
        if named - set(names):
            raise ValueError(
                _("playtest: steps name unknown zones: {names}", names=sorted(named - set(names)))
            )


def deck_and_hand(deck: str, hand: str) -> tuple[Zone, Zone]:
    """The zones every game has: the deck (the main deck, shuffled, face down) and the hand."""
    return Zone("deck", deck, hidden=True, sections=("main",)), Zone("hand", hand)


def draw_step(label: str, rule: str) -> Step:
    """The turn's draw, as the format's common parameters say: ``draw_per_turn`` cards, and on
    the first player's first turn only if ``first_player_draws``."""
    return Step("draw", label, "draw", rule, count="draw_per_turn", first_turn="first_player_draws")


def hand_limit_step(name: str, label: str, rule: str) -> Step:
    """A reminder of the hand limit, the format's ``hand_limit`` shown as ``{n}`` in ``label``."""
    return Step(name, label, "remind", rule, param="hand_limit")
