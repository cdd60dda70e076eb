"""ChaosTCG goldfish (ChaosTCG 総合ルール 2016-05-17): no opponent, card text not executed.

Setup (§6.2): the partner card is the partner (else the policy's ``partner``, else the chara
with most copies that may be partner); the other 49 are shuffled; 5 cards; the once-only full
mulligan. Turn (§7): stand, draw 1 (an empty deck at this draw loses, §1.2); main phase:

- one level-up of the partner with a chara card of its card name from hand (§7.4, §10.3: a
  set or event card of that name does not level it; [BETA] cannot level up, §13); partner
  levels stop at 3 (the levels a partner card prints); level-up costs are card text and not
  modelled;
- one normal friend play into a free friend area of 4 (§5.7, §7.4); a card with [アラガミ] never
  enters (§13 「…を登場させようとする場合それは何もしません」), as a friend or an extra chara;
- one extra chara from the extra deck (§10.1) when its ``extra_cost`` (names or traits joined
  by ``&``, §4.2) is met: one chara in the arena that meets a part is covered by the extra chara
  (its level and set cards stay under it, and it no longer counts as a chara in play, §3.9);
  the others that pay go to the 控え室, from hand first, then from the arena (the pilot's
  order), with their set cards (§11.5); the pilot never pays with the partner, and no extra of
  a name already in the arena is played; a [ソルラルチャージ] card is not played this way (§13:
  only its own rule moves it out of the extra deck);
- set cards (§3.9): a chara carries at most one set card; a [TST ゲージ] set goes only on a
  chara with the ネーム 神前美月, any number of them, and then no other set (§13 [TST ゲージ]);
  the pilot sets partner first, then friends, and leaves a set in hand when no chara can take it;
- ネーム重複処理 (§11.4): of the cards of an arena (top charas and every set) that share a ネーム
  (a 「…」 part of the card name, §2.1; none for [はるかさん], §13), only the last placed stays,
  and the partner always stays. The pilot never plays a chara or a set that would send a card of
  its own arena to the 控え室 this way (a card with no 「…」 has no ネーム and never clashes).

Battle phase: [ソルラルチャージ] (§13), when the policy's ``solral_charge`` is on: at its start a
face-down [ソルラルチャージ] extra card sharing a ネーム with the (face-up, standing) partner is
turned up and 登場 on top of the partner; it returns to the extra deck at the end of the turn
(face down: the icon of the rules' text is lost in the PDF, deckcheck's reading). The chara it
makes is in the partner area, so it is the partner (§5.7 「パートナーエリアに置かれているキャラは
パートナー状態」) and its attack draws as the partner's does. The partner's attack draw (§8.3)
in every battle phase that allows an attack. End: hand limit 7 (§7.6): the pilot discards the
events first (it never plays them), then the cards its play_first order ranks last.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from deckcheck.games.chaos import MILESTONES, cardrules, telling
from deckcheck.games.chaos.cardrules import (
    _key,
    _met,
    cost_parts,
    key_of,
    levels_up,
    may_enter,
    names,
)
from deckcheck.games.chaos.layout import MAX_LEVEL
from deckcheck.sdk import (
    Card,
    DeckOut,
    GameArgs,
    Record,
    deal,
    expand,
    gone,
    keep_of,
    ranker,
    reference_engine,
    take,
    word_key,
)

if TYPE_CHECKING:  # annotations only
    from deckcheck.games.chaos import ChaosPolicy
    from deckcheck.sdk import Compiled, Trace


# Record.invariants: the most (set cards without [TST ゲージ]) exceeded charas in play
SETS_EXCESS = "sets_over_charas"


class Chara:
    """A chara in the arena: its top card and the set cards on it."""

    __slots__ = ("card", "extra", "partner", "sets", "tst")

    def __init__(self, card: Card, partner: bool = False, extra: bool = False) -> None:
        self.card, self.partner, self.extra = card, partner, extra
        self.sets: list[Card] = []
        self.tst = 0  # how many of ``sets`` carry [TST ゲージ]


@dataclass
class _Game:
    """One game's state between the steps of a turn."""

    policy: Compiled
    pol: ChaosPolicy
    deck: list[Card]
    hand: list[Card]
    record: Record
    partner: Chara
    trace: Trace | None
    rank: Callable[[Card], tuple[int, int, int, str]]  # the pilot's play_first order
    level: int = 1
    friends: list[Chara] = field(default_factory=list)  # the friend areas' charas, extras too


@reference_engine
def play(game: GameArgs) -> Record:
    setup, rules, policy, rng, trace = game.setup, game.rules, game.policy, game.rng, game.trace
    pol = cast("ChaosPolicy", policy.policy)
    (partner_card,) = setup.aside  # chosen once by the partner rule (partner.py)
    if trace is not None:
        trace.step("play", telling.partner(partner_card))
    dealt = deal(
        setup, rng, len(MILESTONES), trace, keep_of(policy).unmet if pol.mulligan else None
    )
    partner = Chara(partner_card, True)
    rank = ranker(policy, policy.play_first)
    g = _Game(policy, pol, dealt.deck, dealt.hand, dealt.record, partner, trace, rank)
    record = g.record
    partner_key = _key(partner_card.name)
    can_level = "beta" not in {word_key(a) for a in partner_card.items_of("append")}
    extra_deck = [c for c in expand(setup.section("extra")) if cardrules.plays_as_extra(c)]
    # §13 [ソルラルチャージ]: back face down at the end of each turn, so the same every turn
    extras = setup.section("extra")
    covers = pol.solral_charge and any(cardrules.charges(c, partner_card) for c, _ in extras)
    first_attack = rules.param_bool("first_player_first_turn_attack")
    areas, hand_limit = rules.param_int("friend_areas"), rules.param_int("hand_limit")
    excess = -99
    for turn in range(1, game.turns + 1):
        if trace is not None:
            trace.turn(turn)
        try:
            _draw(g)
            if can_level:
                _level_up(g, partner_key, turn)
            if len(g.friends) < areas:
                _friend(g, partner_key)
            if pol.play_extras and extra_deck:
                _play_extra(g, extra_deck, turn)
            if pol.play_sets:
                held = list(g.hand) if trace is not None else []
                _sets(g.hand, [g.partner, *g.friends])
                if trace is not None and len(g.hand) < len(held):
                    trace.step("play", telling.sets(gone(held, g.hand)))
            # battle: [ソルラルチャージ] on the partner (the policy decides); the chara of the
            # partner area is the partner (§5.7), so it attacks (not on the first player's
            # first turn, §8.3) and draws (アタックドロー, §8.3), covered or not
            if covers and not record.milestones[2]:
                record.milestones[2] = turn
            if not (turn == 1 and game.on_play and not first_attack):
                _attack(g)
            _hand_limit(g, hand_limit)
        except DeckOut as out:
            record.loss, record.loss_turn = out.reason, turn
            break
        excess = max(excess, _tally(g))
    record.invariants[SETS_EXCESS] = max(excess, 0)
    return record


def _draw(g: _Game) -> None:
    """Draw phase (§7.3): an empty deck at this draw loses (§1.2)."""
    if not g.deck:
        raise DeckOut("deck-out")
    g.hand.append(g.deck.pop())
    if g.trace is not None:
        g.trace.draw(g.hand[-1:])


def _level_up(g: _Game, partner_key: str, turn: int) -> None:
    """Once a turn, a chara card of the partner's name from hand (§10.3)."""
    if g.level >= MAX_LEVEL:
        return
    same = next((c for c in g.hand if levels_up(c, partner_key)), None)
    if same is None:
        return
    take(g.hand, same)
    g.level += 1
    if g.trace is not None:
        g.trace.step("play", telling.level_up(same, g.level))
    for lv, index in ((2, 0), (3, 1)):
        if g.level >= lv and not g.record.milestones[index]:
            g.record.milestones[index] = turn


def _friend(g: _Game, partner_key: str) -> None:
    """One normal friend play into a free friend area, never one that a ネーム clash would send
    (or whose ネーム would send another card) to the 控え室 (§11.4)."""
    taken = _arena_names([g.partner, *g.friends])
    charas = [
        c
        for c in g.hand
        if c.type == "chara"
        and may_enter(c)
        and (g.level >= MAX_LEVEL or not levels_up(c, partner_key))
        and not names(c) & taken
    ]
    if charas:
        best = min(charas, key=g.rank)
        take(g.hand, best)
        g.friends.append(Chara(best))
        if g.trace is not None:
            g.trace.step("play", telling.friend(best))


def _play_extra(g: _Game, extra_deck: list[Card], turn: int) -> None:
    """One extra chara a turn, when its extra cost can be paid (§10.1)."""
    before = (list(extra_deck), list(g.hand)) if g.trace is not None else ([], [])
    played = _extra(extra_deck, g.hand, g.friends, g.partner)
    if g.trace is not None and played:
        (card,) = gone(before[0], extra_deck)
        g.trace.step("play", telling.extra(card, gone(before[1], g.hand)))
    if played and not g.record.milestones[2]:
        g.record.milestones[2] = turn


def _attack(g: _Game) -> None:
    """The partner's attack and its アタックドロー (§8.3), when the pilot takes it."""
    if g.pol.attack_draw and g.deck:
        g.hand.append(g.deck.pop())
        if g.trace is not None:
            g.trace.step("attack", telling.attack(g.hand[-1:]))
    elif g.trace is not None:
        g.trace.step("attack", telling.attack([]))


def _hand_limit(g: _Game, limit: int) -> None:
    """End: down to the hand limit (§7.6), keeping what the pilot can use: events (never
    played) go first, then the cards the pilot's play_first order ranks last."""
    if len(g.hand) > limit:
        g.hand.sort(key=lambda c: (c.type == "event", *g.rank(c)))
        if g.trace is not None:
            g.trace.step("discard", telling.discard(g.hand[limit:]))
        del g.hand[limit:]


def _tally(g: _Game) -> int:
    """The turn's metrics into the record (and the trace); returns how far the set cards
    without [TST ゲージ] exceed the charas in play (``SETS_EXCESS``)."""
    plain = extras = sets = tst = 0
    for chara in g.friends:
        extras += chara.extra
        plain += not chara.extra
    for chara in (g.partner, *g.friends):
        sets += len(chara.sets)
        tst += chara.tst
    if g.trace is not None:
        cards = [f.card for f in g.friends]
        state = telling.state(g.partner.card, g.level, cards, sets, len(g.hand), len(g.deck))
        g.trace.state(state)
    g.record.metrics.append((len(g.hand), g.level, plain, extras, sets, len(g.deck)))
    return sets - tst - 1 - len(g.friends)


def _arena_names(arena: list[Chara]) -> frozenset[str]:
    """The ネーム of the arena's top charas and every set card (§11.4)."""
    out: set[str] = set()
    for chara in arena:
        out |= names(chara.card)
        for s in chara.sets:
            out |= names(s)
    return frozenset(out)


def _extra(extra_deck: list[Card], hand: list[Card], friends: list[Chara], partner: Chara) -> bool:
    """§10.1: one extra chara. A friend meeting one part of the cost is covered; the other parts
    are paid by hand chara cards, then friends, which go to the 控え室."""
    # each card's key read once a call, not once a cost part as ``cardrules._meets`` reads it:
    # this search, run every main phase, was half of the reference engine's time on a deck of
    # many extra cards (issue 35)
    arena = [(f, key_of(f.card)) for f in friends]
    in_arena = {key for f, key in arena if f.extra}
    charas = [(c, key_of(c)) for c in hand if c.type == "chara"]
    tried: set[int] = set()  # a second copy (the same card object) fares as its first did
    for card in extra_deck:
        if id(card) in tried or key_of(card) in in_arena:
            continue
        tried.add(id(card))
        parts = cost_parts(card)
        for base, base_key in arena:
            first = next((i for i, p in enumerate(parts) if _met(base_key, p)), None)
            if first is None:
                continue
            rest = parts[:first] + parts[first + 1 :]
            paid_hand: list[Card] = []
            paid_arena: list[Chara] = []
            for part in rest:
                from_hand = next(
                    (
                        c
                        for c, key in charas
                        if _met(key, part) and all(c is not p for p in paid_hand)
                    ),
                    None,
                )
                if from_hand is not None:
                    paid_hand.append(from_hand)
                    continue
                from_arena = next(
                    (
                        f
                        for f, key in arena
                        if f is not base and _met(key, part) and f not in paid_arena
                    ),
                    None,
                )
                if from_arena is None:
                    break
                paid_arena.append(from_arena)
            else:
                staying = [partner, *(f for f in friends if f is not base and f not in paid_arena)]
                clash = names(card) & _arena_names(staying)
                for s in base.sets:
                    clash |= names(s) & names(card)
                if clash:
                    continue
                for c in paid_hand:
                    take(hand, c)
                for f in paid_arena:
                    friends.remove(f)  # to the 控え室, with its set cards (§11.5)
                take(extra_deck, card)
                base.card, base.extra = card, True  # covers ``base``; its sets stay (§10.1)
                return True
    return False


def _sets(hand: list[Card], arena: list[Chara]) -> None:
    """§3.9: one set card a chara; [TST ゲージ] sets any number, only on 神前美月 (§13)."""
    for card in [c for c in hand if c.type == "set"]:
        taken = _arena_names(arena)
        if names(card) & taken:
            continue  # §11.4 would send a card to the 控え室
        tst = cardrules._has(card, cardrules.TST)
        for chara in arena:
            if tst:
                ok = cardrules.MITSUKI in names(chara.card) and chara.tst == len(chara.sets)
            else:
                ok = not chara.sets
            if ok:
                take(hand, card)
                chara.sets.append(card)
                chara.tst += tst
                break
