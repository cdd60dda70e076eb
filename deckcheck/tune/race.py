"""Racing goldfish variants on shared shuffles: successive halving (Karnin, Koren & Somekh
2013, "Almost optimal exploration in multi-armed bandits"). Every variant plays the same games
(game i has the i-th seed of one SeedSequence, common random numbers), in rounds whose game
counts double; after each round the worse half of the variants stops playing.

Why successive halving rather than a sequential test: its rounds and their game counts are
fixed before any game is played (the work is known, for progress and for a cluster's tasks),
and it looks at the results only between rounds, so no correction for repeated looks is due;
a sequential test that drops a variant as soon as its interval falls below the best's must
spend its error over every look, and its cost is not known beforehand. The variants that
reach the last round play exactly the games a fixed-sample comparison would give them (the
same rounds, the same seeds), so when the fixed-sample best survives the halving, racing
names the same best (benchmarks/tune_bench.py counts both)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from deckcheck.goldfish.setup import Setup, game_seeds
from deckcheck.goldfish.tally import Tally
from deckcheck.sweep.run import ChunkTask, Runner, in_process

Score = Callable[[int, Tally], float]  # (variant, its games so far) → the goal's value


FIRST = 16  # the first look: 1/16 of the last round's games


def schedule(arms: int, games: int, keep: int = 1) -> list[tuple[int, int]]:
    """(games played by the end of the round, variants still playing in it) of each round:
    ``games`` in the last round, halved back to the first but never below ``games / FIRST``
    (a look at a handful of games would drop good variants by luck; such rounds only halve
    again on the games already played); survivors halved, at least ``keep``."""
    rounds = max(0, math.ceil(math.log2(max(1, arms / max(1, keep)))))
    floor = math.ceil(games / FIRST)
    out = []
    alive = arms
    for r in range(rounds + 1):
        out.append((min(games, max(floor, math.ceil(games / 2 ** (rounds - r)))), alive))
        alive = max(min(keep, arms), math.ceil(alive / 2))
    return out


def budget(arms: int, games: int, keep: int = 1) -> int:
    """The games a race of ``arms`` variants plays in all (the schedule fixes it)."""
    total, start = 0, 0
    for end, alive in schedule(arms, games, keep):
        total += (end - start) * alive
        start = end
    return total


@dataclass
class Race:
    """The tallies of every variant (games 0 … ``played[i]``) and the order they left."""

    tallies: list[Tally | None]
    played: list[int]
    rounds: list[tuple[int, list[int]]] = field(default_factory=list)  # (games, survivors)

    @property
    def games(self) -> int:
        return sum(self.played)


def race(
    setups: Sequence[Setup],
    games: int,
    seed: int,
    turns: int,
    score: Score,
    keep: int = 1,
    runner: Runner = in_process,
    halve: bool = True,
    on_play: bool = True,
    pin: int | None = None,
) -> Race:
    """Play the variants by the schedule; ``score`` ranks them after each round (larger is
    better; ties: the earlier variant). ``halve=False`` plays every variant every round: the
    fixed-sample comparison on the very same games. ``pin``: a variant that always plays on
    (the deck as it is: what else moved is then read on the very games of the best)."""
    seeds = game_seeds(seed, games)
    alive = list(range(len(setups)))
    result = Race([None] * len(setups), [0] * len(setups))
    start = 0
    for end, count in schedule(len(setups), games, keep):
        if halve and len(alive) > count:
            ranked = sorted(alive, key=lambda i: (i != pin, -score(i, _tally(result, i)), i))
            alive = sorted(ranked[:count])
        if end == start:
            result.rounds.append((end, list(alive)))
            continue  # no new games: this round only halved
        part = tuple(seeds[start:end])
        tasks = [ChunkTask(i, setups[i], start, part, turns, on_play) for i in alive]
        for task, tally in zip(tasks, runner(tasks, None), strict=True):
            had = result.tallies[task.variant]
            result.tallies[task.variant] = tally if had is None else had + tally
            result.played[task.variant] = end
        result.rounds.append((end, list(alive)))
        start = end
    return result


def _tally(result: Race, i: int) -> Tally:
    tally = result.tallies[i]
    assert tally is not None
    return tally


def by_turn(tally: Tally, milestone: int, turn: int) -> int:
    """Games that reached milestone ``milestone`` (its index in the game's list) by ``turn``."""
    return int(tally.milestone_turns[milestone][1 : turn + 1].sum())


def pool_runner(workers: int) -> Runner:
    """The tasks played by ``workers`` processes, gathered in task order (numbers never depend
    on which process played what)."""
    from concurrent.futures import ProcessPoolExecutor

    from deckcheck.forking import shared_on_fork
    from deckcheck.sweep.run import play_task

    def run(
        tasks: Sequence[ChunkTask], progress: Callable[[int, int], None] | None = None
    ) -> list[Tally]:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            with shared_on_fork():  # the pool forks its processes in map's first submit
                futures = [pool.submit(play_task, task) for task in tasks]
            out = [future.result() for future in futures]
        if progress:
            for task in tasks:
                progress(task.variant, len(task.seeds))
        return out

    return run
