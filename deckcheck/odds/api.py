"""The odds and sample-hand questions as the CLI and the service ask them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.checks.sections import SECTIONS
from deckcheck.formats import Format
from deckcheck.i18n import _
from deckcheck.models import Card, DeckList, FormatVersion, Game
from deckcheck.odds.conditions import (
    Condition,
    ConditionError,
    parse_conditions,
)
from deckcheck.odds.cost import check_cost, cost_of, simulation_cost
from deckcheck.odds.exact import OddsError, Problem, exact_rows
from deckcheck.odds.known import check_known
from deckcheck.odds.mulligan import NONE
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


def table_ref(text: str) -> str:
    """The card of a ``--table``: ``name:REF``, ``number:REF`` or a bare REF (as conditions
    read a bare card name: deckcheck's reading)."""
    field, sep, ref = text.partition(":")
    return ref.strip() if sep and field.strip() in ("name", "number") else text.strip()


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
    ref = table_ref(text)
    if not ref:
        raise ConditionError(
            _("--table {text}: write name:REF or number:REF", text=as_written(text))
        )
    found = index.resolve(fmt.game, ref)
    if found.ambiguous:
        raise ConditionError(
            _(
                "--table {text}: {ref} names {n} printings that differ; write the number of "
                "one: {numbers}",
                text=as_written(text),
                ref=as_written(ref),
                n=len(found.ambiguous),
                numbers=", ".join(c.number for c in found.ambiguous),
            )
        )
    if found.card is None:
        raise ConditionError(
            _(
                "--table {text}: no {game} card {ref} in the pool",
                text=as_written(text),
                game=fmt.game,
                ref=as_written(ref),
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


def card_label(card: Card) -> str:
    return f"{card.name} ({card.number})"


def view(aside: Aside[Card]) -> AsideView:
    return AsideView(
        role=aside.role,
        label=_(aside.label),
        cards=[card_label(c) for c in aside.cards],
        note=_(aside.note) if aside.note else "",
        in_hand=aside.in_hand,
    )
