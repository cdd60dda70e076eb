"""Running many goldfish games: seeds, chunks, worker processes, progress, statistics.

Game ``i`` always gets the ``i``-th seed drawn from one ``numpy.random.SeedSequence(seed)``, so
the results are the same for any number of workers; chunks come back in game order.
"""

from __future__ import annotations

import random
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, Field

from deckcheck.formats import Format
from deckcheck.goldfish import chaos, iris, rakuen, vision
from deckcheck.goldfish.common import Record
from deckcheck.goldfish.policy import Compiled, Policy
from deckcheck.models import Card, DeckList, Game
from deckcheck.odds.exact import OddsError
from deckcheck.odds.setup import Rules, rules_of
from deckcheck.resolve import CardIndex

CHUNK = 2_000
FAST_CHUNK = 10_000  # iris plays whole chunks in NumPy: larger chunks, fewer transfers
MAX_GAMES = 1_000_000
MAX_TURNS = 30
LOSSES = ("deck-out", "refresh-penalty")
ENGINES = {Game.CHAOS: chaos, Game.RAKUEN: rakuen, Game.VISION: vision, Game.IRIS: iris}


class GoldfishError(ValueError):
    """A deck or request the simulator cannot play; the message is for the user."""


@dataclass(frozen=True)
class Setup:
    """Everything a worker needs to play games of one deck (picklable)."""

    game: Game
    sections: dict[str, list[tuple[Card, int]]]
    rules: Rules
    policy: Policy
    node_per_turn: int
    standby_slots: int
    fast: bool = True  # iris: whole chunks in NumPy (iris_fast), else game by game

    @property
    def metrics(self) -> tuple[str, ...]:
        return tuple(ENGINES[self.game].METRICS)

    @property
    def milestones(self) -> tuple[str, ...]:
        return tuple(ENGINES[self.game].MILESTONES)


def prepare(deck: DeckList, fmt: Format, index: CardIndex, policy: Policy) -> Setup:
    from deckcheck.validate import _read

    ctx = _read(deck, fmt, index)
    broken = [v for v in ctx.violations if v.rule.startswith("deck/") and v.severity == "error"]
    if broken:
        raise GoldfishError(
            "the deck list has problems to fix first: "
            + "; ".join(f"line {v.line}: {v.message}" for v in broken[:5])
        )
    sections = {name: [(s.card, s.count) for s in slots] for name, slots in ctx.slots.items()}
    if not sections.get("main"):
        raise GoldfishError("the main deck is empty")
    rules = rules_of(fmt)

    def param(key: str, default: int) -> int:
        p = fmt.parameter(key)
        return default if p is None else int(str(p.value))

    setup = Setup(
        fmt.game,
        sections,
        rules,
        policy,
        param("node_per_turn", policy.node_per_turn),
        param("standby_slots", 4),
    )
    play_one(setup, 0, 1, True)  # a deck that cannot start a game fails here, once
    return setup


def play_one(setup: Setup, seed: int, turns: int, on_play: bool) -> Record:
    rng = random.Random(seed)
    policy = _compiled(setup)
    main = setup.sections.get("main", [])
    try:
        if setup.game is Game.CHAOS:
            return chaos.play(
                main, setup.sections.get("extra", []), setup.rules, policy, rng, turns, on_play
            )
        if setup.game is Game.RAKUEN:
            return rakuen.play(
                main, setup.sections.get("gate", []), setup.rules, policy, rng, turns, on_play
            )
        if setup.game is Game.VISION:
            return vision.play(main, setup.rules, policy, rng, turns, on_play, setup.node_per_turn)
        return iris.play(main, setup.rules, policy, rng, turns, on_play, setup.standby_slots)
    except (chaos.SetupError, iris.SetupError) as exc:
        raise GoldfishError(str(exc)) from exc
    except IndexError as exc:  # a deck too small to deal from
        raise GoldfishError("the deck runs out while dealing the opening hand") from exc


_COMPILED: dict[int, tuple[Setup, Compiled]] = {}


def _compiled(setup: Setup) -> Compiled:
    hit = _COMPILED.get(id(setup))
    if hit is None or hit[0] is not setup:
        _COMPILED.clear()
        hit = _COMPILED[id(setup)] = (setup, Compiled(setup.policy, setup.game))
    return hit[1]


@dataclass
class Chunk:
    """Results of consecutive games, as arrays (-1: the game was already lost)."""

    start: int
    metrics: NDArray[np.int32] | NDArray[np.int16]  # (games, turns, metrics)
    milestones: NDArray[np.int16]  # (games, milestones), 0 = never
    mulligans: NDArray[np.int32]
    loss: NDArray[np.int8]  # 0 none, 1 + index in LOSSES
    loss_turn: NDArray[np.int16]


def play_chunk(setup: Setup, start: int, seeds: Sequence[int], turns: int, on_play: bool) -> Chunk:
    if setup.game is Game.IRIS and setup.fast and seeds:
        from deckcheck.goldfish import iris_fast

        # the chunk's first game seed seeds the chunk: chunks are fixed, so workers never matter
        arrays = iris_fast.play_batch(
            setup.sections["main"],
            setup.rules.hand,
            setup.policy,
            int(seeds[0]),
            len(seeds),
            turns,
            setup.standby_slots,
        )
        return Chunk(start, *arrays)
    n, m, k = len(seeds), len(setup.metrics), len(setup.milestones)
    metrics = np.full((n, turns, m), -1, dtype=np.int32)
    milestones = np.zeros((n, k), dtype=np.int16)
    mulligans = np.zeros(n, dtype=np.int32)
    loss = np.zeros(n, dtype=np.int8)
    loss_turn = np.zeros(n, dtype=np.int16)
    for i, seed in enumerate(seeds):
        rec = play_one(setup, int(seed), turns, on_play)
        if rec.metrics:
            metrics[i, : len(rec.metrics)] = rec.metrics
        milestones[i] = rec.milestones
        mulligans[i] = rec.mulligans
        if rec.loss:
            loss[i] = 1 + LOSSES.index(rec.loss)
            loss_turn[i] = rec.loss_turn
    return Chunk(start, metrics, milestones, mulligans, loss, loss_turn)


_WORKER: Setup | None = None


def _worker_init(setup: Setup) -> None:
    global _WORKER
    _WORKER = setup
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def _worker_chunk(start: int, seeds: list[int], turns: int, on_play: bool) -> Chunk:
    assert _WORKER is not None
    return play_chunk(_WORKER, start, seeds, turns, on_play)


class GoldfishRequest(BaseModel):
    games: int = Field(1000, ge=1, le=MAX_GAMES)
    turns: int = Field(10, ge=1, le=MAX_TURNS)
    seed: int = Field(0, ge=0)
    on_play: bool = True
    workers: int = Field(1, ge=1, le=64)


class GoldfishResult(BaseModel):
    deck: str | None
    format: str
    game: Game
    games: int
    requested: int
    turns: int
    seed: int
    on_play: bool
    policy: dict[str, Any]
    interrupted: bool = False
    summary: dict[str, Any]
    per_turn: list[dict[str, Any]]
    milestones: dict[str, Any]
    assumptions: list[str] = Field(default_factory=list)


def simulate(
    setup: Setup, req: GoldfishRequest, progress: Callable[[int], None] | None = None
) -> tuple[list[Chunk], bool]:
    """Play ``req.games`` games; returns the finished chunks in game order and whether Ctrl-C
    stopped the run early."""
    seeds = np.random.SeedSequence(req.seed).generate_state(req.games, dtype=np.uint64)
    size = FAST_CHUNK if setup.game is Game.IRIS and setup.fast else CHUNK
    starts = list(range(0, req.games, size))
    chunks: list[Chunk] = []
    interrupted = False
    if req.workers == 1:
        try:
            for start in starts:
                part = seeds[start : start + size].tolist()
                chunks.append(play_chunk(setup, start, part, req.turns, req.on_play))
                if progress:
                    progress(len(part))
        except KeyboardInterrupt:
            interrupted = True
        return chunks, interrupted
    pool = ProcessPoolExecutor(max_workers=req.workers, initializer=_worker_init, initargs=(setup,))
    futures: list[Future[Chunk]] = []
    try:
        futures = [
            pool.submit(_worker_chunk, s, seeds[s : s + size].tolist(), req.turns, req.on_play)
            for s in starts
        ]
        for future in futures:  # in game order, so the result never depends on timing
            chunks.append(future.result())
            if progress:
                progress(len(chunks[-1].mulligans))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        pool.shutdown(wait=not interrupted, cancel_futures=True)
    return chunks, interrupted


def _quantiles(values: NDArray[np.int32]) -> dict[str, float | None]:
    if values.size == 0:
        return {"mean": None, "p10": None, "p50": None, "p90": None}
    q = np.percentile(values, [10, 50, 90])
    return {
        "mean": float(values.mean()),
        "p10": float(q[0]),
        "p50": float(q[1]),
        "p90": float(q[2]),
    }


def statistics(
    setup: Setup, chunks: Sequence[Chunk], turns: int
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """(summary, per_turn, milestones) over every finished game."""
    if not chunks:
        return {"games": 0}, [], {}
    metrics = np.concatenate([c.metrics for c in chunks])
    milestones = np.concatenate([c.milestones for c in chunks])
    mulligans = np.concatenate([c.mulligans for c in chunks])
    loss = np.concatenate([c.loss for c in chunks])
    loss_turn = np.concatenate([c.loss_turn for c in chunks])
    n = len(mulligans)
    summary: dict[str, Any] = {
        "games": n,
        "mulligans_mean": float(mulligans.mean()),
        "loss_rate": float((loss > 0).mean()),
        "losses": {name: float((loss == i + 1).mean()) for i, name in enumerate(LOSSES)},
        "loss_turn_mean": float(loss_turn[loss > 0].mean()) if (loss > 0).any() else None,
    }
    per_turn = []
    for t in range(turns):
        alive = metrics[:, t, 0] >= 0
        row: dict[str, Any] = {"turn": t + 1, "alive": float(alive.mean())}
        for j, name in enumerate(setup.metrics):
            stats = _quantiles(metrics[alive, t, j])
            name = "hand_size" if name == "hand" else name
            for key, value in stats.items():
                row[f"{name}_{key}"] = value
        per_turn.append(row)
    reached: dict[str, Any] = {}
    for j, name in enumerate(setup.milestones):
        turn_reached = milestones[:, j]
        hit = turn_reached > 0
        reached[name] = {
            "rate": float(hit.mean()),
            "mean_turn": float(turn_reached[hit].mean()) if hit.any() else None,
            "by_turn": [float((hit & (turn_reached <= t)).mean()) for t in range(1, turns + 1)],
            "first_at": {str(t): int((turn_reached == t).sum()) for t in range(1, turns + 1)},
        }
    return summary, per_turn, reached


def goldfish(
    deck: DeckList,
    fmt: Format,
    index: CardIndex,
    policy: Policy,
    req: GoldfishRequest,
    progress: Callable[[int], None] | None = None,
) -> GoldfishResult:
    try:
        setup = prepare(deck, fmt, index, policy)
    except OddsError as exc:
        raise GoldfishError(str(exc)) from exc
    chunks, interrupted = simulate(setup, req, progress)
    summary, per_turn, milestones = statistics(setup, chunks, req.turns)
    notes = list(setup.rules.assumptions)
    if fmt.game is Game.RAKUEN:
        notes.append("territory = 1 for members whose card data gives none (outside the card data)")
    return GoldfishResult(
        deck=deck.path,
        format=fmt.id,
        game=fmt.game,
        games=summary["games"],
        requested=req.games,
        turns=req.turns,
        seed=req.seed,
        on_play=req.on_play,
        policy=policy.model_dump(mode="json"),
        interrupted=interrupted,
        summary=summary,
        per_turn=per_turn,
        milestones=milestones,
        assumptions=notes,
    )
