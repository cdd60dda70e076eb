"""The variants a goldfish goal races: every concrete change within the limits that the
validator accepts (the deck as it is first), and the goal's score of a variant's games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deckcheck.goldfish.policy import default_policy
from deckcheck.goldfish.run import prepare
from deckcheck.goldfish.setup import Setup
from deckcheck.goldfish.tally import Tally
from deckcheck.i18n import _
from deckcheck.models import DeckList
from deckcheck.tune import exact
from deckcheck.tune.goal import Goal
from deckcheck.tune.race import by_turn
from deckcheck.tune.space import Changes, Space, apply, legal
from deckcheck.tune.values import OddsValues

MAX_ENUMERATED = 100_000  # concrete changes listed before the legal ones are picked


@dataclass(frozen=True)
class Field:
    arms: list[Changes]  # arms[0] is the deck as it is
    setups: list[Setup]
    exact_part: list[tuple[float, ...]]  # each variant's odds terms, counted
    milestone_index: dict[str, int]
    goal: Goal
    skipped: list[str]

    def shares(self, tally: Tally) -> list[tuple[int, int]]:
        """(games that reached each milestone term by its turn, games)."""
        return [
            (by_turn(tally, self.milestone_index[t.name], t.turn), tally.games)
            for t in self.goal.milestones
        ]

    def score(self, i: int, tally: Tally) -> float:
        """The goal's value of variant ``i`` on its games so far."""
        goal = self.goal
        odds = sum(t.weight * v for t, v in zip(goal.odds, self.exact_part[i], strict=True))
        fish = sum(
            t.weight * hits / n
            for t, (hits, n) in zip(goal.milestones, self.shares(tally), strict=True)
        )
        return odds + fish


def _every(space: Space) -> tuple[list[Changes], int]:
    """The concrete changes within the limits, fewest copies moved first (no change first),
    up to ``MAX_ENUMERATED``; and how many more there were."""
    cands = space.candidates
    lows = [c.low - c.count for c in cands]
    highs = [c.high - c.count for c in cands]
    every: list[Changes] = []
    more = 0
    for v in exact.moves(lows, highs, space.max_changes):
        if len(every) >= MAX_ENUMERATED:
            more += 1
            continue
        every.append(tuple(sorted((c.card.number, d) for c, d in zip(cands, v, strict=True) if d)))
    every.sort(key=lambda ch: sum(max(d, 0) for _n, d in ch))
    return every, more


def setups_of(decks: Sequence[DeckList], space: Space) -> list[Setup]:
    """Each deck ready to play, by the game's default goldfish pilot."""
    policy = default_policy(space.fmt.game)
    return [prepare(d, space.fmt, space.index, policy) for d in decks]


def field_of(space: Space, goal: Goal, values: OddsValues, most: int) -> Field:
    """The first ``most`` legal variants (fewest copies moved first), ready to play."""
    every, more = _every(space)
    arms: list[Changes] = []
    setups: list[Setup] = []
    exact_part: list[tuple[float, ...]] = []
    illegal = 0
    undealt: dict[str, int] = {}
    policy = default_policy(space.fmt.game)
    for changes in every:
        if len(arms) >= most:
            break
        deck = apply(space.deck, space.index, space.fmt.game, changes)
        if changes and not legal(deck, space.fmt, space.index):
            illegal += 1  # the deck as it is plays anyway: what the variants are measured by
            continue
        try:
            odds = values.values(exact.variant_cards(space, changes))
            setup = prepare(deck, space.fmt, space.index, policy)
        except exact.UNDEALT as exc:
            if not changes:
                raise
            undealt[str(exc)] = undealt.get(str(exc), 0) + 1
            continue
        arms.append(changes)
        setups.append(setup)
        exact_part.append(odds)
    skipped = list(space.skipped)
    skipped += [exact.cannot_deal(n, why) for why, n in undealt.items()]
    left = len(every) - len(arms) - illegal - sum(undealt.values()) + more
    if left:
        skipped.append(
            _(
                "{n} changes beyond the first {max} legal variants (--max-variants),"
                " never validated",
                n=left,
                max=most,
            )
        )
    if illegal:
        skipped.append(_("{n} changes the validator rejects", n=illegal))
    names = list(setups[0].milestones)
    index_of = {t.name: names.index(t.name) for t in goal.milestones}
    return Field(arms, setups, exact_part, index_of, goal, skipped)
