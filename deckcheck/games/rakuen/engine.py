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

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from deckcheck.games.rakuen import MILESTONES, telling
from deckcheck.games.rakuen.table import PENALTY_LOSS, Table, marks, territory
from deckcheck.sdk import (
    Card,
    Compiled,
    DeckOut,
    GameArgs,
    Record,
    Trace,
    deal,
    gone,
    keep_of,
    ranker,
    reference_engine,
    shuffle,
    take,
)

__all__ = ["PENALTY_LOSS", "Table", "play", "territory"]  # the zones live in table.py

if TYPE_CHECKING:
    from deckcheck.games.rakuen import RakuenPolicy

# Record.invariants: the most a deployed member's level exceeded the level area (0 when legal)
LEVEL_EXCESS = "level_over_level_area"


@dataclass
class _Game:
    """One game's table, record and pilot, and the deploys it tells."""

    table: Table
    record: Record
    policy: Compiled
    trace: Trace | None
    excess: int = -99  # the most a deployed level exceeded the level area
    rank: Callable[[Card], tuple[int, int, int, str]] = field(init=False)

    def __post_init__(self) -> None:
        self.rank = ranker(self.policy, self.policy.play_first)  # cards live all game: ids hold

    def deployed(self, card: Card, turn: int) -> None:
        self.excess = max(self.excess, (card.level or 0) - len(self.table.level))
        for index, lv in ((0, 2), (1, 3)):
            if (card.level or 0) >= lv and not self.record.milestones[index]:
                self.record.milestones[index] = turn
        if card.kind == "合理体" and not self.record.milestones[2]:
            self.record.milestones[2] = turn

    def main_phase(self, turn: int) -> int:
        """Deploy members in the pilot's order while they fit; returns how many."""
        table, over = self.table, cast("RakuenPolicy", self.policy.policy).deploy_over
        count = 0
        for card in sorted([c for c in table.hand if c.type == "member"], key=self.rank):
            if not table.conditions(card):
                continue
            victims = table.room(card, (), over)
            if victims is None:
                continue
            take(table.hand, card)
            if self.trace is not None:
                self.trace.step("play", telling.deploy(card, len(table.level), victims))
            table.deploy(card, victims)
            self.deployed(card, turn)
            count += 1
        return count


@reference_engine
def play(game: GameArgs) -> Record:
    setup, rules, policy, rng, trace = game.setup, game.rules, game.policy, game.rng, game.trace
    pol = cast("RakuenPolicy", policy.policy)
    # the gate deck's top cards go face down onto the circles (ch.2 §2); nothing here reads a
    # gate, so it is not shuffled (every shuffle of a game is one of its main deck)
    bottom = keep_of(policy) if pol.mulligan else None  # the bottom mulligan, once (ch.2 §2)
    dealt = deal(setup, rng, len(MILESTONES), trace, bottom=bottom)
    table = Table(dealt.deck, rng, rules.param_int("circles"), rules.param_int("level_area_max"))
    table.hand, record = dealt.hand, dealt.record
    g = _Game(table, record, policy, trace)
    limit = rules.params.get("hand_limit")  # None: no hand limit
    for turn in range(1, game.turns + 1):
        refreshes = table.refreshes
        if trace is not None:
            trace.turn(turn)
        try:
            table.draw(rules.draw_per_turn)  # 2, also on the first player's first turn
            if trace is not None:
                trace.draw(table.hand[len(table.hand) - rules.draw_per_turn :])
            for _ in range(rules.param_int("stock_per_turn")):
                table.stock.append(table._top())
                if trace is not None:
                    trace.step("resource", telling.stock(table.stock[-1]))
                table.settle()
            _level_phase(table, policy, not (turn == 1 and game.on_play), trace)
            count = g.main_phase(turn)
            if pol.gattai:
                merged = _gattai(table, policy, pol.deploy_over)
                if merged is not None:
                    g.deployed(merged, turn)
                    if trace is not None:
                        trace.step("play", telling.gattai(merged, table.souls[-1]))
            _luck_drive(g, pol, count, turn)
            if limit is not None:
                held = list(table.hand) if trace is not None else []
                _end_phase(table, int(limit), g.rank)
                if trace is not None and len(table.hand) < len(held):
                    trace.step("discard", telling.discard(gone(held, table.hand)))
        except DeckOut as out:
            record.loss, record.loss_turn = out.reason, turn
            break
        if trace is not None:
            if table.refreshes > refreshes:
                trace.step("resource", telling.refresh(table.refreshes, table.penalties))
            trace.state(_state(table))
        record.metrics.append(_metrics(table))
    record.invariants[LEVEL_EXCESS] = max(g.excess, 0)
    return record


def _luck_drive(g: _Game, pol: RakuenPolicy, count: int, turn: int) -> None:
    """Luck drive (ch.2 §6): pay 3 stock, draw 1, then deploy again, as the pilot decides."""
    table = g.table
    for _ in range(pol.luck_drive_times if pol.luck_drive else 0):
        if len(table.stock) < 3 or (count and pol.luck_drive_when_stuck):
            break
        for _ in range(3):
            table.drop.append(table.stock.pop())
        table.draw(1)
        if g.trace is not None:
            g.trace.step("draw", telling.luck_drive(table.hand[-1:]))
        count += g.main_phase(turn)


def _metrics(table: Table) -> tuple[int, ...]:
    return (
        len(table.hand),
        len(table.level),
        len(table.stock),
        len(table.field),
        len(table.level),
        table.refreshes,
        table.penalties,
        len(table.deck),
    )


def _state(table: Table) -> str:
    return telling.state(
        len(table.level),
        len(table.stock),
        table.field,
        len(table.hand),
        len(table.deck),
        len(table.drop),
    )


def _level_phase(table: Table, policy: Compiled, face_up: bool, trace: Trace | None = None) -> None:
    if not table.hand:
        return
    if len(table.level) < table.level_max:
        # policy first; then a card of a color not yet there; then the least deployable
        colors = table.colors()

        def key(card: Card) -> tuple[object, ...]:
            fresh = bool(marks(card) - colors)
            return (
                policy.rank(card, policy.atoms["level_area_first"])[0],
                not fresh,
                -(card.level or 0),
                card.number,
            )

        card = min(table.hand, key=key)
        take(table.hand, card)
        table.set_level([*table.level, (card, face_up)])
        if trace is not None:
            trace.step("resource", telling.level(card, face_up))
    elif cast("RakuenPolicy", policy.policy).swap_level:
        colors = table.colors()
        new = next((c for c in table.hand if (x := c.text_of("color")) and x not in colors), None)
        if new is not None:
            old = table.level[0][0]
            take(table.hand, new)
            table.hand.append(old)
            table.set_level([*table.level[1:], (new, True)])
            if trace is not None:
                trace.step("resource", telling.swap(new, old))


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
