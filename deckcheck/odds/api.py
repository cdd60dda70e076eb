"""The odds and sample-hand questions as the CLI and the service ask them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from deckcheck import plugins
from deckcheck.checks.sections import SECTIONS
from deckcheck.formats import Format
from deckcheck.i18n import _
from deckcheck.models import Card, DeckList, FormatVersion, Game
from deckcheck.odds.conditions import (
    Condition,
    ConditionError,
    optional_conditions,
    parse_conditions,
)
from deckcheck.odds.cost import check_cost, cost_of, simulation_cost
from deckcheck.odds.exact import OddsError, Problem, exact_rows
from deckcheck.odds.keep import kept_cards
from deckcheck.odds.known import check_known
from deckcheck.odds.mulligan import NONE, Dealt
from deckcheck.odds.setup import Rules, drawable, out_of_reach, problem_of, rules_of, timeline_of
from deckcheck.plugins.deal import Aside
from deckcheck.resolve import CardIndex
from deckcheck.text import as_written
from deckcheck.wording import cited, section_label

__all__ = ["ConditionError", "OddsError", "OddsRequest", "OddsResult", "compute_odds"]

MAX_TURNS = 30
MAX_GAMES = 10_000_000


class OddsRequest(BaseModel):
    """``deckcheck odds`` options (the service takes the same fields)."""

    model_config = ConfigDict(extra="forbid")  # a misspelt option is an error, not ignored

    want: list[str] = Field(min_length=1)
    turns: int = Field(5, ge=0, le=MAX_TURNS)
    on_play: bool = True
    mulligan: bool = True
    optional_draws: bool = False  # count the draws the game's timeline lets a player choose
    aside: str | None = None  # the card the player chooses to set aside, when the game asks
    simulate: int | None = Field(None, ge=1, le=MAX_GAMES)
    seed: int | None = None
    table: str | None = None
    # the most work an exact count may take (``cost``); None: no limit (the command line)
    max_work: int | None = Field(None, ge=1)


class OddsRow(BaseModel):
    turn: int
    cards_seen: int
    probability: float
    low: float | None = None
    high: float | None = None


class CopyRow(BaseModel):
    copies: int
    rows: list[OddsRow]


class AsideView(BaseModel):
    """Cards the deal set aside, laid out or marked in the hand (the game's spec says which,
    why, and by what rule: ``note``)."""

    role: str
    label: str
    cards: list[str]
    note: str = ""
    in_hand: bool = False


class OddsResult(BaseModel):
    deck: str | None
    format: str
    game: Game
    conditions: list[str]
    mulligan: str
    on_play: bool
    method: Literal["exact", "monte-carlo"]
    games: int | None = None
    aside: list[AsideView] = Field(default_factory=list)  # set aside before the deal
    optional_draws: str | None = None  # the optional draws counted, when asked for
    rows: list[OddsRow]
    table: list[CopyRow] | None = None
    assumptions: list[str] = Field(default_factory=list)
    # conditions the deck cannot meet however it draws, and why (``setup.out_of_reach``)
    notes: list[str] = Field(default_factory=list)
    format_version: FormatVersion | None = None


def deck_sections(
    deck: DeckList, fmt: Format, index: CardIndex
) -> dict[str, list[tuple[Card, int]]]:
    """Each section's cards and counts; a deck list with unknown cards cannot be dealt (odds,
    hands and goldfish all start here)."""
    from deckcheck.validate import _read

    ctx = _read(deck, fmt, index)
    broken = [v for v in ctx.violations if v.rule.startswith("deck/") and v.severity == "error"]
    if broken:
        lines = "; ".join(_("line {n}: {text}", n=v.line, text=v.message) for v in broken[:5])
        raise OddsError(_("the deck list has problems to fix first ({problems})", problems=lines))
    return {name: [(s.card, s.count) for s in slots] for name, slots in ctx.slots.items()}


def main_deck_empty(fmt: Format) -> str:
    """ "the main deck is empty", the section named as the format labels it (each game's own
    word for its main deck)."""
    found = next((s for s in SECTIONS.of(fmt) if s.name == "main"), None)
    label = section_label(fmt.game, "main", found.label if found else "main deck")
    return _("the {section} is empty", section=label)


def deck_cards(deck: DeckList, fmt: Format, index: CardIndex) -> list[tuple[Card, int]]:
    """The main deck's cards and counts."""
    return deck_sections(deck, fmt, index).get("main", [])


def _mulligan_label(rules: Rules, req: OddsRequest, fmt: Format) -> str:
    if rules.forced:
        return _(
            "forced redraw until the hand holds {selector} (results are conditioned on it)",
            selector=rules.forced,
        )
    if not req.mulligan:
        return _("none (--no-mulligan)")
    p = fmt.parameter("mulligan")
    note = ""
    if p is not None:
        source = cited(fmt.game, p.source)
        note = " [" + (_("{source}; assumption", source=source) if p.assumption else source) + "]"
    label = rules.mulligan.describe(rules.hand)
    if not rules.mulligan.active:  # no mulligan: nothing is sent back, whatever the hand
        return label + note
    return _("{rule}{note}; kept when the hand meets every condition", rule=label, note=note)


def _rows(problem: Problem, rules: Rules, req: OddsRequest) -> list[OddsRow]:
    line = timeline_of(rules, req.turns, req.on_play, req.optional_draws)
    mulligan = rules.mulligan if req.mulligan and not rules.forced else NONE
    if req.simulate:
        from deckcheck.odds.simulate import Simulator

        cost = simulation_cost(problem, req.simulate, req.turns + 1)
        check_cost(cost, req.max_work, simulated=True)
        sim = Simulator(problem, rules, req.seed)
        estimates = sim.rows(
            req.simulate, req.turns, req.on_play, req.optional_draws, mulligan.active
        )
        return [
            OddsRow(
                turn=t, cards_seen=line.seen[t], probability=e.probability, low=e.low, high=e.high
            )
            for t, e in enumerate(estimates)
        ]
    forced = rules.forced is not None
    check_cost(cost_of(problem, line, mulligan, forced), req.max_work)  # before any counting
    values = exact_rows(problem, line, mulligan, forced)
    return [
        OddsRow(turn=t, cards_seen=line.seen[t], probability=min(1.0, max(0.0, p)))
        for t, p in enumerate(values)
    ]


def compute_odds(deck: DeckList, fmt: Format, index: CardIndex, req: OddsRequest) -> OddsResult:
    """Raises ``ConditionError`` or ``OddsError`` with a message for the user."""
    conditions = parse_conditions(req.want, fmt.game)
    check_known(conditions, fmt.game, index)
    rules = rules_of(fmt)
    cards, asides = drawable(deck_cards(deck, fmt, index), fmt, req.aside)
    if not cards:
        raise OddsError(main_deck_empty(fmt))
    problem = problem_of(cards, conditions, rules.forced)
    result = OddsResult(
        deck=deck.path,
        format=fmt.id,
        game=fmt.game,
        conditions=[c.text for c in conditions],
        mulligan=_mulligan_label(rules, req, fmt),
        on_play=req.on_play,
        method="monte-carlo" if req.simulate else "exact",
        games=req.simulate,
        aside=[view(a) for a in asides],
        optional_draws=_(rules.draws.optional) if req.optional_draws else None,
        rows=_rows(problem, rules, req),
        assumptions=list(rules.assumptions),
        notes=out_of_reach(problem),
        format_version=fmt.version,
    )
    if req.table:
        result.table = _copy_table(cards, conditions, rules, req, index, fmt)
    return result


def _copy_table(
    cards: Sequence[tuple[Card, int]],
    conditions: Sequence[Condition],
    rules: Rules,
    req: OddsRequest,
    index: CardIndex,
    fmt: Format,
) -> list[CopyRow]:
    """How the answer moves with 1–4 copies of one card, the deck size kept (blank cards make
    up the difference)."""
    text = req.table or ""
    field, _sep, ref = text.partition(":")
    if field.strip() not in ("name", "number") or not ref.strip():
        raise ConditionError(
            _("--table {text}: write name:REF or number:REF", text=as_written(text))
        )
    found = index.resolve(fmt.game, ref.strip())
    if found.card is None:
        raise ConditionError(
            _(
                "--table {text}: no {game} card {ref} in the pool",
                text=as_written(text),
                game=fmt.game,
                ref=as_written(ref.strip()),
            )
        )
    target = found.card
    held = sum(n for c, n in cards if c.number == target.number)
    others = [(c, n) for c, n in cards if c.number != target.number]
    out = []
    for copies in range(1, 5):
        problem = problem_of([*others, (target, copies)], conditions, rules.forced)
        # keep the deck size: cards that match no condition make up the difference
        rest = problem.rest + held - copies
        if rest < 0:
            continue  # only cards the conditions count could make room
        problem = Problem(problem.conditions, problem.sizes, problem.sigs, rest)
        rows = _rows(problem, rules, req.model_copy(update={"table": None}))
        out.append(CopyRow(copies=copies, rows=rows))
    return out


# --- sample hands ----------------------------------------------------------------------------


class DealtHand(BaseModel):
    hand: list[str]
    redraws: int = 0
    mulligan: list[str] | None = None  # the hand after the mulligan, when one was taken
    returned: list[str] | None = None
    # what the deal set aside, laid out or marked in the hand, as the game's spec says
    aside: list[AsideView] = Field(default_factory=list)


class HandsResult(BaseModel):
    deck: str | None
    format: str
    seed: int | None
    hands: list[DealtHand]
    assumptions: list[str] = Field(default_factory=list)
    format_version: FormatVersion | None = None


def _label(card: Card) -> str:
    return f"{card.name} ({card.number})"


def view(aside: Aside[Card]) -> AsideView:
    return AsideView(
        role=aside.role,
        label=_(aside.label),
        cards=[_label(c) for c in aside.cards],
        note=_(aside.note) if aside.note else "",
        in_hand=aside.in_hand,
    )


class HandsRequest(BaseModel):
    """``deckcheck hand`` options (the service's ``/hand`` takes the same fields)."""

    model_config = ConfigDict(extra="forbid")  # a misspelt option is an error, not ignored

    count: int = Field(1, ge=1)
    seed: int | None = None
    # keep only hands that meet these; otherwise the format's mulligan
    want: list[str] = Field(default_factory=list)
    aside: str | None = None  # the card the player chooses to set aside, when the game asks


def deal_hands(deck: DeckList, fmt: Format, index: CardIndex, req: HandsRequest) -> HandsResult:
    """``req.count`` opening hands by the game's procedure: the spec sets cards aside before
    the deal, lays cards out from other sections and marks cards of the dealt hand; a forced
    redraw repeats until the hand holds its selector. ``req.aside`` names the player's choice
    of card to set aside. With ``req.want`` conditions the default keep policy takes the
    format's mulligan."""
    count, seed, aside, want = req.count, req.seed, req.aside, req.want
    rules = rules_of(fmt)
    spec = plugins.get(fmt.game)
    conditions = optional_conditions(want, fmt.game)
    check_known(conditions, fmt.game, index)
    sections = deck_sections(deck, fmt, index)
    cards, before = drawable(sections.get("main", []), fmt, aside)
    pile = [c for c, n in cards for _ in range(n)]
    if len(pile) < rules.hand:
        raise OddsError(
            _("the deck has {n} cards; a hand needs {hand}", n=len(pile), hand=rules.hand)
        )
    rng = random.Random(seed)
    forced = None
    if rules.forced:
        from deckcheck.odds.conditions import parse_condition

        forced = parse_condition(f"{rules.forced}>=1", fmt.game)
        if not any(forced.matches(c) for c in pile):
            raise OddsError(
                _(
                    "no card of the deck can end the forced redraw ({selector})",
                    selector=rules.forced,
                )
            )
    problem = problem_of(cards, conditions, rules.forced) if conditions else None
    out = []
    for _hand in range(count):
        order = pile[:]
        rng.shuffle(order)
        redraws = 0
        while forced is not None and not any(forced.matches(c) for c in order[: rules.hand]):
            rng.shuffle(order)
            redraws += 1
        hand = order[: rules.hand]
        shown = list(before)
        if spec.deal.from_hand is not None:
            shown += spec.deal.from_hand(hand, fmt)
        if spec.deal.lay_out is not None:  # from other sections, after the shuffle (same draws)
            shown += spec.deal.lay_out(sections, fmt, rng)
        dealt = DealtHand(
            hand=[_label(c) for c in hand],
            redraws=redraws,
            aside=[view(a) for a in shown if a.cards],
        )
        if problem is not None and rules.mulligan.active:
            _mulligan(dealt, hand, order, problem, conditions, rules, rng)
        out.append(dealt)
    return HandsResult(
        deck=deck.path,
        format=fmt.id,
        seed=seed,
        hands=out,
        assumptions=list(rules.assumptions),
        format_version=fmt.version,
    )


def _mulligan(
    dealt: DealtHand,
    hand: list[Card],
    order: list[Card],
    problem: Problem,
    conditions: Sequence[Condition],
    rules: Rules,
    rng: random.Random,
) -> None:
    index = {sig: g for g, sig in enumerate(problem.sigs)}
    counts = [0] * len(problem.sizes)
    groups = []
    for card in hand:
        sig = sum(1 << i for i, c in enumerate(conditions) if c.matches(card))
        groups.append(index[sig] if sig else -1)
        if sig:
            counts[index[sig]] += 1
    if _holds(problem, counts):
        return  # the default policy keeps a hand that meets every condition
    keep = kept_cards(problem, tuple(counts))
    sample = Dealt(hand, order, rules.hand, groups, tuple(counts), keep)
    returned, redrawn = rules.mulligan.sample(sample, rng)
    dealt.returned = [_label(c) for c in returned]
    dealt.mulligan = [_label(c) for c in redrawn]


def _holds(problem: Problem, counts: Sequence[int]) -> bool:
    """Whether one hand's per-group counts meet every condition: ``Predicate.at`` for one hand,
    without the table of every count vector (nine ``>=4`` conditions: 5^9 rows, built again
    for each of ``/hand``'s hands, ran 10 minutes; issue 37)."""
    from deckcheck.odds.exact import good_rows  # looked up each call (tests count its rows)

    groups = problem.relevant()
    if not groups:
        return all(c.demand == 0 for c in problem.conditions)
    row = [[min(counts[g], problem.caps[g]) for g in groups]]
    return bool(good_rows(problem, np.array(row, dtype=np.int64))[0])
