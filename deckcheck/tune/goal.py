"""What a tune raises: a goal of weighted terms, each an odds condition by a turn (exact) or a
goldfish milestone by a turn (simulated). The goal's value is the weighted sum of the terms."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deckcheck import plugins
from deckcheck.errors import UsageError
from deckcheck.i18n import _
from deckcheck.models import Game
from deckcheck.odds.conditions import Condition, parse_conditions


@dataclass(frozen=True)
class OddsTerm:
    """P(every condition holds) by ``turn`` (0: the opening hand), counted exactly."""

    wants: tuple[str, ...]
    turn: int
    weight: float = 1.0

    def label(self) -> str:
        return _("{wants} by turn {turn}", wants=" & ".join(self.wants), turn=self.turn)


@dataclass(frozen=True)
class MilestoneTerm:
    """The share of goldfish games that reach ``name`` by ``turn``, simulated."""

    name: str
    turn: int
    weight: float = 1.0

    def label(self) -> str:
        from deckcheck.goldfish.output import word

        return _("{milestone} by turn {turn}", milestone=word(self.name), turn=self.turn)


Term = OddsTerm | MilestoneTerm


@dataclass(frozen=True)
class Goal:
    terms: tuple[Term, ...]

    @property
    def exact(self) -> bool:
        """Only odds terms: every value is counted, none is played."""
        return all(isinstance(t, OddsTerm) for t in self.terms)

    @property
    def odds(self) -> tuple[OddsTerm, ...]:
        return tuple(t for t in self.terms if isinstance(t, OddsTerm))

    @property
    def milestones(self) -> tuple[MilestoneTerm, ...]:
        return tuple(t for t in self.terms if isinstance(t, MilestoneTerm))

    @property
    def turns(self) -> int:
        """The goldfish turns to play: the latest milestone turn."""
        return max((t.turn for t in self.milestones), default=0)


def make_goal(
    game: Game,
    wants: Sequence[str],
    turn: int | None,
    milestones: Sequence[str],
    by: int | None,
    weights: Sequence[float] = (),
) -> Goal:
    """The goal of the options: the ``wants`` as one term (all must hold, as ``odds`` reads
    them) by ``turn``, then each milestone by ``by``; ``weights`` in that order (default 1).
    Raises ``UsageError`` naming what is missing or unknown (exit 2, 422)."""
    terms: list[Term] = []
    if wants:
        if turn is None:
            raise UsageError(_("--want needs --turn N (0: the opening hand)"))
        conditions: list[Condition] = parse_conditions(list(wants), game)
        terms.append(OddsTerm(tuple(c.text for c in conditions), turn))
    known = plugins.get(game).play.milestones
    for name in milestones:
        if name not in known:
            raise UsageError(
                _("no milestone {name} ({known})", name=repr(name), known=", ".join(known))
            )
        if by is None or by < 1:
            raise UsageError(_("--milestone needs --by N (a turn from 1)"))
        terms.append(MilestoneTerm(name, by))
    if not terms:
        raise UsageError(_("give a goal: --want COND --turn N, or --milestone NAME --by N"))
    if weights:
        if len(weights) != len(terms):
            raise UsageError(
                _("{n} weights for {terms} goal terms", n=len(weights), terms=len(terms))
            )
        terms = [
            OddsTerm(t.wants, t.turn, w)
            if isinstance(t, OddsTerm)
            else MilestoneTerm(t.name, t.turn, w)
            for t, w in zip(terms, weights, strict=True)
        ]
    return Goal(tuple(terms))
