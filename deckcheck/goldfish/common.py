"""What every goldfish engine shares: the game record, keep rules on real hands, mulligans."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from deckcheck.errors import UnanswerableError
from deckcheck.goldfish.policy import Compiled
from deckcheck.i18n import _
from deckcheck.models import Card
from deckcheck.odds.conditions import Condition
from deckcheck.odds.exact import Problem
from deckcheck.odds.keep import kept_cards

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


class GoldfishError(UnanswerableError, ValueError):
    """A deck or request the simulator cannot play; the message is for the user."""


class DeckOut(Exception):
    """The player loses: a rules draw from an empty deck, or too many refresh penalties."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Record:
    """One game: per turn (index 0 = turn 1) the values of the game's metrics, the turn each
    milestone was first reached (0 = never), mulligans taken, and how the game ended.
    ``invariants`` holds what an engine checks of its own play (named in the game's engine
    module): tests read it, results do not show it."""

    metrics: list[tuple[int, ...]] = field(default_factory=list)
    milestones: list[int] = field(default_factory=list)
    mulligans: int = 0
    loss: str | None = None
    loss_turn: int = 0
    invariants: dict[str, int] = field(default_factory=dict)


class Keep:
    """The policy's keep rule evaluated on real hands (one card fills one slot)."""

    def __init__(self, conditions: Sequence[Condition]) -> None:
        self.conditions = tuple(conditions)
        self._sig: dict[int, int] = {}

    def signature(self, card: Card) -> int:
        sig = self._sig.get(id(card))
        if sig is None:
            sig = sum(1 << i for i, c in enumerate(self.conditions) if c.matches(card))
            self._sig[id(card)] = sig
        return sig

    def counts(self, hand: Sequence[Card]) -> dict[int, int]:
        out: dict[int, int] = {}
        for card in hand:
            sig = self.signature(card)
            if sig:
                out[sig] = out.get(sig, 0) + 1
        return out

    def meets(self, hand: Sequence[Card]) -> bool:
        if not self.conditions:
            return True
        counts = self.counts(hand)
        for i, c in enumerate(self.conditions):
            if c.bound is not None and sum(n for s, n in counts.items() if s >> i & 1) > c.bound:
                return False
        demands = [c.demand for c in self.conditions]
        return fills_every_slot([s for s, n in counts.items() for _ in range(n)], demands)

    def unmet(self, hand: Sequence[Card]) -> bool:
        """Whether ``hand`` fails the keep rule: a redeal mulligan's test (``deal``)."""
        return not self.meets(hand)

    def bottom(self, hand: list[Card]) -> tuple[list[Card], list[Card]]:
        """The bottom-once mulligan: (kept, bottomed) — keep the cards that fill an unmet slot."""
        counts = self.counts(hand)
        sigs = tuple(sorted(counts))
        if not sigs:
            return [], list(hand)
        problem = Problem(self.conditions, tuple(counts[s] for s in sigs), sigs, 0)
        keep = dict(zip(sigs, kept_cards(problem, tuple(counts[s] for s in sigs)), strict=True))
        kept, bottom = [], []
        for card in hand:
            sig = self.signature(card)
            if sig and keep.get(sig, 0) > 0:
                keep[sig] -= 1
                kept.append(card)
            else:
                bottom.append(card)
        return kept, bottom


def fills_every_slot(cards: Sequence[int], demands: Sequence[int]) -> bool:
    """Whether the cards (each a bit set of the conditions it may count toward) can fill every
    condition's ``demand`` slots, one card a slot. By Hall's theorem this is the keep rule's
    "every set of conditions is touched by as many cards as it demands"; found as a maximum
    matching (augmenting paths), so its work is cards² × conditions, not 2^conditions (100
    keep conditions held the service for minutes; issue 37)."""
    need = sum(demands)
    if need == 0:
        return True
    if need > len(cards):  # each card fills one slot at most
        return False
    demanding = [i for i, d in enumerate(demands) if d]
    held: dict[int, list[int]] = {i: [] for i in demanding}  # condition -> cards in its slots

    def place(card: int, seen: set[int]) -> bool:
        for i in demanding:
            if not cards[card] >> i & 1 or i in seen:
                continue
            seen.add(i)
            if len(held[i]) < demands[i]:
                held[i].append(card)
                return True
            for pos, other in enumerate(held[i]):  # move a card that can go elsewhere
                if place(other, seen):
                    held[i][pos] = card
                    return True
        return False

    filled = sum(place(card, set()) for card in range(len(cards)))
    return filled == need


T = TypeVar("T")
Tick = Callable[[int], None] | None  # a progress callback, heard between games (it may raise)


def ticking(records: Iterable[T], tick: Tick) -> Iterator[T]:
    """``records``, calling ``tick(0)`` after each: a job's cancel raises there, so a chunk of
    the reference engine stops within a game, not after its 2,000 (issue 37: a cancelled job
    with a heavy policy ran on 46 s)."""
    for record in records:
        yield record
        if tick is not None:
            tick(0)


def take(cards: list[Card], card: Card) -> None:
    """Remove this very card (by identity: pydantic equality compares every field)."""
    for i, c in enumerate(cards):
        if c is card:
            del cards[i]
            return
    raise ValueError(_("card not in list"))


def keep_of(policy: Compiled) -> Keep:
    return Keep(policy.keep)


class Tape(random.Random):
    """One game's random numbers written down in advance, for the exact tests: row ``r`` holds
    the 32-bit numbers of the game's ``r``-th shuffle. Shuffling n cards (top = end of the
    list) is Fisher–Yates from the top: step k = n - 1 - i swaps position i, from n - 1 down to
    1, with j = ``row[k] * (i + 1) >> 32``. A batch engine given the same rows
    (goldfish/shuffles.py) deals the same cards. Nothing else may draw from it: a game that does
    is an error, not a silent difference."""

    def __init__(self, rows: NDArray[np.uint32]) -> None:
        super().__init__(0)
        self.rows = rows
        self.used = 0  # shuffles so far

    def permute(self, cards: list[Card]) -> None:
        row = self.rows[self.used].tolist()
        self.used += 1
        for k, i in enumerate(range(len(cards) - 1, 0, -1)):
            j = row[k] * (i + 1) >> 32
            cards[i], cards[j] = cards[j], cards[i]

    def random(self) -> float:
        raise TypeError(_("a Tape only shuffles (common.shuffle)"))

    def getrandbits(self, k: int, /) -> int:
        raise TypeError(_("a Tape only shuffles (common.shuffle)"))


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """Shuffle in place. With a ``Tape`` (the exact tests), its next row's Fisher–Yates;
    otherwise by sorting on uniform keys: a uniform permutation, in C, several times faster
    than ``random.shuffle``'s Python loop (a stable sort keeps the order when the keys tie,
    which stacked-deck tests use)."""
    if isinstance(rng, Tape):
        rng.permute(cards)
    else:
        cards.sort(key=lambda _card: rng.random())


def redeal(deck: list[Card], hand: list[Card], size: int, rng: random.Random) -> list[Card]:
    """The hand goes back, the deck is shuffled, a new hand is drawn (top = end of list)."""
    deck += hand
    shuffle(deck, rng)
    return [deck.pop() for _ in range(size)]


def shuffled(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    pile = list(cards)
    shuffle(pile, rng)
    return pile


def expand(cards: Sequence[tuple[Card, int]]) -> list[Card]:
    return [c for c, n in cards for _ in range(n)]
