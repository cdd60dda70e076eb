"""The ラクエンロジック reference engine's zones (ラクエンロジック ルールブック Ver1.0;
engine.py has the turn): the deck and its refresh, the level area, the circles of the
field."""

from __future__ import annotations

import random

from deckcheck.sdk import Card, DeckOut, per_card, shuffle, take

PENALTY_LOSS = 2


@per_card  # asked for every member at every deploy the pilot weighs
def territory(card: Card) -> int:
    """Circles a member takes; 1 when the card data gives none (outside the card data)."""
    return card.int_of("territory") or 1


@per_card
def marks(card: Card) -> frozenset[str]:
    """The card's color and world (the ones the card data gives)."""
    return frozenset(x for x in (card.text_of("color"), card.text_of("world")) if x is not None)


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
        self._lowest: list[Card] | None = None  # ``field`` by the drop order, until it changes

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
        self._lowest = None
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
        self._lowest = None
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
        if self._lowest is None:  # lowest level first, then the largest territory
            self._lowest = sorted(self.field, key=lambda c: (c.level or 0, -territory(c)))
        for other in self._lowest:
            gone = next((i for i, c in enumerate(left) if c is other), None) if left else None
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
        return card.kind != "合理体" or bool(marks(card) & self.colors())

    def deploy(self, card: Card, victims: list[Card], soul: list[Card] | None = None) -> None:
        """Pay the cost from the top of the stock, drop the members it covers, place it."""
        for _ in range(card.cost or 0):
            self.drop.append(self.stock.pop())
        for victim in victims:
            self.drop += self.lift(victim)
        self.place(card, soul)
