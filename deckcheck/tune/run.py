"""Running a tune: the goal, the candidates and the limits in, the best legal variants out,
each with its value (exact, or with a real 95% interval), what else moved and what the search
never tried. Odds goals are searched exactly (``tune.exact``); a goal with a goldfish
milestone races every legal variant within the limits (``tune.race``)."""

from __future__ import annotations

import statistics as stats
from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from pydantic import BaseModel, Field

from deckcheck.formats import Format
from deckcheck.goldfish.run import MAX_TURNS
from deckcheck.goldfish.setup import Setup
from deckcheck.goldfish.tally import Tally
from deckcheck.i18n import _
from deckcheck.models import Card, DeckList
from deckcheck.odds.conditions import optional_conditions
from deckcheck.odds.known import check_known, named_refs
from deckcheck.odds.simulate import wilson
from deckcheck.resolve import CardIndex
from deckcheck.sweep.run import Runner, in_process
from deckcheck.tune import exact
from deckcheck.tune.field import field_of, setups_of
from deckcheck.tune.goal import Goal, make_goal
from deckcheck.tune.race import budget, by_turn, race
from deckcheck.tune.space import Changes, Space, apply, build_space, words
from deckcheck.tune.values import OddsValues

MAX_ARMS = 256  # variants raced in one tune


class TuneRequest(BaseModel):
    """The options of ``deckcheck tune``."""

    want: list[str] = Field(default_factory=list)
    turn: int | None = Field(None, ge=0, le=30)
    milestone: list[str] = Field(default_factory=list)
    by: int | None = Field(None, ge=1, le=MAX_TURNS)
    weights: list[float] = Field(default_factory=list)
    max_changes: int = Field(2, ge=1, le=8)
    top: int = Field(5, ge=1, le=50)
    games: int = Field(4000, ge=0, le=1_000_000)  # of each variant in the last round
    seed: int = Field(0, ge=0)
    on_play: bool = True
    max_variants: int = Field(MAX_ARMS, ge=2, le=4096)


class TermValue(BaseModel):
    label: str
    value: float
    low: float
    high: float


class Change(BaseModel):
    number: str
    name: str
    delta: int


class VariantView(BaseModel):
    changes: list[Change]
    words: str
    value: float
    low: float
    high: float
    terms: list[TermValue]
    alike: int = 1  # concrete changes with the same value (exact search shows one)
    games: int = 0  # goldfish games this variant played
    also: dict[str, float] = Field(default_factory=dict)  # what else moved (ids below)


class TuneResult(BaseModel):
    deck: str | None
    format: str
    game: str
    goal: list[str]
    method: Literal["exact", "raced"]
    seed: int
    base: VariantView
    variants: list[VariantView]
    never_tried: list[str]
    games: int = 0  # goldfish games played in all
    fixed_games: int = 0  # what comparing every variant on the last round's games would play
    also_turn: int = 0
    words: dict[str, str] = Field(default_factory=dict)  # ``also`` id → as people read it
    assumptions: list[str] = Field(default_factory=list)


class Ask(NamedTuple):
    """What a search is given: the space, the goal and its counts, the options, where the
    games run and who hears their number."""

    space: Space
    goal: Goal
    values: OddsValues
    req: TuneRequest
    runner: Runner
    planned: Callable[[int], None] | None


def tune(
    deck: DeckList,
    fmt: Format,
    index: CardIndex,
    cards: Sequence[Card],
    keep: Sequence[Card],
    req: TuneRequest,
    runner: Runner = in_process,
    planned: Callable[[int], None] | None = None,
) -> TuneResult:
    """The best ``req.top`` legal variants of ``deck`` for the goal; ``cards`` are the
    candidates (the deck's own and any others), ``keep`` those never cut. ``planned(games)``
    hears how many goldfish games the tune will play, once it knows."""
    goal = make_goal(fmt.game, req.want, req.turn, req.milestone, req.by, req.weights)
    # a misspelt card in the goal is an error, not a goal no variant can raise (issue 23)
    asked = optional_conditions(req.want, fmt.game)
    check_known(asked, fmt.game, index)
    # the cards the goal names are candidates too: "N30 by turn 2" asks whether to add N30
    # (deckcheck's reading); a name of several printings adds none (any one may be meant)
    named = [index.found(fmt.game, ref).card for ref in named_refs(asked)]
    cards = [*cards, *(c for c in named if c is not None)]
    space = build_space(deck, fmt, index, cards, keep, req.max_changes)
    values = OddsValues(fmt, goal.odds, req.on_play)
    ask = Ask(space, goal, values, req, runner, planned)
    return _exact(ask) if goal.exact else _raced(ask)


def _exact(ask: Ask) -> TuneResult:
    space, goal, values, req, runner, planned = ask
    found, skipped = exact.search(space, values, req.top + 1)
    found = [f for f in found if f.changes][: req.top]  # the deck as it is comes first anyway
    chosen: list[tuple[Changes, int]] = [((), 1), *((f.changes, f.alike) for f in found)]
    turn = max(t.turn for t in goal.terms) or 1
    decks = [apply(space.deck, space.index, space.fmt.game, c) for c, _n in chosen]
    setups = setups_of(decks, space) if req.games else []
    if planned:
        planned(len(setups) * req.games)
    played = (
        race(setups, req.games, req.seed, turn, _none, len(setups), runner, False, req.on_play)
        if setups
        else None
    )
    views = []
    for i, (changes, alike) in enumerate(chosen):
        each = values.values(exact.variant_cards(space, changes))
        view = _view(space, goal, changes, list(each), [], 0)
        view.alike = alike
        if played is not None and (tally := played.tallies[i]) is not None:
            view.also, view.games = _also(setups[i], tally, turn), tally.games
        views.append(view)
    return _result(space, goal, req, "exact", views, [*space.skipped, *skipped], turn, setups)


def _none(_i: int, _t: Tally) -> float:
    return 0.0


def _raced(ask: Ask) -> TuneResult:
    space, goal, values, req, runner, planned = ask
    field = field_of(space, goal, values, req.max_variants)
    games = max(req.games, 1)
    if planned:
        planned(budget(len(field.arms), games, req.top + 1))
    played = race(
        field.setups, games, req.seed, goal.turns, field.score, req.top + 1, runner, True,
        req.on_play, pin=0,
    )  # fmt: skip
    finished = [i for i in range(1, len(field.arms)) if played.played[i] == games]
    order = sorted(finished, key=lambda i: (-field.score(i, _of(played.tallies[i])), i))
    views = []
    for i in [0, *order[: req.top]]:  # the deck as it is (pinned: the same games), the best
        tally = _of(played.tallies[i])
        odds = list(field.exact_part[i])
        view = _view(space, goal, field.arms[i], odds, field.shares(tally), tally.games)
        view.also = _also(field.setups[i], tally, goal.turns)
        views.append(view)
    out = _result(space, goal, req, "raced", views, field.skipped, goal.turns, field.setups)
    out.games, out.fixed_games = played.games, games * len(field.arms)
    return out


def _of(tally: Tally | None) -> Tally:
    assert tally is not None
    return tally


def _view(
    space: Space,
    goal: Goal,
    changes: Changes,
    odds: list[float],
    shares: list[tuple[int, int]],
    games: int,
) -> VariantView:
    """A variant's value: odds terms exact; milestone terms with Wilson intervals at
    1 − 0.05/m each (m milestone terms, Bonferroni), so the sum's interval holds at 95%."""
    z = stats.NormalDist().inv_cdf(1 - 0.025 / max(1, len(shares)))
    terms = [
        TermValue(label=t.label(), value=v, low=v, high=v)
        for t, v in zip(goal.odds, odds, strict=True)
    ]
    for t, (hits, n) in zip(goal.milestones, shares, strict=True):
        low, high = wilson(hits, n, z)
        terms.append(TermValue(label=t.label(), value=hits / n, low=low, high=high))
    weights = [t.weight for t in goal.odds] + [t.weight for t in goal.milestones]
    cards = {c.card.number: c.card for c in space.candidates}
    return VariantView(
        changes=[Change(number=n, name=cards[n].name, delta=d) for n, d in changes],
        words=words(changes, cards),
        value=sum(w * t.value for w, t in zip(weights, terms, strict=True)),
        low=sum(w * t.low for w, t in zip(weights, terms, strict=True)),
        high=sum(w * t.high for w, t in zip(weights, terms, strict=True)),
        terms=terms,
        games=games,
    )


def _also(setup: Setup, tally: Tally, turn: int) -> dict[str, float]:
    """What else moved, by ``turn``: each milestone's share, the mean hand size, the share of
    games lost (deck-out among the game's losses)."""
    out = {
        f"milestone:{m}": by_turn(tally, j, turn) / tally.games
        for j, m in enumerate(setup.milestones)
    }
    if "hand" in setup.metrics and turn >= 1:
        hist = tally.hist[turn - 1, setup.metrics.index("hand")]
        total = int(hist.sum())
        if total:
            out["hand"] = float((hist * range(len(hist))).sum() / total)
    out["lost"] = float(tally.losses.sum()) / tally.games
    return out


def _result(
    space: Space,
    goal: Goal,
    req: TuneRequest,
    method: Literal["exact", "raced"],
    views: list[VariantView],
    skipped: list[str],
    turn: int,
    setups: Sequence[Setup],
) -> TuneResult:
    from deckcheck.goldfish.output import word

    notes = list(values_notes(space.fmt, bool(setups)))
    keys = list(dict.fromkeys(k for v in views for k in v.also))  # in order: one JSON a seed
    names = {"hand": _("hand size"), "lost": _("games lost")}
    words = {k: names.get(k) or word(k.partition(":")[2]) for k in keys}
    return TuneResult(
        deck=space.deck.path,
        format=space.fmt.id,
        game=space.fmt.game,
        goal=[t.label() for t in goal.terms],
        method=method,
        seed=req.seed,
        base=views[0],
        variants=views[1:],
        never_tried=skipped,
        also_turn=turn,
        words=words,
        assumptions=notes,
    )


def values_notes(fmt: Format, played: bool) -> tuple[str, ...]:
    """The deal's assumptions, and the goldfish pilot's when games were played."""
    from deckcheck.odds.setup import assumed_params, rules_of

    fish = assumed_params(fmt, frozenset({"goldfish"})) if played else ()
    return tuple(dict.fromkeys([*rules_of(fmt).assumptions, *fish]))
