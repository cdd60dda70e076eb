"""What a goldfish worker needs to play games of one deck: picklable, built once per run."""

from __future__ import annotations

from dataclasses import dataclass

from deckcheck import games
from deckcheck.games.registry import GameSpec
from deckcheck.goldfish.policy import Policy
from deckcheck.models import Card
from deckcheck.odds.setup import Rules


@dataclass(frozen=True)
class Setup:
    """A deck ready to play: its sections, the format's rules and parameters, the pilot, and
    the cards the game set aside before the deal (``aside``: the ChaosTCG partner)."""

    game: str
    sections: dict[str, list[tuple[Card, int]]]
    rules: Rules
    policy: Policy
    drawable: list[tuple[Card, int]]  # the main deck without the cards set aside
    aside: tuple[Card, ...] = ()
    fast: bool = True  # use the spec's whole-chunk engine when it has one

    @property
    def spec(self) -> GameSpec:
        return games.get(self.game)

    @property
    def metrics(self) -> tuple[str, ...]:
        return self.spec.metrics

    @property
    def milestones(self) -> tuple[str, ...]:
        return self.spec.milestones

    def section(self, name: str) -> list[tuple[Card, int]]:
        return self.sections.get(name, [])
