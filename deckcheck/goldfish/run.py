"""Running many goldfish games: seeds, chunks, worker processes, progress, statistics.

Game ``i`` always gets the ``i``-th seed drawn from one ``numpy.random.SeedSequence(seed)``, so
the results are the same for any number of workers; chunks come back in game order.
"""

from __future__ import annotations

import dataclasses
import random
import signal
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field

from deckcheck import plugins
from deckcheck.forking import drop_inherited_sockets, shared_on_fork
from deckcheck.formats import Format
from deckcheck.goldfish import losses
from deckcheck.goldfish.common import GoldfishError, Tick, ticking
from deckcheck.goldfish.compiling import first_chunk, pending
from deckcheck.goldfish.histogram import quantiles
from deckcheck.goldfish.policy import Compiled, Policy
from deckcheck.goldfish.setup import ChunkSeeds, Setup, game_seeds, per_setup
from deckcheck.goldfish.tally import BINS as BINS
from deckcheck.goldfish.tally import Chunk as Chunk
from deckcheck.goldfish.tally import Tally as Tally
from deckcheck.goldfish.trace import Trace
from deckcheck.i18n import N_, _, current, override
from deckcheck.models import Card, DeckList, FormatVersion, Game
from deckcheck.odds.api import AsideView, deck_sections, main_deck_empty, view
from deckcheck.odds.exact import OddsError
from deckcheck.odds.setup import assumed_params, rules_of
from deckcheck.plugins.contract import RecordView
from deckcheck.plugins.deal import Aside
from deckcheck.plugins.registry import BatchEngine
from deckcheck.resolve import CardIndex

CHUNK = 2_000
MAX_GAMES = 1_000_000
MAX_TURNS = 30


def prepare(deck: DeckList, fmt: Format, index: CardIndex, policy: Policy) -> Setup:
    try:
        sections = deck_sections(deck, fmt, index)
    except OddsError as exc:
        raise GoldfishError(str(exc)) from exc
    if not sections.get("main"):
        raise GoldfishError(main_deck_empty(fmt))
    spec = plugins.get(fmt.game)
    main = sections["main"]
    drawable, asides = list(main), list[Aside[Card]]()
    if spec.deal.set_aside is not None:
        drawable, asides = spec.deal.set_aside(main, fmt, policy.aside_choice(), True)
    aside = tuple(card for a in asides for card in a.cards)
    # while a warm-up compiles the game's batch engine, the reference engine plays rather than
    # the run waiting for the compile (the result's ``engine`` says so)
    fast = not pending(fmt.game)
    rules = rules_of(fmt)
    setup = Setup(fmt.game, sections, rules, policy, drawable, aside, fast, tuple(asides))
    play_one(setup, 0, 1, True)  # a deck that cannot start a game fails here, once
    return setup


def play_one(
    setup: Setup, seed: int, turns: int, on_play: bool, trace: Trace | None = None
) -> RecordView:
    """Game ``seed`` by the reference engine; ``trace`` hears it step by step (a replay; an
    engine of a game package that predates it is called as before without one)."""
    args = (setup, _compiled(setup), random.Random(seed), turns, on_play)
    try:
        return setup.spec.play.play(*args) if trace is None else setup.spec.play.play(*args, trace)
    except IndexError as exc:  # a deck too small to deal from
        raise GoldfishError(_("the deck runs out while dealing the opening hand")) from exc


_compiled = per_setup(lambda setup: Compiled(setup.policy, setup.game))


def chunks(setup: Setup, games: int, seed: int) -> list[tuple[int, Sequence[int]]]:
    """(first game, game seeds) of each chunk: game ``i`` always gets the ``i``-th seed of one
    SeedSequence, and a batch engine's chunks are fixed, so every way of playing them (one
    process, workers, a Dask cluster) gives the same numbers. A batch engine's chunk carries
    its first seed, the one it reads (``ChunkSeeds``)."""
    if _batch(setup) is None:
        seeds = game_seeds(seed, games)
        return [(start, seeds[start : start + CHUNK]) for start in range(0, games, CHUNK)]
    size = setup.spec.play.batch_size
    starts = range(0, games, size)
    firsts = game_seeds(seed, starts[-1] + 1) if games > 0 else []
    return [(s, ChunkSeeds(seed, s, min(size, games - s), firsts[s])) for s in starts]


def _batch(setup: Setup) -> BatchEngine | None:
    spec = setup.spec
    if not setup.fast or spec.play.play_batch is None:
        return None
    if spec.play.batch_ok is not None and not spec.play.batch_ok(setup):
        return None  # the pilot asks for something only the reference engine plays
    return spec.play.play_batch


def play_chunk(
    setup: Setup, start: int, seeds: Sequence[int], turns: int, on_play: bool, tick: Tick = None
) -> Chunk:
    batch = _batch(setup)
    spec = setup.spec
    if batch is not None and seeds:
        # the chunk's first game seed seeds the chunk: chunks are fixed, so workers never matter
        chunk = Chunk(start, *batch(setup, int(seeds[0]), len(seeds), turns, on_play))
        chunk.compiled = True
        losses.check_codes(spec, chunk.loss)
        chunk.reasons = len(spec.play.losses)
        return chunk
    records = (play_one(setup, int(seed), turns, on_play) for seed in seeds)
    return records_chunk(setup, start, len(seeds), turns, ticking(records, tick))


def records_chunk(
    setup: Setup, start: int, n: int, turns: int, records: Iterable[RecordView]
) -> Chunk:
    """``n`` games of the reference engine as the arrays a batch engine returns (a loss as its
    code: 1 + its index in the spec's losses)."""
    spec = setup.spec
    m, k = len(setup.metrics), len(setup.milestones)
    metrics = np.full((n, turns, m), -1, dtype=np.int32)
    milestones = np.zeros((n, k), dtype=np.int16)
    mulligans = np.zeros(n, dtype=np.int32)
    loss = np.zeros(n, dtype=np.int8)
    loss_turn = np.zeros(n, dtype=np.int16)
    for i, rec in enumerate(records):
        if rec.metrics:
            metrics[i, : len(rec.metrics)] = rec.metrics
        milestones[i] = rec.milestones
        mulligans[i] = rec.mulligans
        if rec.loss:
            loss[i] = losses.code(spec, rec.loss)
            loss_turn[i] = rec.loss_turn
    return Chunk(start, metrics, milestones, mulligans, loss, loss_turn, len(spec.play.losses))


_WORKER: Setup | None = None


def _worker_init(setup: Setup) -> None:
    global _WORKER
    drop_inherited_sockets()  # a server in the forking process (the service, a test) keeps them
    _WORKER = setup
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def _worker_chunk(start: int, seeds: Sequence[int], turns: int, on_play: bool, lang: str) -> Tally:
    """A chunk in a worker process: numbers back; a message raised is in ``lang``, the
    caller's language (a worker process starts in English)."""
    assert _WORKER is not None
    with override(lang):
        return Tally.of(play_chunk(_WORKER, start, seeds, turns, on_play), turns)


class GoldfishRequest(BaseModel):
    games: int = Field(1000, ge=1, le=MAX_GAMES)
    turns: int = Field(10, ge=1, le=MAX_TURNS)
    seed: int = Field(0, ge=0)
    on_play: bool = True
    workers: int = Field(1, ge=1, le=64)
    # "reference": game by game; game i is what ``--replay i`` shows
    engine: Literal["auto", "reference"] = "auto"


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
    engine: str = "reference"  # "reference": game by game; "batch": the spec's chunk engine
    interrupted: bool = False
    summary: dict[str, Any]
    loss_reasons: list[losses.LossReason] = Field(default_factory=list)  # the game's, in its order
    aside: list[AsideView] = Field(default_factory=list)  # what the deal set aside
    per_turn: list[dict[str, Any]]
    milestones: dict[str, Any]
    assumptions: list[str] = Field(default_factory=list)
    format_version: FormatVersion | None = None


def simulate(
    setup: Setup,
    req: GoldfishRequest,
    progress: Callable[[int], None] | None = None,
    notice: Callable[[str], None] | None = None,
) -> tuple[list[Tally], bool]:
    """Play ``req.games`` games; returns the finished chunks' tallies in game order and whether
    Ctrl-C stopped the run early. ``notice`` hears why a first chunk is slow (``compiling``)."""
    parts = chunks(setup, req.games, req.seed)
    batch = _batch(setup) is not None
    slow = _(
        "the {game} goldfish engine is compiled on its first run on a machine "
        "(once, up to a minute; later runs load it at once)…",
        game=setup.game,
    )
    tallies: list[Tally] = []
    interrupted = False
    if req.workers == 1:
        try:
            for i, (start, part) in enumerate(parts):
                with first_chunk(setup.game, batch and i == 0, notice, slow):
                    chunk = play_chunk(setup, start, part, req.turns, req.on_play, progress)
                tallies.append(Tally.of(chunk, req.turns))
                if progress:
                    progress(len(part))
        except KeyboardInterrupt:
            interrupted = True
        return tallies, interrupted
    lang = current()
    pool = ProcessPoolExecutor(max_workers=req.workers, initializer=_worker_init, initargs=(setup,))
    futures: list[Future[Tally]] = []
    try:
        with shared_on_fork():  # the pool forks its processes in the first submit
            futures = [
                pool.submit(_worker_chunk, start, part, req.turns, req.on_play, lang)
                for start, part in parts
            ]
        for i, future in enumerate(futures):  # in game order: results never depend on timing
            with first_chunk(setup.game, batch and i == 0, notice, slow):
                tallies.append(future.result())
            if progress:
                progress(tallies[-1].games)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        pool.shutdown(wait=not interrupted, cancel_futures=True)
    return tallies, interrupted


def statistics(
    setup: Setup, tallies: Sequence[Tally], turns: int
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """(summary, per_turn, milestones) over every finished game."""
    if not tallies:
        return {"games": 0}, [], {}
    total = tallies[0]
    for more in tallies[1:]:
        total = total + more
    n = total.games
    lost = int(total.losses.sum())
    summary: dict[str, Any] = {
        "games": n,
        "mulligans_mean": total.mulligans / n,
        "loss_rate": lost / n,
        "losses": {
            loss.name: int(total.losses[i]) / n for i, loss in enumerate(setup.spec.play.losses)
        },
        "loss_turn_mean": total.loss_turn_sum / lost if lost else None,
    }
    per_turn = []
    table = {key: values.tolist() for key, values in quantiles(total.hist[:turns]).items()}
    for t in range(turns):
        row: dict[str, Any] = {"turn": t + 1, "alive": int(total.alive[t]) / n}
        for j, name in enumerate(setup.metrics):
            name = N_("hand_size") if name == "hand" else name  # a word people read, too
            for key, values in table.items():
                value = values[t][j]
                row[f"{name}_{key}"] = None if value != value else value  # NaN: no game left
        per_turn.append(row)
    reached: dict[str, Any] = {}
    for j, name in enumerate(setup.milestones):
        by_first = total.milestone_turns[j]
        hits = n - int(by_first[0])
        turns_list = np.arange(turns + 1)
        firsts = by_first[: turns + 1].tolist()
        reached[name] = {
            "rate": hits / n,
            "mean_turn": float((turns_list * by_first).sum() / hits) if hits else None,
            "by_turn": [c / n for c in np.cumsum(by_first[1 : turns + 1]).tolist()],
            "first_at": {str(t): firsts[t] for t in range(1, turns + 1)},
        }
    return summary, per_turn, reached


def goldfish(
    deck: DeckList,
    fmt: Format,
    index: CardIndex,
    policy: Policy,
    req: GoldfishRequest,
    progress: Callable[[int], None] | None = None,
    setup: Setup | None = None,
    notice: Callable[[str], None] | None = None,
) -> GoldfishResult:
    """Play and summarise; ``setup`` (from ``prepare``) saves preparing the deck again."""
    setup = setup or prepare(deck, fmt, index, policy)
    if req.engine == "reference" and setup.fast:
        setup = dataclasses.replace(setup, fast=False)
    chunks, interrupted = simulate(setup, req, progress, notice)
    return result_of(deck, fmt, policy, req, setup, chunks, interrupted)


def result_of(
    deck: DeckList,
    fmt: Format,
    policy: Policy,
    req: GoldfishRequest,
    setup: Setup,
    chunks: Sequence[Tally],
    interrupted: bool,
) -> GoldfishResult:
    """The result of the chunks played, wherever they were played (here or on a cluster)."""
    summary, per_turn, milestones = statistics(setup, chunks, req.turns)
    notes = [
        *assumed_params(fmt, frozenset({"goldfish"})),
        *(_(note) for note in (*setup.spec.deal.setup_notes, *setup.spec.play.notes)),
    ]
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
        engine="batch" if _batch(setup) is not None else "reference",
        interrupted=interrupted,
        summary=summary,
        loss_reasons=losses.reasons(setup.spec),
        aside=[view(a) for a in setup.asides],
        per_turn=per_turn,
        milestones=milestones,
        assumptions=notes,
        format_version=fmt.version,
    )
