"""Sample opening hands by the game's procedure (``deckcheck hand``, the service's ``/hand``),
and whether each meets the player's ``--want`` conditions."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from deckcheck import plugins
from deckcheck.formats import Format
from deckcheck.i18n import _
from deckcheck.models import Card, DeckList, FormatVersion
from deckcheck.odds.api import AsideView, card_label, deck_sections, view
from deckcheck.odds.conditions import optional_conditions
from deckcheck.odds.exact import OddsError, Problem
from deckcheck.odds.keep import kept_cards
from deckcheck.odds.known import check_known
from deckcheck.odds.mulligan import Dealt
from deckcheck.odds.setup import Rules, drawable, problem_of, rules_of
from deckcheck.resolve import CardIndex


class DealtHand(BaseModel):
    hand: list[str]
    redraws: int = 0
    mulligan: list[str] | None = None  # the hand after the mulligan, when one was taken
    returned: list[str] | None = None
    # with --want: whether the dealt hand meets every condition, and the hand after the
    # mulligan (None: no want, or no mulligan taken)
    meets: bool | None = None
    mulligan_meets: bool | None = None
    # what the deal set aside, laid out or marked in the hand, as the game's spec says
    aside: list[AsideView] = Field(default_factory=list)


class HandsResult(BaseModel):
    deck: str | None
    format: str
    seed: int | None
    hands: list[DealtHand]
    want: list[str] = Field(default_factory=list)  # the conditions, as typed
    # whether a hand that misses the want is sent back: the format has a mulligan
    mulligans: bool = False
    assumptions: list[str] = Field(default_factory=list)
    format_version: FormatVersion | None = None


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
    # a hand's verdict on the want: the forced redraw's bit aside (it is no condition)
    wanted = problem_of(cards, conditions, None) if conditions and rules.forced else problem
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
            hand=[card_label(c) for c in hand],
            redraws=redraws,
            aside=[view(a) for a in shown if a.cards],
        )
        if wanted is not None:
            dealt.meets = meets(hand, wanted)
        if problem is not None and wanted is not None and rules.mulligan.active and not dealt.meets:
            redrawn = _mulligan(dealt, hand, order, problem, rules, rng)
            dealt.mulligan_meets = meets(redrawn, wanted)
        out.append(dealt)
    return HandsResult(
        deck=deck.path,
        format=fmt.id,
        seed=seed,
        hands=out,
        want=[c.text for c in conditions],
        mulligans=bool(conditions) and rules.mulligan.active,
        assumptions=list(rules.assumptions),
        format_version=fmt.version,
    )


def _mulligan(
    dealt: DealtHand,
    hand: list[Card],
    order: list[Card],
    problem: Problem,
    rules: Rules,
    rng: random.Random,
) -> list[Card]:
    """The mulligan the default policy takes of a hand that misses the want: the new hand."""
    groups, counts = _groups(hand, problem)
    keep = kept_cards(problem, tuple(counts))
    sample = Dealt(hand, order, rules.hand, groups, tuple(counts), keep)
    returned, redrawn = rules.mulligan.sample(sample, rng)
    dealt.returned = [card_label(c) for c in returned]
    dealt.mulligan = [card_label(c) for c in redrawn]
    return list(redrawn)


def meets(cards: Sequence[Card], problem: Problem) -> bool:
    """Whether ``cards`` meet every condition of ``problem`` (one without the forced redraw's
    bit), as the odds count it: one card never fills two required slots (``_holds``)."""
    return _holds(problem, _groups(cards, problem)[1])


def _groups(cards: Sequence[Card], problem: Problem) -> tuple[list[int], list[int]]:
    """Each card's group in ``problem`` (-1: no condition counts it) and each group's count."""
    index = {sig: g for g, sig in enumerate(problem.sigs)}
    counts = [0] * len(problem.sizes)
    groups = []
    for card in cards:
        sig = sum(1 << i for i, c in enumerate(problem.conditions) if c.matches(card))
        groups.append(index[sig] if sig else -1)
        if sig:
            counts[index[sig]] += 1
    return groups, counts


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
