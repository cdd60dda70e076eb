"""ラクエンロジック goldfish (ラクエンロジック ルールブック Ver1.0): no opponent, card text not
executed.

Setup (ch.2 §2): the gate deck is shuffled and its top cards go face down onto the circles (no
metric reads a gate, so the engine leaves them out); 5 cards; the bottom mulligan once (the
policy's keep rule decides what stays).

Turn: stand; draw 2, then 1 card to stock (ch.2 §4); level phase (ch.2 §5): 1 card from hand
into the level area, face down on the first player's first turn, at most 4; with 4 there a
hand card may be swapped for one (policy ``swap_level``). Main phase (ch.2 §6, ch.3 §3):

- a member is deployed when its level is at most the number of cards in the level area, its
  cost is paid from the stock, and its territory fits; a 合理体 also needs a card of its color
  or world in the level area, face up or face down (出撃条件 4, 「自分のレベル領域に置かれて
  いる」).
- territory (ch.1 §2 テリトリー): the circles are a grid of 2 rows (the mat's 6 circles, 2 × 3:
  deckcheck's reading of the mat's picture); territory 2 takes two adjacent circles, 4 a 2 × 2
  block. Members may be moved freely in the main phase (ch.2 §6 メンバーの並べ替え・移動), so a
  set of members fits when their territories add up to at most the circles and no two 2 × 2
  blocks overlap. A member may be deployed over members (ch.2 §6 出撃条件 3, ch.3 §6 メンバーの
  重複処理): they go to the drop zone with their soul; the pilot (``deploy_over``) does so only
  over members of a lower level, when the card fits no other way.
- 合体 (ch.3 §4), once a turn (policy ``gattai``): a 定理者 and a 使者 in play; a 合理体 from
  hand, else from the deck (which is then shuffled) that meets the level condition and the color
  or world condition and whose cost is paid; the 定理者 and the 使者 go under it as its soul
  (ch.3 §5). The pilot declares it only when such a 合理体 exists, so the failed 合体 (both to
  the drop zone) never happens; refreshing the deck during the search is not modelled.
- luck drive (ch.2 §6): pay 3 stock, draw 1, any number of times; the pilot decides
  (``luck_drive``, ``luck_drive_when_stuck``, ``luck_drive_times``).

End phase: the format's ``hand_limit``, when it has one (none in ルールブック Ver1.0: ch.1 §3
「手札の上限はありません」; rakuen-standard from 2017-02-26: 8, a fan source). The pilot
discards down to it, to the drop zone (Ver1.0 p.15 「手札を（指定）枚捨てる」: ドロップ領域に
置く), the cards it would play last by ``play_first`` (``Compiled.rank``): with the default
pilot tactics and paradoxes first (the goldfish plays them only into the level area), then the
members of the lowest level and cost. That choice is deckcheck's reading of what the pilot
values least.

The deck is refreshed the moment it runs out (ch.3 §6 割り込み型ルール処理, §10): the drop zone
at that moment becomes the deck; the refresh penalty (its top card removed face down) follows
when the action under way is over (チェック型ルール処理). 2 penalty cards lose (ch.3 §6 敗北判定
処理). A deck and a drop zone both empty end the game as ``deck-out`` (deckcheck's
simplification: the rulebook has no such loss).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from deckcheck.games.rakuen import MILESTONES
from deckcheck.goldfish.common import DeckOut, Record, expand, keep_of, shuffle, shuffled, take
from deckcheck.goldfish.policy import Compiled, ranker
from deckcheck.goldfish.setup import Setup
from deckcheck.models import Card

if TYPE_CHECKING:
    from deckcheck.games.rakuen import RakuenPolicy

PENALTY_LOSS = 2
# Record.invariants: the most a deployed member's level exceeded the level area (0 when legal)
LEVEL_EXCESS = "level_over_level_area"


def territory(card: Card) -> int:
    """Circles a member takes; 1 when the card data gives none (outside the card data)."""
    return card.int_of("territory") or 1


class Table:
    """One player's zones; the top of ``deck`` is the end of the list."""

    def __init__(self, deck: list[Card], rng: random.Random, circles: int, level_max: int) -> None:
        self.deck, self.rng = deck, rng
        self.max_circles, self.level_max = circles, level_max
        self.blocks = (circles // 2) // 2  # 2 × 2 blocks that fit side by side on 2 rows
        self.hand: list[Card] = []
        self.stock: list[Card] = []
        self.drop: list[Card] = []
        self.level: list[tuple[Card, bool]] = []  # (card, face up)
        self.field: list[Card] = []
        # the soul under each member of ``field``, by position: a deck's copies of a card are
        # one object, yet each copy in play is its own member with its own soul
        self.souls: list[list[Card]] = []
        self.refreshes = 0
        self.penalties = 0
        self.pending = 0  # refresh penalties not yet paid
        self.circles = 0  # circles the field's members occupy
        self.big = 0  # members of territory 4
        self._colors: set[str] | None = None  # of the level cards, until they change

    # --- the deck ---------------------------------------------------------------------------

    def _top(self) -> Card:
        if not self.deck:
            self.refresh()
        card = self.deck.pop()
        if not self.deck:
            self.refresh()  # interrupts at once: the drop zone as it is now
        return card

    def take_from_deck(self, card: Card) -> None:
        take(self.deck, card)
        if not self.deck:
            self.refresh()

    def refresh(self) -> None:
        """ch.3 §6, §10: the drop zone becomes the deck; the penalty is paid by ``settle``."""
        if not self.drop:
            raise DeckOut("deck-out")
        self.deck = self.drop
        self.drop = []
        shuffle(self.deck, self.rng)
        self.refreshes += 1
        self.pending += 1

    def settle(self) -> None:
        """ch.3 §6 リフレッシュポイント解決処理: after the action, per refresh the deck's top
        card is removed face down; 2 such cards lose."""
        while self.pending:
            self.pending -= 1
            self.penalties += 1
            if self.penalties >= PENALTY_LOSS:
                raise DeckOut("refresh-penalty")
            self._top()

    def draw(self, n: int = 1) -> None:
        for _ in range(n):
            self.hand.append(self._top())
        self.settle()

    # --- the level area ---------------------------------------------------------------------

    def colors(self) -> set[str]:
        """Colors and worlds of every level card, face up or face down (ch.2 §6 出撃条件 4)."""
        if self._colors is None:
            self._colors = {
                x for c, _up in self.level for x in (c.text_of("color"), c.text_of("world")) if x
            }
        return self._colors

    def set_level(self, level: list[tuple[Card, bool]]) -> None:
        self.level = level
        self._colors = None

    # --- the field --------------------------------------------------------------------------

    def place(self, card: Card, soul: list[Card] | None = None) -> None:
        self.field.append(card)
        self.souls.append(soul or [])
        t = territory(card)
        self.circles += t
        self.big += t == 4

    def lift(self, card: Card) -> list[Card]:
        """Take a member off the field (of copies, the first placed); returns it with its
        soul."""
        at = next(i for i, c in enumerate(self.field) if c is card)
        del self.field[at]
        t = territory(card)
        self.circles -= t
        self.big -= t == 4
        return [card, *self.souls.pop(at)]

    def fits(self, card: Card, freed: int = 0, freed_big: int = 0) -> bool:
        t = territory(card)
        return (
            self.circles - freed + t <= self.max_circles
            and self.big - freed_big + (t == 4) <= self.blocks
        )

    def room(
        self, card: Card, leaving: tuple[Card, ...] = (), over: bool = False
    ) -> list[Card] | None:
        """Members to drop so that ``card`` fits once ``leaving`` left the field ([] when it
        fits as it is); None when it cannot fit. With ``over``, the pilot drops members of a
        lower level, lowest first."""
        freed = sum(territory(c) for c in leaving)
        freed_big = sum(territory(c) == 4 for c in leaving)
        if self.fits(card, freed, freed_big):
            return []
        if not over:
            return None
        level = card.level or 0
        victims: list[Card] = []
        left = list(leaving)  # by copy: one copy leaving leaves the others on the field
        for other in sorted(self.field, key=lambda c: (c.level or 0, -territory(c))):
            gone = next((i for i, c in enumerate(left) if c is other), None)
            if gone is not None:
                del left[gone]
                continue
            if (other.level or 0) >= level:
                continue
            if (
                territory(card) == 4
                and self.big - freed_big >= self.blocks
                and territory(other) != 4
            ):
                continue  # a second 2 × 2 block needs the first one gone
            victims.append(other)
            freed += territory(other)
            freed_big += territory(other) == 4
            if self.fits(card, freed, freed_big):
                return victims
        return None

    def conditions(self, card: Card) -> bool:
        """ch.3 §3: the level condition, the cost, and for a 合理体 the color or world one."""
        if card.type != "member" or (card.level or 0) > len(self.level):
            return False
        if (card.cost or 0) > len(self.stock):
            return False
        return card.kind != "合理体" or bool(
            {card.text_of("color"), card.text_of("world")} & self.colors()
        )

    def deploy(self, card: Card, victims: list[Card], soul: list[Card] | None = None) -> None:
        """Pay the cost from the top of the stock, drop the members it covers, place it."""
        for _ in range(card.cost or 0):
            self.drop.append(self.stock.pop())
        for victim in victims:
            self.drop += self.lift(victim)
        self.place(card, soul)


def play(setup: Setup, policy: Compiled, rng: random.Random, turns: int, on_play: bool) -> Record:
    pol = cast("RakuenPolicy", policy.policy)
    rules = setup.rules
    circles = rules.param_int("circles")
    # the gate deck's top cards go face down onto the circles (ch.2 §2); nothing here reads a
    # gate, so it is not shuffled (every shuffle of a game is one of its main deck)
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
    excess = -99  # the most a deployed level exceeded the level area

    def deployed(card: Card, turn: int) -> None:
        nonlocal excess
        excess = max(excess, (card.level or 0) - len(table.level))
        for index, lv in ((0, 2), (1, 3)):
            if (card.level or 0) >= lv and not record.milestones[index]:
                record.milestones[index] = turn
        if card.kind == "合理体" and not record.milestones[2]:
            record.milestones[2] = turn

    play_rank = ranker(policy, policy.play_first)  # cards stay alive for the game: ids hold
    over = pol.deploy_over
    limit = rules.params.get("hand_limit")  # None: no hand limit

    def main_phase(turn: int) -> int:
        """Deploy members in the pilot's order while they fit; returns how many."""
        count = 0
        for card in sorted([c for c in table.hand if c.type == "member"], key=play_rank):
            if not table.conditions(card):
                continue
            victims = table.room(card, (), over)
            if victims is None:
                continue
            take(table.hand, card)
            table.deploy(card, victims)
            deployed(card, turn)
            count += 1
        return count

    for turn in range(1, turns + 1):
        try:
            table.draw(rules.draw_per_turn)  # 2, also on the first player's first turn
            for _ in range(rules.param_int("stock_per_turn")):
                table.stock.append(table._top())
                table.settle()
            _level_phase(table, policy, face_up=not (turn == 1 and on_play))
            count = main_phase(turn)
            if pol.gattai:
                merged = _gattai(table, policy, over)
                if merged is not None:
                    deployed(merged, turn)
            for _ in range(pol.luck_drive_times if pol.luck_drive else 0):
                if len(table.stock) < 3 or (count and pol.luck_drive_when_stuck):
                    break
                for _ in range(3):
                    table.drop.append(table.stock.pop())
                table.draw(1)
                count += main_phase(turn)
            if limit is not None:
                _end_phase(table, int(limit), play_rank)
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
    record.invariants[LEVEL_EXCESS] = max(excess, 0)
    return record


def _level_phase(table: Table, policy: Compiled, face_up: bool) -> None:
    if not table.hand:
        return
    if len(table.level) < table.level_max:
        # policy first; then a card of a color not yet there; then the least deployable
        colors = table.colors()

        def key(card: Card) -> tuple[object, ...]:
            fresh = bool({card.text_of("color"), card.text_of("world")} - colors - {None})
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
        new = next((c for c in table.hand if (x := c.text_of("color")) and x not in colors), None)
        if new is not None:
            old = table.level[0][0]
            take(table.hand, new)
            table.hand.append(old)
            table.set_level([*table.level[1:], (new, True)])


def _end_phase(table: Table, limit: int, rank: Callable[[Card], tuple[int, int, int, str]]) -> None:
    """Discard down to the hand limit: the cards the pilot would play last, to the drop zone;
    the others keep their order in hand."""
    if len(table.hand) <= limit:
        return
    for card in sorted(table.hand, key=rank)[limit:]:
        take(table.hand, card)
        table.drop.append(card)


def _gattai(table: Table, policy: Compiled, over: bool) -> Card | None:
    """ch.3 §4: a 定理者 and a 使者 in play become the soul of a 合理体 from hand, else from the
    deck, that meets the level and the color or world condition and whose cost is paid; it may
    take their circles (ch.4 Q19)."""
    theorists = [c for c in table.field if c.kind == "定理者"]
    envoys = [c for c in table.field if c.kind == "使者"]
    if not theorists or not envoys:
        return None
    # the pilot gives up its lowest members
    pair = (
        min(theorists, key=lambda c: (c.level or 0, c.number)),
        min(envoys, key=lambda c: (c.level or 0, c.number)),
    )
    found: tuple[Card, list[Card]] | None = None
    source = table.hand
    for source in (table.hand, table.deck):
        best: tuple[Card, list[Card]] | None = None
        for card in source:
            if card.kind != "合理体" or not table.conditions(card):
                continue
            if best is not None and policy.rank(card, policy.play_first) >= policy.rank(
                best[0], policy.play_first
            ):
                continue
            victims = table.room(card, pair, over)
            if victims is not None:
                best = (card, victims)
        if best is not None:
            found = best
            break
    if found is None:
        return None
    card, victims = found
    if source is table.deck:
        table.take_from_deck(card)
        shuffle(table.deck, table.rng)
    else:
        take(table.hand, card)
    soul = [c for member in pair for c in table.lift(member)]
    table.deploy(card, victims, soul)
    table.settle()
    return card
