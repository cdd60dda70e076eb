"""From a resolved deck and a format to the engine's inputs: which cards can be drawn (the
game's spec sets cards aside first), how they group under the conditions, the draw timeline and
the mulligan, all from the format's parameters (rulebook sections cited there)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from deckcheck import games
from deckcheck.errors import PartnerError
from deckcheck.formats import Format
from deckcheck.games.registry import MulliganKind, ParamValue
from deckcheck.models import Card
from deckcheck.odds.conditions import Condition, parse_condition
from deckcheck.odds.exact import OddsError, Problem, Timeline


@dataclass(frozen=True)
class Rules:
    """How a format deals and draws, with what came from outside the rulebooks. ``params``
    holds every parameter the game's spec declares: the format's value, else the default."""

    hand: int
    draw_per_turn: int
    first_player_draws: bool
    stock_per_turn: int
    mulligan: MulliganKind
    forced: str | None  # a selector the opening hand must contain (iris: type:unit)
    attack_draw: bool
    first_turn_attack: bool
    assumptions: tuple[str, ...]
    params: Mapping[str, ParamValue] = field(default_factory=dict)

    def param_int(self, key: str) -> int:
        return int(self.params[key])


def params_of(fmt: Format) -> dict[str, ParamValue]:
    """Every parameter the game declares, from the format or its default (checked types)."""
    out: dict[str, ParamValue] = {}
    for key, spec in games.get(fmt.game).all_params().items():
        given = fmt.parameter(key)
        if given is not None:
            out[key] = given.value
        elif spec.default is not None:
            out[key] = spec.default
    return out


def rules_of(fmt: Format) -> Rules:
    params = params_of(fmt)
    try:
        mulligan = MulliganKind(str(params["mulligan"]))
    except ValueError:
        kinds = ", ".join(k.value for k in MulliganKind)
        raise OddsError(
            f"format {fmt.id}: mulligan {params['mulligan']!r} is not one of {kinds}"
        ) from None
    forced = params.get("forced_redraw")
    notes = tuple(
        f"{key} = {p.value} ({p.source})" for key, p in fmt.parameters.items() if p.assumption
    ) + tuple(games.get(fmt.game).setup_notes)
    return Rules(
        hand=int(params["opening_hand"]),
        draw_per_turn=int(params["draw_per_turn"]),
        first_player_draws=bool(params["first_player_draws"]),
        stock_per_turn=int(params.get("stock_per_turn", 0)),
        mulligan=mulligan,
        forced=None if forced is None else str(forced),
        attack_draw=bool(params.get("attack_draw", False)),
        first_turn_attack=bool(params.get("first_player_first_turn_attack", True)),
        assumptions=notes,
        params=params,
    )


def timeline(rules: Rules, turns: int, on_play: bool, attack_draws: bool) -> Timeline:
    """Row 0: the opening hand; row t: the start of your t-th main phase."""
    if attack_draws and not rules.attack_draw:
        raise OddsError("this game has no attack draw (--attack-draws is for ChaosTCG)")
    seen, consumed = [rules.hand], [rules.hand]
    drawn = attacks = 0
    for t in range(1, turns + 1):
        skip = t == 1 and on_play and not rules.first_player_draws
        drawn += 0 if skip else rules.draw_per_turn
        # the partner's attack draw, in the battle phase of each earlier turn that allows one
        earlier = t - 1
        if (
            attack_draws
            and earlier >= 1
            and not (earlier == 1 and on_play and not rules.first_turn_attack)
        ):
            attacks += 1
        seen.append(rules.hand + drawn + attacks)
        consumed.append(seen[-1] + rules.stock_per_turn * t)
    return Timeline(rules.hand, tuple(seen), tuple(consumed))


def drawable(
    cards: Sequence[tuple[Card, int]], fmt: Format, partner: str | None
) -> tuple[list[tuple[Card, int]], Card | None]:
    """The cards that can reach the hand, and the card the game sets aside before the deal
    (the game's spec decides: the ChaosTCG partner); ``partner`` names the player's choice."""
    spec = games.get(fmt.game)
    if spec.set_aside is None:
        if partner is not None:
            raise PartnerError(f"{fmt.game} has no partner; drop --partner")
        return list(cards), None
    return spec.set_aside(cards, fmt, partner, False)


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
