"""One goldfish game written down as it is played (``deckcheck goldfish --replay``).

A reference engine given a ``Trace`` tells it what happens, step by step, in words for people
(the current language, each game's rule words); given none it plays exactly as it does untraced
(tests/test_replay.py compares the records). The trace only reads the game: it never draws a
random number or touches a card list."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from deckcheck.i18n import _
from deckcheck.models import Card
from deckcheck.wording import listing


@dataclass
class Step:
    """One thing the pilot or the rules did: ``action``, a tag for machines (``hand``,
    ``draw``, ``play``, ``resource``, …), and ``text`` for people."""

    action: str
    text: str


@dataclass
class Turn:
    """The steps of one turn (turn 0: the set-up before the first turn) and the state the turn
    ended in (the resources, as the game counts them)."""

    turn: int
    steps: list[Step] = field(default_factory=list)
    state: str = ""


Redeal = tuple[Sequence[Card], Sequence[Card]]  # a mulligan: (cards returned, cards drawn)


class Trace:
    """What a reference engine tells while it plays one game."""

    def __init__(self) -> None:
        self.turns: list[Turn] = [Turn(0)]

    def turn(self, number: int) -> None:
        self.turns.append(Turn(number))

    def step(self, action: str, text: str) -> None:
        self.turns[-1].steps.append(Step(action, text))

    def state(self, text: str) -> None:
        self.turns[-1].state = text

    # --- what every game tells in the same words -----------------------------------------------

    def opening(self, first: Sequence[Card], mulligans: Sequence[Redeal] = ()) -> None:
        """The opening hand and the mulligan decision: kept, or each mulligan's cards returned
        and the ones drawn instead, in order."""
        self.step("hand", _("opening hand: {cards}", cards=names(first)))
        for returned, drawn in mulligans:
            self.mulligan(returned, drawn)
        if not mulligans:
            self.step("mulligan", _("keeps the hand"))

    def mulligan(self, returned: Iterable[Card], drawn: Iterable[Card]) -> None:
        self.step(
            "mulligan",
            _(
                "mulligan: returns {returned}; draws {drawn}",
                returned=names(returned),
                drawn=names(drawn),
            ),
        )

    def draw(self, cards: Iterable[Card]) -> None:
        self.step("draw", _("draws {cards}", cards=names(cards)))


def names(cards: Iterable[Card]) -> str:
    """Card names as printed, quoted and listed as the language does: “A”, “B” / 「A」、「B」
    (none: a dash). The quotes keep a name apart from the sentence around it."""
    # TRANSLATORS: one card name in a sentence; Japanese quotes it in 「」
    shown = [_("“{name}”", name=card.name) for card in cards]
    return listing(shown) if shown else "—"


def told(**values: object) -> dict[str, object]:
    """A state line's fields as a game's message shows them: a card, or a list of cards, as
    their names (``names``); a count as it is. ``_p(game, "hand {hand}; field: {field}",
    **told(hand=3, field=cards))``: each game words its own line, the fields are shown alike."""
    return {
        key: names([value]) if isinstance(value, Card)
        else names(value) if isinstance(value, Sequence) and not isinstance(value, str)
        else value
        for key, value in values.items()
    }  # fmt: skip


def gone(before: Sequence[Card], after: Sequence[Card]) -> list[Card]:
    """The cards of ``before`` not in ``after`` (by identity, copy by copy): what left a zone."""
    left = list(after)
    out = []
    for card in before:
        at = next((i for i, c in enumerate(left) if c is card), None)
        if at is None:
            out.append(card)
        else:
            del left[at]
    return out
