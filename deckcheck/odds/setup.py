"""From a resolved deck and a format to the engine's inputs: which cards can be drawn (the
game's spec sets cards aside first), how they group under the conditions, the draw timeline
(the spec's ``Draws``) and the mulligan rule, all from the format's parameters (rulebook
sections cited there)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from deckcheck import plugins
from deckcheck.errors import AsideError
from deckcheck.formats import Format
from deckcheck.formats.params import param_note
from deckcheck.i18n import _, _n
from deckcheck.models import Card
from deckcheck.odds.conditions import Condition, parse_condition
from deckcheck.odds.exact import Problem
from deckcheck.odds.mulligan import Mulligan, find_mulligan
from deckcheck.odds.timeline import Timeline, timeline
from deckcheck.plugins.contract import Param
from deckcheck.plugins.deal import Aside, Draws
from deckcheck.plugins.registry import ParamValue
from deckcheck.text import quote


@dataclass(frozen=True)
class Rules:
    """How a format deals and draws, with what came from outside the rulebooks. ``params``
    holds every parameter the game's spec declares: the format's value, else the default;
    ``draws`` is the game's draw timeline and ``mulligan`` the format's mulligan rule, both
    built from them."""

    hand: int
    draw_per_turn: int
    first_player_draws: bool
    mulligan: Mulligan
    forced: str | None  # a selector the opening hand must contain (the forced redraw)
    draws: Draws
    assumptions: tuple[str, ...]
    params: Mapping[str, ParamValue] = field(default_factory=dict)

    def param_int(self, key: str) -> int:
        return int(self.params[key])

    def param_bool(self, key: str) -> bool:
        return bool(self.params[key])


def params_of(fmt: Format) -> dict[str, ParamValue]:
    """Every parameter the game declares, from the format or its default (checked types)."""
    out: dict[str, ParamValue] = {}
    for key, spec in plugins.get(fmt.game).construction.all_params().items():
        given = fmt.parameter(key)
        if given is not None:
            out[key] = given.value
        elif spec.default is not None:
            out[key] = spec.default
    return out


COMMANDS = frozenset({"odds", "hand", "goldfish"})
DEAL = frozenset({"odds", "hand"})  # the commands that deal and draw, and play no game


def readers(param: Param | None) -> frozenset[str]:
    """The commands that read a parameter, from the head of its ``read_by`` (``"odds,
    goldfish: ..."``); every command when it names none."""
    if param is None:
        return COMMANDS
    head, sep, _rest = param.read_by.partition(":")
    names = frozenset(word.strip() for word in head.split(","))
    return names if sep and names <= COMMANDS else COMMANDS


def assumed_params(fmt: Format, commands: frozenset[str]) -> tuple[str, ...]:
    """The format's assumed parameters that one of ``commands`` reads, one note each: odds
    does not list what only goldfish plays by."""
    declared = plugins.get(fmt.game).construction.all_params()
    return tuple(
        param_note(fmt.game, key, p, with_note=False)
        for key, p in fmt.parameters.items()
        if p.assumption and readers(declared.get(key)) & commands
    )


def rules_of(fmt: Format) -> Rules:
    params = params_of(fmt)
    spec = plugins.get(fmt.game)
    mulligan = find_mulligan(spec.id, spec.deal.mulligans, str(params["mulligan"]), fmt.id)
    forced = params.get("forced_redraw")
    notes = assumed_params(fmt, DEAL) + tuple(_(note) for note in spec.deal.setup_notes)
    return Rules(
        hand=int(params["opening_hand"]),
        draw_per_turn=int(params["draw_per_turn"]),
        first_player_draws=bool(params["first_player_draws"]),
        mulligan=mulligan,
        forced=None if forced is None else str(forced),
        draws=(spec.deal.draws or Draws.from_params)(params),
        assumptions=notes,
        params=params,
    )


def timeline_of(rules: Rules, turns: int, on_play: bool, optional: bool) -> Timeline:
    """Row 0: the opening hand; row t: the start of your t-th main phase."""
    return timeline(rules.hand, rules.draws, turns, on_play, optional)


def drawable(
    cards: Sequence[tuple[Card, int]], fmt: Format, choice: str | None
) -> tuple[list[tuple[Card, int]], list[Aside[Card]]]:
    """The cards that can reach the hand, and what the game sets aside before the deal (the
    game's spec decides); ``choice`` names the player's choice of card to set aside."""
    spec = plugins.get(fmt.game)
    if spec.deal.set_aside is None:
        if choice is not None:
            raise AsideError(
                _("{game} sets no card aside before the deal; drop --aside", game=spec.words.name)
            )
        return list(cards), []
    return spec.deal.set_aside(cards, fmt, choice, False)


def problem_of(
    cards: Sequence[tuple[Card, int]], conditions: Sequence[Condition], forced: str | None
) -> Problem:
    """Group the drawable cards by the conditions they count toward (and the forced bit)."""
    forced_cond = parse_condition(f"{forced}>=1", cards[0][0].game) if forced and cards else None
    bit = 1 << len(conditions)
    groups: dict[int, int] = {}
    rest = 0
    for card, n in cards:
        sig = sum(1 << i for i, c in enumerate(conditions) if c.matches(card))
        if forced_cond is not None and forced_cond.matches(card):
            sig |= bit
        if sig:
            groups[sig] = groups.get(sig, 0) + n
        else:
            rest += n
    sigs = sorted(groups)
    return Problem(tuple(conditions), tuple(groups[s] for s in sigs), tuple(sigs), rest)


def out_of_reach(problem: Problem) -> list[str]:
    """A note for each condition the deck cannot meet however it draws: it asks for more cards
    than the deck holds that it counts (a card the deck lacks, or more copies than it has).
    The chance is then 0 on every turn, and the note says why rather than leave a table of
    zeros to puzzle over."""
    notes = []
    for i, condition in enumerate(problem.conditions):
        held = sum(n for n, sig in zip(problem.sizes, problem.sigs, strict=True) if sig >> i & 1)
        if condition.demand <= held:
            continue
        if held == 0:
            notes.append(
                _(
                    "no card of the deck counts toward {condition}, so it never holds",
                    condition=quote(condition.text),
                )
            )
        else:
            notes.append(
                _n(
                    "{n} card of the deck counts toward {condition}, which needs {k}, "
                    "so it never holds",
                    "{n} cards of the deck count toward {condition}, which needs {k}, "
                    "so it never holds",
                    held,
                    n=held,
                    condition=quote(condition.text),
                    k=condition.demand,
                )
            )
    return notes
