"""ラクエンロジック goldfish (rulebook Ver1.0): no opponent, card text not executed.

Setup (ch.2 §2): 6 gates from the shuffled gate deck onto the circles; 5 cards; the bottom
mulligan once (the policy's keep rule decides what stays). Turn: stand; draw 2, then 1 card to
stock (ch.2 §4); level phase (§5): 1 card from hand into the level area, face down on the first
player's first turn, at most 4, with 4 there a hand card may be swapped for one (policy
``swap_level``); main phase (§6): deploy members whose level is at most the number of level
cards, paying their cost from the stock, fitting their territory (1, 2 or 4 circles; 1 when the
card data has none) on the 6 circles; a 合理体 also needs a face-up level card of its color or
world; one 合体 a turn (a 定理者 and a 使者 in play → a 合理体 from hand, else from the deck,
which is then shuffled); luck drive (3 stock → draw 1, once a turn). An empty deck is refreshed
at once (§10): the drop zone becomes the deck and its top card is removed face down as a
penalty; 2 penalty cards lose (ch.3 §6), as does an empty deck with an empty drop zone.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from deckcheck.games.rakuen import MILESTONES
from deckcheck.goldfish.common import DeckOut, Record, expand, keep_of, shuffle, shuffled, take
from deckcheck.goldfish.policy import Compiled, ranker
from deckcheck.goldfish.setup import Setup
from deckcheck.models import Card

if TYPE_CHECKING:
    from deckcheck.games.rakuen import RakuenPolicy

PENALTY_LOSS = 2


class Table:
    """One player's zones; the top of ``deck`` is the end of the list."""

    def __init__(self, deck: list[Card], rng: random.Random, circles: int, level_max: int) -> None:
        self.deck, self.rng = deck, rng
        self.max_circles, self.level_max = circles, level_max
        self.hand: list[Card] = []
        self.stock: list[Card] = []
        self.drop: list[Card] = []
        self.level: list[tuple[Card, bool]] = []  # (card, face up)
        self.field: list[Card] = []
        self.refreshes = 0
        self.penalties = 0
        self.circles = 0  # circles the field's members occupy
        self._colors: set[str] | None = None  # of the face-up level cards, until they change

    def _top(self) -> Card:
        if not self.deck:
            self.refresh()
        return self.deck.pop()

    def refresh(self) -> None:
        """ch.3 §10: the drop zone becomes the deck; its top card is removed face down."""
        if not self.drop:
            raise DeckOut("deck-out")
        self.deck = self.drop
        self.drop = []
        shuffle(self.deck, self.rng)
        self.refreshes += 1
        self.deck.pop()
        self.penalties += 1
        if self.penalties >= PENALTY_LOSS:
            raise DeckOut("refresh-penalty")
        if not self.deck:
            raise DeckOut("deck-out")

    def draw(self, n: int = 1) -> None:
        for _ in range(n):
            self.hand.append(self._top())

    def colors(self) -> set[str]:
        if self._colors is None:
            self._colors = {x for c, up in self.level if up for x in (c.color, c.world) if x}
        return self._colors

    def set_level(self, level: list[tuple[Card, bool]]) -> None:
        self.level = level
        self._colors = None

    def place(self, card: Card) -> None:
        self.field.append(card)
        self.circles += card.territory or 1

    def lift(self, card: Card) -> None:
        take(self.field, card)
        self.circles -= card.territory or 1

    def deployable(self, card: Card) -> bool:
        if card.type != "member" or (card.level or 0) > len(self.level):
            return False
        if (card.cost or 0) > len(self.stock):
            return False
        if self.circles + (card.territory or 1) > self.max_circles:
            return False
        return card.kind != "合理体" or bool({card.color, card.world} & self.colors())


def play(setup: Setup, policy: Compiled, rng: random.Random, turns: int, on_play: bool) -> Record:
    pol = cast("RakuenPolicy", policy.policy)
    rules = setup.rules
    circles = rules.param_int("circles")
    gate_deck = shuffled(expand(setup.section("gate")), rng)
    _circles = gate_deck[:circles]  # the gates face down on the circles (not otherwise used)
    table = Table(
        shuffled(expand(setup.drawable), rng), rng, circles, rules.param_int("level_area_max")
    )
    record = Record(milestones=[0] * len(MILESTONES))
    table.draw(rules.hand)
    keep = keep_of(policy)
    if pol.mulligan and not keep.meets(table.hand):
        kept, bottom = keep.bottom(table.hand)
        table.hand = kept
        table.deck[:0] = bottom  # to the bottom, in any order
        table.draw(len(bottom))
        record.mulligans = 1

    def milestone(card: Card, turn: int) -> None:
        for index, lv in ((0, 2), (1, 3)):
            if (card.level or 0) >= lv and not record.milestones[index]:
                record.milestones[index] = turn
        if card.kind == "合理体" and not record.milestones[2]:
            record.milestones[2] = turn

    play_rank = ranker(policy, policy.play_first)  # cards stay alive for the game: ids hold
    for turn in range(1, turns + 1):
        try:
            table.draw(rules.draw_per_turn)  # 2, also on the first player's first turn
            for _ in range(rules.stock_per_turn):
                table.stock.append(table._top())
            _level_phase(table, policy, face_up=not (turn == 1 and on_play))
            # main phase: deploy members in the pilot's order while they fit; a deployment only
            # uses up stock and circles, so one pass in that order deploys all it can
            deployed = 0
            members = [c for c in table.hand if c.type == "member"]
            if table.circles >= table.max_circles:  # every circle taken: nothing can be deployed
                members = []
            for card in sorted(members, key=play_rank):
                if not table.deployable(card):
                    continue
                take(table.hand, card)
                for _ in range(card.cost or 0):
                    table.drop.append(table.stock.pop())
                table.place(card)
                milestone(card, turn)
                deployed += 1
            if pol.gattai:
                merged = _gattai(table, policy)
                if merged is not None:
                    milestone(merged, turn)
            stuck = not deployed  # nothing could be deployed this turn
            if (
                pol.luck_drive
                and len(table.stock) >= 3
                and (stuck or not pol.luck_drive_when_stuck)
            ):
                for _ in range(3):
                    table.drop.append(table.stock.pop())
                table.draw(1)
        except DeckOut as out:
            record.loss, record.loss_turn = out.reason, turn
            break
        record.metrics.append(
            (
                len(table.hand),
                len(table.level),
                len(table.stock),
                len(table.field),
                len(table.level),
                table.refreshes,
                table.penalties,
                len(table.deck),
            )
        )
    return record


def _level_phase(table: Table, policy: Compiled, face_up: bool) -> None:
    if not table.hand:
        return
    if len(table.level) < table.level_max:
        # policy first; then a card of a color not yet there; then the least deployable
        colors = table.colors()

        def key(card: Card) -> tuple[object, ...]:
            fresh = bool({card.color, card.world} - colors - {None})
            return (
                policy.rank(card, policy.atoms["level_area_first"])[0],
                not fresh,
                -(card.level or 0),
                card.number,
            )

        card = min(table.hand, key=key)
        take(table.hand, card)
        table.set_level([*table.level, (card, face_up)])
    elif cast("RakuenPolicy", policy.policy).swap_level:
        colors = table.colors()
        new = next((c for c in table.hand if c.color and c.color not in colors), None)
        if new is not None:
            old = table.level[0][0]
            take(table.hand, new)
            table.hand.append(old)
            table.set_level([*table.level[1:], (new, True)])


def _gattai(table: Table, policy: Compiled) -> Card | None:
    """One 合体: a 定理者 and a 使者 in play become a 合理体 from hand, else from the deck."""
    theorist = next((c for c in table.field if c.kind == "定理者"), None)
    envoy = next((c for c in table.field if c.kind == "使者"), None)
    if theorist is None or envoy is None:
        return None
    colors = table.colors()
    room = table.circles - (theorist.territory or 1) - (envoy.territory or 1)

    def fits(card: Card) -> bool:
        return (
            card.kind == "合理体"
            and room + (card.territory or 1) <= table.max_circles
            and bool({card.color, card.world} & colors)
        )

    source = table.hand
    found = [c for c in table.hand if fits(c)]
    if not found:
        source = table.deck
        found = [c for c in table.deck if fits(c)]
    if not found:
        return None
    card = min(found, key=lambda c: policy.rank(c, policy.play_first))
    take(source, card)
    if source is table.deck:
        shuffle(table.deck, table.rng)
    table.lift(theorist)
    table.lift(envoy)
    table.drop += [theorist, envoy]
    table.place(card)
    return card
