"""Running a sweep: validate each variant, then its odds (exact) and goldfish milestones.

Goldfish chunks of every variant form one list of tasks, run in-process or on a Dask cluster
(``deckcheck.sweep.cluster``) and gathered in variant and game order. Every variant plays the
same seeds (common random numbers: differences between variants are not seed noise), so the
numbers are the same wherever the chunks run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, Field

from deckcheck.errors import UsageError
from deckcheck.formats import Format
from deckcheck.goldfish.policy import policy_from_keys
from deckcheck.goldfish.run import MAX_TURNS, Tally, chunks, play_chunk, prepare, statistics
from deckcheck.goldfish.setup import Setup
from deckcheck.i18n import N_, _, current, override
from deckcheck.models import DeckList, Game, Violation
from deckcheck.odds.api import OddsRequest, compute_odds
from deckcheck.odds.conditions import optional_conditions, parse_conditions
from deckcheck.odds.known import check_known
from deckcheck.plugins import get as game_spec
from deckcheck.resolve import CardIndex
from deckcheck.sweep.blank import errors_of, wants_blank, with_blank
from deckcheck.sweep.variants import Axis, Variant, build, check_count, parse_vary


class SweepRequest(BaseModel):
    """The options of ``deckcheck sweep`` (and of ``POST /sweeps``)."""

    vary: list[str] = Field(default_factory=list)
    fill: str | None = Field(
        None,
        description=N_(
            "The card that keeps the deck's size: a card of the pool, or blank (a card that"
            " counts for nothing: deckcheck's device, outside the rulebooks)"
        ),
    )
    sides: tuple[bool, ...] = (True,)  # True: on the play
    want: list[str] = Field(default_factory=list)
    turns: int = Field(6, ge=1, le=MAX_TURNS)
    games: int = Field(2000, ge=0, le=1_000_000)
    seed: int = Field(0, ge=0)
    best: str | None = None


class VariantResult(BaseModel):
    label: str
    deck: str | None
    keys: dict[str, Any]
    legal: bool
    violations: list[Violation] = Field(default_factory=list)
    odds: dict[str, list[float]] = Field(default_factory=dict)  # condition → by turn 0..T
    milestones: dict[str, dict[str, Any]] = Field(default_factory=dict)  # rate, mean_turn, by_turn


class SweepResult(BaseModel):
    format: str
    game: str
    turns: int
    games: int
    seed: int
    variants: list[VariantResult]
    best: str | None = None  # the label of the best variant by ``request.best``
    best_metric: str | None = None
    assumptions: list[str] = Field(default_factory=list)
    words: dict[str, str] = Field(default_factory=dict)  # milestone id → as people read it


@dataclass(frozen=True)
class ChunkTask:
    """One chunk of goldfish games of one variant: what a worker needs (picklable)."""

    variant: int
    setup: Setup
    start: int
    seeds: Sequence[int]
    turns: int
    on_play: bool
    lang: str = field(default_factory=current)  # the language of the caller, for messages


def play_task(task: ChunkTask) -> Tally:
    """Run on a worker: the chunk's games, summed (histograms, so little travels back)."""
    with override(task.lang):  # a message raised here is in the caller's language
        chunk = play_chunk(task.setup, task.start, task.seeds, task.turns, task.on_play)
    return Tally.of(chunk, task.turns)


Runner = Callable[[Sequence[ChunkTask], Callable[[int, int], None] | None], list[Tally]]


def in_process(
    tasks: Sequence[ChunkTask], progress: Callable[[int, int], None] | None = None
) -> list[Tally]:
    out = []
    for task in tasks:
        out.append(play_task(task))
        if progress:
            progress(task.variant, len(task.seeds))
    return out


def chunk_tasks(
    index: int, setup: Setup, games: int, seed: int, turns: int, on_play: bool
) -> list[ChunkTask]:
    """The chunks of ``games`` games, cut as ``goldfish.run.simulate`` cuts them: the same
    numbers wherever they are played."""
    return [
        ChunkTask(index, setup, start, part, turns, on_play)
        for start, part in chunks(setup, games, seed)
    ]


def _odds(variant: Variant, fmt: Format, index: CardIndex, req: SweepRequest) -> dict[str, Any]:
    out = {}
    for want in req.want:
        ask = OddsRequest(want=[want], turns=req.turns, on_play=variant.on_play)
        out[want] = [row.probability for row in compute_odds(variant.deck, fmt, index, ask).rows]
    return out


def sweep(
    decks: Sequence[tuple[str | None, DeckList]],
    fmt: Format,
    index: CardIndex,
    req: SweepRequest,
    runner: Runner = in_process,
    progress: Callable[[int, int], None] | None = None,
    planned: Callable[[int], None] | None = None,
    tick: Callable[[], None] | None = None,
) -> SweepResult:
    """Variants of each deck (``--vary`` applies to each), validated, then asked ``want`` and
    goldfished. ``planned(games)`` hears how many games the legal variants will play, then
    ``progress(variant, games)`` is called as chunks finish. ``tick()`` is called before each
    variant is validated and asked: a service job's cancel, raised there, is heard between
    variants too, not only between chunks (issue 24, item 2)."""
    check_request(req, fmt.game)
    axes = [parse_vary(v) for v in req.vary]
    # checked before the blank's subset: the pool's column values, not only the decks'
    check_known(optional_conditions(req.want, fmt.game), fmt.game, index)
    index = sweep_index(index, fmt.game, decks, axes, req.fill)
    check_count(len(decks), axes, req.sides)
    variants: list[tuple[str | None, Variant]] = []
    for name, deck in decks:
        for v in build(deck, index, fmt.game, axes, req.fill, req.sides):
            label = f"{name}: {v.label}" if name and len(decks) > 1 else v.label
            variants.append((deck.path, replace(v, label=label)))
    results: list[VariantResult] = []
    setups: list[Setup | None] = []
    for deck_path, variant in variants:
        if tick:
            tick()
        errors = errors_of(variant.deck, fmt, index)
        if variant.problem:
            source = _("deckcheck sweep")
            errors.insert(0, Violation(rule="sweep/fill", message=variant.problem, source=source))
        result = VariantResult(
            label=variant.label,
            deck=deck_path,
            keys=variant.keys,
            legal=not errors,
            violations=errors,
        )
        results.append(result)
        setups.append(None)
        if not result.legal:
            continue
        result.odds = _odds(variant, fmt, index, req)
        if req.games:
            policy = policy_from_keys(fmt.game, variant.policy, "--vary policy")
            setups[-1] = prepare(variant.deck, fmt, index, policy)
    tasks = [
        task
        for i, (setup, (_path, variant)) in enumerate(zip(setups, variants, strict=True))
        if setup is not None
        for task in chunk_tasks(i, setup, req.games, req.seed, req.turns, variant.on_play)
    ]
    if planned:
        planned(sum(len(t.seeds) for t in tasks))
    tallies = runner(tasks, progress)
    _milestones(results, setups, tasks, tallies, req.turns)
    out = SweepResult(
        format=fmt.id,
        game=fmt.game,
        turns=req.turns,
        games=req.games,
        seed=req.seed,
        variants=results,
        assumptions=_notes(fmt, setups, req.games > 0),
        words=_words(results),
    )
    if req.best:
        out.best, out.best_metric = best_of(results, req.best), req.best
    return out


def sweep_index(
    index: CardIndex,
    game: Game,
    decks: Sequence[tuple[str | None, DeckList]],
    axes: Sequence[Axis],
    fill: str | None,
) -> CardIndex:
    """``index``, or with ``--fill blank`` a new index of the cards the sweep names and the
    blank card."""
    if not wants_blank(fill):
        return index
    named = [a.key for a in axes if a.varies == "name"]
    return with_blank(index, game, [*(e.ref for _, d in decks for e in d.entries), *named])


def _milestones(
    results: list[VariantResult],
    setups: list[Setup | None],
    tasks: Sequence[ChunkTask],
    tallies: Sequence[Tally],
    turns: int,
) -> None:
    grouped: dict[int, list[Tally]] = {}
    for task, tally in zip(tasks, tallies, strict=True):
        grouped.setdefault(task.variant, []).append(tally)
    for i, parts in grouped.items():
        setup = setups[i]
        assert setup is not None
        _summary, _per_turn, reached = statistics(setup, parts, turns)
        games = sum(len(t.seeds) for t in tasks if t.variant == i)
        results[i].milestones = {k: _with_intervals(v, games) for k, v in reached.items()}


def _with_intervals(reached: dict[str, Any], games: int) -> dict[str, Any]:
    """A milestone's rate and share by turn, each with its 95% Wilson score interval (a
    binomial proportion over ``games`` games: Wilson 1927, as Brown, Cai & DasGupta 2001
    recommend; statistics, not a game rule). ``low``/``high`` run beside ``by_turn``."""
    from deckcheck.odds.simulate import wilson

    def interval(share: float) -> tuple[float, float]:
        return wilson(round(share * games), games)

    by_turn = [interval(p) for p in reached["by_turn"]]
    return {
        "rate": reached["rate"],
        "rate_interval": list(interval(reached["rate"])),
        "mean_turn": reached["mean_turn"],
        "by_turn": reached["by_turn"],
        "low": [low for low, _high in by_turn],
        "high": [high for _low, high in by_turn],
    }


def split_metric(metric: str, want: Sequence[str], turns: int) -> tuple[str, str, int]:
    """``milestone:NAME`` or ``odds:CONDITION[@TURN]`` as (source, name, turn; -1 for the
    last turn). The condition must be one of ``want``, the turn at most ``turns``."""
    source, _sep, name = metric.partition(":")
    if source == "milestone" and name:
        return source, name, -1
    if source != "odds":
        raise UsageError(
            _("--best {metric}: write milestone:NAME or odds:CONDITION[@TURN]", metric=repr(metric))
        )
    cond, at, turn = ("", "", "") if name in want else name.rpartition("@")
    cond = cond or name
    if cond not in want:
        raise UsageError(
            _(
                "--best {metric}: ask it with --want {condition}",
                metric=repr(metric),
                condition=repr(cond),
            )
        )
    if not at:
        return source, cond, -1
    if not (turn.isascii() and turn.isdigit() and int(turn) <= turns):
        raise UsageError(
            _(
                "--best {metric}: the turn after @ is a whole number, 0 to {turns}",
                metric=repr(metric),
                turns=turns,
            )
        )
    return source, cond, int(turn)


def check_request(req: SweepRequest, game: Game) -> None:
    """What a sweep reads only after its games, read before any: the ``want`` conditions and
    the ``best`` metric (exit 2, or 422 over HTTP)."""
    if req.want:  # no want is allowed here: the sweep then asks only for milestones
        parse_conditions(req.want, game)
    if req.best is None:
        return
    source, name, _turn = split_metric(req.best, req.want, req.turns)
    if source == "milestone":
        known = game_spec(game).play.milestones
        if name not in known:
            raise UsageError(
                _(
                    "--best {metric}: no milestone {name} ({known})",
                    metric=repr(req.best),
                    name=repr(name),
                    known=", ".join(known),
                )
            )
        if not req.games:
            raise UsageError(
                _("--best {metric}: milestones need games (--games is 0)", metric=repr(req.best))
            )


def metric_of(result: VariantResult, metric: str) -> tuple[float, float]:
    """A sort key, larger is better: ``milestone:NAME`` (rate, then earlier mean turn) or
    ``odds:CONDITION`` / ``odds:CONDITION@TURN`` (probability, last turn by default). The
    metric was checked (``check_request``) before the sweep."""
    turns = len(next(iter(result.odds.values()), [])) - 1
    source, name, turn = split_metric(metric, list(result.odds), turns)
    if source == "milestone":
        found = result.milestones[name]
        return found["rate"], -(found["mean_turn"] or 1e9)
    return result.odds[name][turn], 0.0


def best_of(results: Sequence[VariantResult], metric: str) -> str | None:
    legal = [r for r in results if r.legal]
    if not legal:
        return None
    return max(legal, key=lambda r: metric_of(r, metric)).label


def _words(results: Sequence[VariantResult]) -> dict[str, str]:
    """Each milestone's words in the caller's language, so a page need not show an id."""
    from deckcheck.goldfish.output import word

    return {name: word(name) for r in results for name in r.milestones}


def _notes(fmt: Format, setups: Sequence[Setup | None], played: bool) -> list[str]:
    """The deal's assumptions, and goldfish's own when games were played."""
    from deckcheck.odds.setup import assumed_params

    deal = next((s.rules.assumptions for s in setups if s), ())
    fish = assumed_params(fmt, frozenset({"goldfish"})) if played else ()
    return list(dict.fromkeys([*deal, *fish]))
