"""The exact part of a goal's value: each odds term counted by ``odds.exact`` on a variant's
drawable cards, memoised by what the count depends on (the cards' groups under the term's
conditions), so variants that differ only within a group are counted once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from deckcheck import plugins
from deckcheck.formats import Format
from deckcheck.models import Card
from deckcheck.odds.conditions import Condition, parse_condition, parse_conditions
from deckcheck.odds.exact import exact_rows
from deckcheck.odds.mulligan import NONE
from deckcheck.odds.setup import Rules, drawable, problem_of, rules_of, timeline_of
from deckcheck.tune.goal import OddsTerm

Key = tuple[object, ...]


@dataclass
class OddsValues:
    """``values(cards)``: each odds term's probability for a main deck of ``cards``."""

    fmt: Format
    terms: Sequence[OddsTerm]
    on_play: bool = True
    rules: Rules = field(init=False)
    conditions: list[list[Condition]] = field(init=False)
    forced: Condition | None = field(init=False)
    memo: dict[Key, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rules = rules_of(self.fmt)
        self.conditions = [parse_conditions(list(t.wants), self.fmt.game) for t in self.terms]
        forced = self.rules.forced
        self.forced = parse_condition(f"{forced}>=1", self.fmt.game) if forced else None

    def key_of(self, card: Card) -> Key:
        """What a card is to every term: the conditions it counts toward and the forced
        selector's bit; its number too when the game sets cards aside before the deal
        (which card that is may change the drawable deck)."""
        bits = tuple(c.matches(card) for conds in self.conditions for c in conds)
        forced = self.forced is not None and self.forced.matches(card)
        aside = card.number if plugins.get(self.fmt.game).deal.set_aside is not None else ""
        return (*bits, forced, aside)

    def values(self, cards: Sequence[tuple[Card, int]]) -> tuple[float, ...]:
        drawn, _asides = drawable([(c, n) for c, n in cards if n > 0], self.fmt, None)
        out = []
        for i, term in enumerate(self.terms):
            problem = problem_of(drawn, self.conditions[i], self.rules.forced)
            key = (i, problem.sizes, problem.sigs, problem.rest)
            if key not in self.memo:
                self.memo[key] = self._count(problem, term.turn)
            out.append(self.memo[key])
        return tuple(out)

    def _count(self, problem: object, turn: int) -> float:
        from deckcheck.odds.exact import Problem

        assert isinstance(problem, Problem)
        rules = self.rules
        line = timeline_of(rules, turn, self.on_play, False)
        mulligan = rules.mulligan if not rules.forced else NONE
        rows = exact_rows(problem, line, mulligan, rules.forced is not None)
        return min(1.0, max(0.0, rows[turn]))
