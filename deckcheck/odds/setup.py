"""From a resolved deck and a format to the engine's inputs: which cards can be drawn (the
chaos partner is set aside first), how they group under the conditions, the draw timeline and
the mulligan, all from the format's parameters (rulebook sections cited there)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deckcheck.formats import Format
from deckcheck.models import Card
from deckcheck.normalize import name_key
from deckcheck.odds.conditions import Condition, parse_condition
from deckcheck.odds.exact import OddsError, Problem, Timeline
from deckcheck.resolve import number_key

MULLIGANS = ("none", "return-all-once", "bottom-once")


@dataclass(frozen=True)
class Rules:
    """How a format deals and draws, with what came from outside the rulebooks."""

    hand: int
    draw_per_turn: int
    first_player_draws: bool
    stock_per_turn: int
    mulligan: str
    forced: str | None  # a selector the opening hand must contain (iris: type:unit)
    attack_draw: bool
    first_turn_attack: bool
    sets_aside_partner: bool
    assumptions: tuple[str, ...]


def rules_of(fmt: Format) -> Rules:
    def value(key: str, default: object) -> object:
        p = fmt.parameter(key)
        return default if p is None else p.value

    mulligan = str(value("mulligan", "none"))
    if mulligan not in MULLIGANS:
        raise OddsError(f"format {fmt.id}: mulligan {mulligan!r} is not one of {MULLIGANS}")
    forced = value("forced_redraw", None)
    notes = tuple(
        f"{key} = {p.value} ({p.source})" for key, p in fmt.parameters.items() if p.assumption
    )
    return Rules(
        hand=int(str(value("opening_hand", 5))),
        draw_per_turn=int(str(value("draw_per_turn", 1))),
        first_player_draws=bool(value("first_player_draws", True)),
        stock_per_turn=int(str(value("stock_per_turn", 0))),
        mulligan=mulligan,
        forced=None if forced is None else str(forced),
        attack_draw=bool(value("attack_draw", False)),
        first_turn_attack=bool(value("first_player_first_turn_attack", True)),
        sets_aside_partner=fmt.partner is not None,
        assumptions=notes,
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
    """The cards that can reach the hand, and the partner set aside (ChaosTCG §6.2: the
    partner card if the deck has one, else the chara ``--partner`` names)."""
    rule = fmt.partner
    if rule is None:
        if partner is not None:
            raise OddsError(f"{fmt.game} has no partner; drop --partner")
        return list(cards), None
    partners = [(c, n) for c, n in cards if c.type in rule.partner_types]
    copies = sum(n for _, n in partners)
    if copies > 1:
        raise OddsError(f"the deck has {copies} partner cards; a deck may have one (§6.1)")
    if partners:
        chosen = partners[0][0]
        if partner is not None and not _is(chosen, partner):
            raise OddsError(
                f"the deck's partner card is {chosen.name}; --partner cannot choose another"
            )
    elif partner is None:
        raise OddsError(
            "the deck has no partner card: name the chara you will choose with --partner REF"
        )
    else:
        found = [c for c, _ in cards if c.type in rule.candidate_types and _is(c, partner)]
        if not found:
            raise OddsError(f"--partner {partner!r} is not a chara of the main deck")
        chosen = found[0]
    rest = [(c, n - (1 if c is chosen else 0)) for c, n in cards]
    return [(c, n) for c, n in rest if n > 0], chosen


def _is(card: Card, ref: str) -> bool:
    return number_key(card.number) == number_key(ref) or (
        name_key(card.game, card.name) == name_key(card.game, ref)
    )


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
