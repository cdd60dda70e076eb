"""The deck and the pilot of one VISION set-up as arrays, for the batch engine (fast.py).

Every distinct card becomes an index; per card, everything ``engine.play`` reads (its Facts),
and the pilot's orders as integer scores: equal keys get equal scores, so the batch engine's
"first in hand order on a tie" is the reference's ``min``/``max``/stable ``sorted``. Imports
NumPy but never numba: ``batch_ok`` runs before any batch does.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np
from numpy.typing import NDArray

from deckcheck.games.vision.cards import facts, fuels
from deckcheck.games.vision.layout import COLUMNS
from deckcheck.games.vision.limits import limits
from deckcheck.sdk import Card, Compiled, Keep, Setup, nfkc

if TYPE_CHECKING:
    from deckcheck.games.vision import VisionPolicy

ROLES = ("character", "creature", "spell", "command", "blank")  # blank: deckcheck.blank
MAX_KEEP_CONDITIONS = 12  # Hall's condition checks every subset of the keep rule's demands
# the order of ``Encoded.params``
PARAMS = (
    "hand",
    "draw_per_turn",
    "first_player_draws",
    "mulligan",
    "node_per_turn",
    "node_until",  # -1: no limit (node_until = "all")
    "characters_per_turn",
    "leaders",
    "life",
    "dolls_per_turn",
    "hand_limit",
    "ready_nodes",
    "free_first",
    "charge",  # 0 never, 1 "nodes", 2 always (VisionPolicy.mana_charge)
    "first_turn_attack",
    "field_commands",
    "upkeep_nodes",
)

Ints = NDArray[np.int32]


@dataclass(frozen=True)
class Encoded:
    deck: Ints  # the drawable deck as card indices
    cards: dict[str, Ints]  # per distinct card: role, node, cost, … (see ``encode``)
    user_ok: NDArray[np.int8]  # [card, unit's card]: that unit is the card's 術者
    link_ok: NDArray[np.int8]  # [card, 連結 part, other card]: the other may serve that part
    fuel_ok: NDArray[np.int8]  # [card, other card]: オーバードライブ may remove the other
    sig: NDArray[np.int64]  # per card: the keep conditions it matches, as bits
    bound_bit: Ints  # keep conditions with an upper bound: their bit and bound
    bound_k: Ints
    subset_mask: NDArray[np.int64]  # every subset of the demanding conditions and its need
    subset_need: Ints
    params: Ints  # PARAMS


def distinct(setup: Setup) -> tuple[list[Card], list[int]]:
    """The drawable cards, each once (by identity), and how many of each."""
    cards: list[Card] = []
    counts: list[int] = []
    where: dict[int, int] = {}
    for card, n in setup.drawable:
        i = where.get(id(card))
        if i is None:
            where[id(card)] = i = len(cards)
            cards.append(card)
            counts.append(0)
        counts[i] += n
    return cards, counts


def _deck(setup: Setup, cards: Sequence[Card]) -> Ints:
    where = {id(c): i for i, c in enumerate(cards)}
    return np.array([where[id(c)] for c, n in setup.drawable for _ in range(n)], dtype=np.int32)


def batch_ok(setup: Setup) -> bool:
    """Whether the batch engine plays this set-up as the reference would: no 連結 (Union)
    command (none is printed; the battle does not remove parts), a keep rule of at most
    MAX_KEEP_CONDITIONS conditions, and a deck that deals a full hand."""
    cards, counts = distinct(setup)
    if any(facts(c).links and facts(c).role == "command" for c in cards):
        return False
    if len(setup.policy.keep) > MAX_KEEP_CONDITIONS:
        return False
    return sum(counts) >= setup.rules.hand


def _scores(cards: Sequence[Card], key: Callable[[Card], Hashable]) -> Ints:
    """Dense ranks of ``key`` (ascending): equal keys, equal scores."""
    keys = [key(c) for c in cards]
    order = {k: i for i, k in enumerate(sorted(set(keys)))}  # type: ignore[type-var]
    return np.array([order[k] for k in keys], dtype=np.int32)


def _keep(policy: Compiled, cards: Sequence[Card]) -> dict[str, NDArray[np.int64]]:
    keep = Keep(policy.keep)
    conditions = keep.conditions
    bounds = [(i, c.bound) for i, c in enumerate(conditions) if c.bound is not None]
    demand = [i for i, c in enumerate(conditions) if c.demand]
    masks: list[int] = []
    needs: list[int] = []
    for r in range(1, len(demand) + 1):  # Hall's condition, as Keep.meets checks it
        for subset in itertools.combinations(demand, r):
            masks.append(sum(1 << i for i in subset))
            needs.append(sum(conditions[i].demand for i in subset))
    return {
        "sig": np.array([keep.signature(c) for c in cards], dtype=np.int64),
        "bound_bit": np.array([b[0] for b in bounds], dtype=np.int64),
        "bound_k": np.array([b[1] for b in bounds], dtype=np.int64),
        "subset_mask": np.array(masks, dtype=np.int64),
        "subset_need": np.array(needs, dtype=np.int64),
    }


def _params(setup: Setup, cards: Sequence[Card]) -> Ints:
    lim = limits(setup, cards)
    pol = cast("VisionPolicy", setup.policy)
    rules = setup.rules
    values = {
        "hand": rules.hand,
        "draw_per_turn": rules.draw_per_turn,
        "first_player_draws": int(rules.first_player_draws),
        "mulligan": int(pol.mulligan and rules.mulligan.name == "return-all-once"),
        "node_per_turn": lim.node_per_turn,
        "node_until": -1 if lim.node_until is None else lim.node_until,
        "characters_per_turn": lim.characters,
        "leaders": lim.leaders,
        "life": lim.life,
        "dolls_per_turn": lim.dolls,
        "hand_limit": lim.hand_limit,
        "ready_nodes": int(lim.ready_nodes),
        "free_first": int(lim.free_first),
        "charge": ("never", "nodes", "always").index(lim.charge),
        "first_turn_attack": int(lim.first_attack),
        "field_commands": int(lim.field_commands),
        "upkeep_nodes": int(lim.upkeep_nodes),
    }
    return np.array([values[k] for k in PARAMS], dtype=np.int32)


def encode(setup: Setup) -> Encoded:
    cards, _ = distinct(setup)
    policy = Compiled(setup.policy, setup.game)
    node_first = policy.atoms["node_first"]

    def rank(card: Card) -> tuple[int, int, int, str]:
        return policy.rank(card, policy.play_first)

    fs = [facts(c) for c in cards]

    def column(get: Callable[[int], int]) -> Ints:
        return np.array([get(i) for i in range(len(cards))], dtype=np.int32)

    def field(name: str) -> Ints:
        return column(lambda i: int(getattr(fs[i], name)))

    names: dict[str, int] = {}
    # every column but these three is the Facts field of its name, as a number
    skip = ("role", "has_user", "name_id", "links")
    table = {name: field(name) for name in COLUMNS if name not in skip}
    table |= {
        "links": column(lambda i: len(fs[i].links)),
        "role": column(lambda i: ROLES.index(fs[i].role)),
        "has_user": column(lambda i: bool(fs[i].user)),
        # cards of one name share an id: ターン1枚制限 counts the name (engine.Board.names)
        "name_id": column(lambda i: names.setdefault(nfkc(cards[i].name), len(names))),
        # engine._node_key (max), the main phase's (min) and the battle's sort (ascending)
        "node_score": _scores(
            cards,
            lambda c: (
                -policy.rank(c, node_first)[0],
                facts(c).never,
                facts(c).role != "character",
                facts(c).node,
                rank(c),
            ),
        ),
        "play_score": _scores(
            cards,
            lambda c: (facts(c).role != "character", facts(c).role == "command", rank(c)),
        ),
        "rank_score": _scores(cards, rank),
    }
    user_ok = np.zeros((len(cards), len(cards)), dtype=np.int8)
    for i, f in enumerate(fs):
        if f.user:
            for j, unit in enumerate(cards):
                user_ok[i, j] = any(f.user in n for n in facts(unit).names)
    parts = max((len(f.links) for f in fs), default=0)
    link_ok = np.zeros((len(cards), parts, len(cards)), dtype=np.int8)
    for i, f in enumerate(fs):  # engine._link_cards: a needle of the part in the card's name
        for p, options in enumerate(f.links):
            for j, other in enumerate(cards):
                link_ok[i, p, j] = any(needle in nfkc(other.name) for needle in options)
    fuel_ok = np.array(
        [[f.overdrive and fuels(f, other) for other in cards] for f in fs], dtype=np.int8
    ).reshape(len(cards), len(cards))
    keep = _keep(policy, cards)
    return Encoded(
        # in the order of ``setup.drawable``, as the reference's ``expand``: a stacked tape
        # (tests/agreement.py ``stacked_games``) deals both engines the same deck
        deck=_deck(setup, cards),
        cards=table,
        user_ok=user_ok,
        link_ok=link_ok,
        fuel_ok=fuel_ok,
        sig=keep["sig"],
        bound_bit=keep["bound_bit"].astype(np.int32),
        bound_k=keep["bound_k"].astype(np.int32),
        subset_mask=keep["subset_mask"],
        subset_need=keep["subset_need"].astype(np.int32),
        params=_params(setup, cards),
    )
