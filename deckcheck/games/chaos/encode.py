"""ChaosTCG batch goldfish, part one: a set-up's deck and pilot as arrays, once per set-up.

``fast.play_batch`` plays these arrays (numba); this module imports neither numba nor an
engine, so ``batch_ok`` costs little. Every distinct card (by identity, as the reference engine
compares cards) gets an index: the drawable cards, the partner, the extra cards the pilot plays
by §10.1. What the reference engine asks of a card is computed here with the engine's own
functions (``names``, ``_key``, ``_meets``, ``levels_up``, ``may_enter``, ``plays_as_extra``,
``charges``, ``policy.rank``, ``Keep.signature``), so both engines read the same cards the same
way.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np
from numpy.typing import NDArray

from deckcheck.games.chaos.cardrules import (
    MITSUKI,
    TST,
    _has,
    _key,
    _meets,
    charges,
    levels_up,
    may_enter,
    names,
    plays_as_extra,
)
from deckcheck.games.chaos.layout import (
    CHARA,
    EVENT,
    INTS,
    LEVEL_UP,
    MITSUKI_NAME,
    NO_ENTRY,
    SET,
    TST_SET,
)
from deckcheck.sdk import Card, Compiled, Keep, Setup, keep_of, per_setup, word_key

if TYPE_CHECKING:
    from deckcheck.games.chaos import ChaosPolicy

MAX_NAMES = 64  # ネーム become bits of a uint64
MAX_DEMANDS = 12  # Hall's condition over 2**12 subsets at most
MAX_CONDITIONS = 62  # keep signatures are int64 bits


@dataclass(frozen=True)
class Encoded:
    deck: NDArray[np.int32]  # the drawable cards, one entry a copy
    flags: NDArray[np.int32]  # per card: CHARA | SET | …
    names: NDArray[np.uint64]  # per card: its ネーム as bits
    rank: NDArray[np.int32]  # per card: the pilot's play_first order (equal ranks tie)
    key: NDArray[np.int32]  # per card: its name key as a number
    sig: NDArray[np.int64]  # per card: the keep rule's condition bits
    bounds: NDArray[np.int64]  # (n, 2): condition bit, most matching cards allowed
    hall: NDArray[np.int64]  # (n, 2): a subset of demanding conditions as bits, cards needed
    extra_card: NDArray[np.int32]  # the extra cards with a cost, in extra-deck order
    extra_count: NDArray[np.int32]  # their copies
    meets: NDArray[np.uint8]  # (cards, extras, parts): card meets that part of the cost
    nparts: NDArray[np.int32]  # parts of each extra cost
    partner: int
    ints: NDArray[np.int64]  # INTS


def batch_ok(setup: Setup) -> bool:
    """Whether ``fast.play_batch`` plays this set-up as the reference engine would."""
    return encoded(setup) is not None


def _encode(setup: Setup) -> Encoded | None:
    """None when the batch engine cannot play the set-up: more than 64 distinct ネーム, a keep
    rule with more than 12 demanding conditions (or 62 conditions), no partner, a negative hand
    limit or friend areas, or a deck too small to deal from."""
    policy = Compiled(setup.policy, setup.game)
    pol = cast("ChaosPolicy", policy.policy)
    rules = setup.rules
    friend_areas, hand_limit = rules.param_int("friend_areas"), rules.param_int("hand_limit")
    if len(setup.aside) != 1 or friend_areas < 0 or hand_limit < 0:
        return None
    if sum(n for _, n in setup.drawable) < rules.hand:
        return None
    keep = keep_of(policy)
    demands = [i for i, c in enumerate(keep.conditions) if c.demand]
    if len(demands) > MAX_DEMANDS or len(keep.conditions) > MAX_CONDITIONS:
        return None
    (partner_card,) = setup.aside
    extras = [(c, n) for c, n in setup.section("extra") if plays_as_extra(c)]
    cards: list[Card] = []
    index: dict[int, int] = {}
    for card in [*(c for c, _ in setup.drawable), partner_card, *(c for c, _ in extras)]:
        if id(card) not in index:
            index[id(card)] = len(cards)
            cards.append(card)
    all_names = sorted({n for c in cards for n in names(c)})
    if len(all_names) > MAX_NAMES:
        return None
    bit = {n: 1 << i for i, n in enumerate(all_names)}
    partner_key = _key(partner_card.name)
    keys: dict[str, int] = {}
    ranks = [policy.rank(c, policy.play_first) for c in cards]
    order = {r: i for i, r in enumerate(sorted(set(ranks)))}
    extra_card, extra_count, parts = _extra_deck(extras, index, cards)
    bounds = [(1 << i, c.bound) for i, c in enumerate(keep.conditions) if c.bound is not None]
    covered = pol.solral_charge and any(charges(c, partner_card) for c, _ in setup.section("extra"))
    can_level = "beta" not in {word_key(a) for a in partner_card.items_of("append")}
    ints = {
        "can_level": can_level,
        "friend_areas": friend_areas,
        "hand_limit": hand_limit,
        "hand": rules.hand,
        "mulligan": pol.mulligan,
        "play_extras": pol.play_extras,
        "play_sets": pol.play_sets,
        "attack_draw": pol.attack_draw,
        "covered": covered,
        "first_turn_attack": rules.param_bool("first_player_first_turn_attack"),
    }
    return Encoded(
        deck=np.array([index[id(c)] for c, n in setup.drawable for _ in range(n)], dtype=np.int32),
        flags=np.array([_flags(c, partner_key) for c in cards], dtype=np.int32),
        names=np.array([sum(bit[n] for n in names(c)) for c in cards], dtype=np.uint64),
        rank=np.array([order[r] for r in ranks], dtype=np.int32),
        key=np.array([keys.setdefault(_key(c.name), len(keys)) for c in cards], dtype=np.int32),
        sig=np.array([keep.signature(c) for c in cards], dtype=np.int64),
        bounds=np.array(bounds, dtype=np.int64).reshape(-1, 2),
        hall=np.array(_hall(keep, demands), dtype=np.int64).reshape(-1, 2),
        extra_card=np.array(extra_card, dtype=np.int32),
        extra_count=np.array(extra_count, dtype=np.int32),
        meets=_meets_table(cards, parts),
        nparts=np.array([len(p) for p in parts], dtype=np.int32),
        partner=index[id(partner_card)],
        ints=np.array([int(ints[k]) for k in INTS], dtype=np.int64),
    )


def _flags(card: Card, partner_key: str) -> int:
    """The card's rule flags (layout.py), as the reference engine reads the card."""
    flag = CHARA if card.type == "chara" else SET if card.type == "set" else 0
    flag |= EVENT if card.type == "event" else 0
    flag |= TST_SET if card.type == "set" and _has(card, TST) else 0
    flag |= MITSUKI_NAME if MITSUKI in names(card) else 0
    flag |= LEVEL_UP if levels_up(card, partner_key) else 0
    flag |= 0 if may_enter(card) else NO_ENTRY
    return flag


def _extra_deck(
    extras: list[tuple[Card, int]], index: dict[int, int], cards: list[Card]
) -> tuple[list[int], list[int], list[list[str]]]:
    """The extra deck in the reference's order, one entry per card (copies behave alike):
    (its card indices, its copies, each entry's extra cost parts)."""
    extra_card: list[int] = []
    extra_count: list[int] = []
    for card, n in extras:
        i = index[id(card)]
        if i in extra_card:
            extra_count[extra_card.index(i)] += n
        else:
            extra_card.append(i)
            extra_count.append(n)
    costs = [cards[e].text_of("extra_cost") or "" for e in extra_card]
    return extra_card, extra_count, [[_key(p) for p in cost.split("&")] for cost in costs]


def _meets_table(cards: list[Card], parts: list[list[str]]) -> NDArray[np.uint8]:
    """[card, extra entry, part]: 1 when the card meets that part of the entry's cost."""
    most = max((len(p) for p in parts), default=1)
    meets = np.zeros((len(cards), len(parts), most), dtype=np.uint8)
    for e, cost in enumerate(parts):
        for j, part in enumerate(cost):
            for i, card in enumerate(cards):
                meets[i, e, j] = _meets(card, part)
    return meets


def _hall(keep: Keep, demands: list[int]) -> list[tuple[int, int]]:
    """Hall's condition of the keep rule: (mask of a set of demanding conditions, their total
    demand) for every non-empty set."""
    hall = []
    for r in range(1, len(demands) + 1):
        for subset in itertools.combinations(demands, r):
            mask = sum(1 << i for i in subset)
            hall.append((mask, sum(keep.conditions[i].demand for i in subset)))
    return hall


encoded: Callable[[Setup], Encoded | None] = per_setup(_encode)
