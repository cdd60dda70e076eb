"""What a goldfish worker needs to play games of one deck: picklable, built once per run."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast, overload

import numpy as np

from deckcheck import plugins
from deckcheck.goldfish.policy import Policy
from deckcheck.models import Card
from deckcheck.odds.setup import Rules
from deckcheck.plugins.deal import Aside
from deckcheck.plugins.registry import GameSpec


@dataclass(frozen=True)
class Setup:
    """A deck ready to play: its sections, the format's rules and parameters, the pilot, and
    the cards the game's spec set aside before the deal (``aside``)."""

    game: str
    sections: dict[str, list[tuple[Card, int]]]
    rules: Rules
    policy: Policy
    drawable: list[tuple[Card, int]]  # the main deck without the cards set aside
    aside: tuple[Card, ...] = ()
    fast: bool = True  # use the spec's whole-chunk engine when it has one
    asides: tuple[Aside[Card], ...] = ()  # ``aside`` as the spec describes it (for output)

    @property
    def spec(self) -> GameSpec:
        return plugins.get(self.game)

    @property
    def metrics(self) -> tuple[str, ...]:
        return self.spec.play.metrics

    @property
    def milestones(self) -> tuple[str, ...]:
        return self.spec.play.milestones

    def section(self, name: str) -> list[tuple[Card, int]]:
        return self.sections.get(name, [])


T = TypeVar("T")


def per_setup(build: Callable[[Setup], T]) -> Callable[[Setup], T]:
    """``build`` memoised for the set-up being played: every chunk of a run shares one set-up,
    and a worker plays one run at a time, so one entry is kept (keyed by identity, the set-up
    held so its id is not reused)."""
    memo: dict[int, tuple[Setup, T]] = {}

    def get(setup: Setup) -> T:
        hit = memo.get(id(setup))
        if hit is None or hit[0] is not setup:
            memo.clear()
            hit = memo[id(setup)] = (setup, build(setup))
        return hit[1]

    return get


def seed32(seed: int) -> int:
    """A chunk's 64-bit seed folded to the 32 bits ``np.random.seed`` (numba's) takes."""
    seed = int(seed)
    return (seed ^ (seed >> 32)) & 0xFFFFFFFF


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of games 1 … ``games`` of a run: the first words of one SeedSequence (the same
    first ones however many games are asked for), so game i is the same game in every run."""
    words = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint64)
    return cast("list[int]", words.tolist())


class ChunkSeeds(Sequence[int]):
    """The seeds of games ``start`` … ``start + games - 1`` of a run (``game_seeds``'s words),
    the first given and the rest worked out when first read: a batch engine seeds its whole
    chunk from the first and reads no other (the 5,000 words of the real-deck benchmark's
    chunk were 0.9 ms of its 20 ms, issue 35). Picklable, as chunks travel to workers."""

    def __init__(self, seed: int, start: int, games: int, first: int) -> None:
        self.seed, self.start, self.games, self.first = seed, start, games, first
        self._all: list[int] | None = None

    def __len__(self) -> int:
        return self.games

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...
    def __getitem__(self, i: int | slice) -> int | Sequence[int]:
        if isinstance(i, int) and i in (0, -self.games):
            return self.first
        if self._all is None:
            self._all = game_seeds(self.seed, self.start + self.games)[self.start :]
        return self._all[i]
