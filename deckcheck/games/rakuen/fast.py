"""ラクエンロジック goldfish for a whole chunk of games at once, compiled with numba.

The same procedure as ``engine.play`` (the reference engine, which the tests hold it to, turn by
turn, within sampling error). The deck is encoded once per set-up here, in Python: each card of
``setup.drawable`` becomes an index into per-card arrays (member, kind, level, cost, territory,
its colors and world as bits), and every order the pilot sorts by becomes an integer: the
``play_first`` rank (``Compiled.rank``: selector, then higher level, higher cost, number), the
``level_area_first`` selector, the card number. The bottom mulligan is decided here too, for
every opening hand the keep rule can tell apart (its count of cards of each keep signature),
with ``Keep.meets`` and ``Keep.bottom`` themselves; the numba loop
(``fast_core``) looks the decision up. Given the same tape (``play_tape``, goldfish/shuffles.py)
it plays the reference's games card for card (tests/test_exact_rakuen.py).

numba is imported only when a batch runs (``deckcheck validate`` never imports it).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from deckcheck.sdk import Card, Compiled, Keep, Result, Setup, per_setup
from deckcheck.sdk import TapeArray as Tape
from deckcheck.sdk import batch_engines as entry_points

KINDS = {"定理者": 1, "使者": 2, "合理体": 3}
MAX_KEEP_TABLE = 1 << 20  # opening hands the keep rule tells apart, at most
MAX_COLORS = 62  # color and world names that fit an int64 mask, with one bit for ""
EMPTY = 1 << 62  # an empty color or world: never in the level area, always "fresh"

Ints = NDArray[np.int64]


class Unsupported(ValueError):
    """A set-up the batch engine does not play (``batch_ok`` says no)."""


@dataclass(frozen=True)
class Encoded:
    cards: Ints  # (8, cards): fast_core's MEMBER … NUM rows
    cmask: Ints  # color and world bits of each card
    lmask: Ints  # the bits a card brings to the level area ("" does not count)
    colbit: Ints  # the color's bit alone (swap_level), 0 without a color
    base: Ints  # the deck as card indices
    group: Ints  # each card's keep signature group, -1 for none
    radix: Ints  # the weight of one card of each group in the hand's table index
    meets: NDArray[np.bool_]  # per table index: the hand meets the keep rule
    keep: Ints  # per table index: cards of each group the bottom mulligan keeps
    params: Ints  # fast_core's P_* numbers


def _encode(setup: Setup) -> Encoded:
    from deckcheck.games.rakuen import RakuenPolicy

    if not isinstance(setup.policy, RakuenPolicy):
        raise Unsupported("not a rakuen pilot")
    pol = setup.policy
    policy = Compiled(pol, setup.game)
    rules = setup.rules
    cards = [card for card, _n in setup.drawable]
    copies = [n for _card, n in setup.drawable]
    size = sum(copies)
    if size < 2 * rules.hand + 2:
        raise Unsupported("a deck too small to deal from twice")
    n = len(cards)
    play = sorted(range(n), key=lambda i: (policy.rank(cards[i], policy.play_first), i))
    numbers = sorted(range(n), key=lambda i: (cards[i].number, i))
    names = sorted(
        {x for card in cards for x in (card.text_of("color"), card.text_of("world")) if x}
    )
    if len(names) > MAX_COLORS:
        raise Unsupported("too many colors and worlds")
    bit = {name: 1 << i for i, name in enumerate(names)} | {"": EMPTY}

    def mask(card_: Card) -> int:
        return sum(
            {bit[v] for v in (card_.text_of("color"), card_.text_of("world")) if v is not None}
        )

    table = np.zeros((8, n), dtype=np.int64)
    for i, card in enumerate(cards):
        table[:, i] = (
            card.type == "member",
            KINDS.get(card.kind or "", 0),
            card.level or 0,
            card.cost or 0,
            card.int_of("territory") or 1,
            play.index(i),
            policy.rank(card, policy.atoms["level_area_first"])[0],
            numbers.index(i),
        )
    cmask = np.array([mask(c) for c in cards], dtype=np.int64)
    colbit = np.array([bit[x] if (x := c.text_of("color")) else 0 for c in cards], dtype=np.int64)
    group, radix, meets, keep = _keep_table(policy, cards, copies, rules.hand)
    circles = rules.param_int("circles")
    limit = rules.params.get("hand_limit")
    params = np.array(
        [
            rules.hand,
            rules.draw_per_turn,
            rules.param_int("stock_per_turn"),
            circles,
            (circles // 2) // 2,  # 2 × 2 blocks side by side on 2 rows (Table.blocks)
            rules.param_int("level_area_max"),
            pol.mulligan,
            pol.deploy_over,
            pol.swap_level,
            pol.gattai,
            pol.luck_drive_times if pol.luck_drive else 0,
            pol.luck_drive_when_stuck,
            -1 if limit is None else int(limit),  # the end phase's hand limit; -1: none
        ],
        dtype=np.int64,
    )
    base = np.repeat(np.arange(n, dtype=np.int64), copies)
    return Encoded(table, cmask, cmask & ~EMPTY, colbit, base, group, radix, meets, keep, params)


def _keep_table(
    policy: Compiled, cards: list[Card], copies: list[int], hand: int
) -> tuple[Ints, Ints, NDArray[np.bool_], Ints]:
    """Per opening hand, told apart by its count of cards of each keep signature: whether it
    meets the keep rule and how many of each the bottom mulligan keeps (``Keep`` decides)."""
    keep = Keep(policy.keep)
    sigs = [keep.signature(card) for card in cards]
    groups = sorted({s for s in sigs if s})
    group = np.array([groups.index(s) if s else -1 for s in sigs], dtype=np.int64)
    most = [min(hand, sum(k for s, k in zip(sigs, copies, strict=True) if s == g)) for g in groups]
    radix = np.ones(len(groups), dtype=np.int64)
    total = 1
    for g, m in enumerate(most):
        radix[g] = total
        total *= m + 1
        if total > MAX_KEEP_TABLE:
            raise Unsupported("a keep rule that tells too many hands apart")
    rep = [cards[sigs.index(g)] for g in groups]
    meets = np.ones(total, dtype=np.bool_)
    kept = np.zeros((total, max(len(groups), 1)), dtype=np.int64)
    for counts in _vectors(most, hand):
        index = int(sum(k * int(r) for k, r in zip(counts, radix, strict=True)))
        cards_in_hand = [rep[g] for g, k in enumerate(counts) for _ in range(k)]
        if keep.meets(cards_in_hand):
            continue
        meets[index] = False
        for card in keep.bottom(cards_in_hand)[0]:
            kept[index, groups.index(keep.signature(card))] += 1
    return group, radix, meets, kept


def _vectors(most: list[int], total: int) -> itertools.chain[tuple[int, ...]]:
    """Every count vector with counts[g] <= most[g] and a sum of at most ``total``."""

    def walk(g: int, left: int) -> list[tuple[int, ...]]:
        if g == len(most):
            return [()]
        return [(k, *rest) for k in range(min(most[g], left) + 1) for rest in walk(g + 1, left - k)]

    return itertools.chain(walk(0, total))


def batch_ok(setup: Setup) -> bool:
    """Whether ``play_batch`` plays this set-up: a rakuen pilot, a deck large enough to deal
    and mulligan from, at most 62 color and world names, and a keep rule that tells at most
    ``MAX_KEEP_TABLE`` opening hands apart."""
    try:
        encode(setup)
    except Unsupported:
        return False
    return True


def _play(setup: Setup, seed: int, games: int, turns: int, on_play: bool, tape: Tape) -> Result:
    from deckcheck.games.rakuen.fast_core import play_games  # numba: only when a batch runs

    enc = encode(setup)
    metrics = np.full((games, turns, 8), -1, dtype=np.int16)
    milestones = np.zeros((games, 3), dtype=np.int16)
    mulligans = np.zeros(games, dtype=np.int32)
    loss = np.zeros(games, dtype=np.int8)
    loss_turn = np.zeros(games, dtype=np.int16)
    out = (metrics, milestones, mulligans, loss, loss_turn)
    cards = (enc.cards, enc.cmask, enc.lmask, enc.colbit)
    deal = (enc.base, enc.group, enc.radix, enc.meets, enc.keep)
    play_games(cards, deal, enc.params, seed, on_play, out, tape)
    return out


encode: Callable[[Setup], Encoded] = per_setup(_encode)  # the set-up as arrays, once per run
play_batch, play_tape = entry_points(_play)
