"""The VISION board of the reference engine (engine.py): characters and the cards on the field
in order of entry, 冥界, and the rule steps on them: who may be played (必要ノード, コスト, 術者,
the turn limits, 連結 links), entering and leaving play, マナチャージ and 維持コスト. Sources as
engine.py's docstring gives them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from deckcheck.games.vision import telling
from deckcheck.games.vision.cards import Facts, facts, fuels
from deckcheck.games.vision.layout import MILESTONES
from deckcheck.games.vision.limits import Limits, charges
from deckcheck.sdk import Card, Trace, nfkc, take

if TYPE_CHECKING:
    pass

NODE_MILESTONES = 7  # node_1 … node_7: milestones 2 … 8
FIRST_FREE, FIRST_LOSS = MILESTONES.index("first_free_spell"), MILESTONES.index("first_upkeep_loss")


@dataclass(eq=False)  # identity: two equal characters are still two cards
class Unit:
    """A character (or 幻想生物) on the field."""

    card: Card
    attack: int
    turn: int  # the turn it came into play
    haste: bool
    mana: int = 0  # マナチャージ(X): its own, and the cards set on it give theirs
    equipped: bool = False  # holds an 装備 card
    charged: int = 0  # the turn it last slept for マナチャージ (it does not attack then)
    facts: Facts = field(init=False)  # its card's, read once: the hot loops ask them often

    def __post_init__(self) -> None:
        self.facts = facts(self.card)

    @property
    def attacks(self) -> bool:
        """人形 characters cannot attack (ONL 戦術 「人形を持つキャラクターは攻撃できない」)."""
        return not self.facts.no_attack


@dataclass(eq=False)
class Entry:
    """A card on your field, in the order cards came into play: a unit, or a card set on one
    (``host``) or on the field."""

    card: Card
    unit: Unit | None = None
    host: Unit | None = None
    facts: Facts = field(init=False)  # its card's, read once

    def __post_init__(self) -> None:
        self.facts = facts(self.card)


@dataclass
class Board:
    nodes: int = 0
    active: int = 0  # nodes not asleep
    units: list[Unit] = field(default_factory=list)
    placed: list[Entry] = field(default_factory=list)  # the field, in order of entry
    grave: list[Card] = field(default_factory=list)  # 冥界: played spells and commands
    played: int = 0  # cards played this turn
    free_played: int = 0  # spells played free through their 術者 this turn
    world_played: bool = False  # a 世界呪符 was played this turn
    names: set[str] = field(default_factory=set)  # ターン1枚制限 names played this turn


def user_on_field(f: Facts, units: list[Unit]) -> bool:
    """A character whose name contains the card's 術者 is on the field; a 連結 character's
    name is also each name it links (キーワード用語集 「連結」: 名称は「A」、「B」…としても扱う)."""
    return bool(f.user) and any(f.user in n for u in units for n in u.facts.names)


def free(card: Card, board: Board) -> bool:
    """A spell whose 術者 is on your field: it ignores 必要ノード and コスト (ONL カードの種類
    「ノードとコストの条件を無視できます」)."""
    return free_facts(facts(card), board)


def free_facts(f: Facts, board: Board) -> bool:
    """``free`` for a card's facts already at hand."""
    return f.role in ("spell", "creature") and user_on_field(f, board.units)


def _host(f: Facts, hosts: list[Unit]) -> Unit | None:
    """The character a card set on one goes to: the strongest that may take it (an 装備 only
    one without an 装備, a 神器 only a 伝説 one: キーワード用語集 「神器」), the first on a tie;
    None if there is none."""
    best: Unit | None = None
    for u in hosts:
        if (f.equip and u.equipped) or (f.sacred and not u.facts.legend):
            continue
        if best is None or u.attack > best.attack:
            best = u
    return best


def _link_cards(f: Facts, card: Card, hand: list[Card], board: Board) -> list[Card | Unit] | None:
    """One card for each 連結 part (冥界 first, then hand, then field), or None if a part has
    none; each card serves one part."""
    used: list[Card | Unit] = []
    places: list[list[Card | Unit]] = [
        list(board.grave),
        [c for c in hand if c is not card],
        list(board.units),
    ]
    for options in f.links:
        found: Card | Unit | None = None
        for place in places:
            for thing in place:
                name = nfkc(thing.card.name if isinstance(thing, Unit) else thing.name)
                if any(needle in name for needle in options) and not any(thing is u for u in used):
                    found = thing
                    break
            if found is not None:
                break
        if found is None:
            return None
        used.append(found)
    return used


def playable(
    card: Card, hand: list[Card], board: Board, leader_limit: int, hosts: list[Unit] | None = None
) -> bool:
    """Whether ``card`` can be played now (commands: at any timing). ``hosts``: the characters
    a card set on one may go to (the attackers, in the battle); default every one."""
    return playable_facts(card, facts(card), hand, board, leader_limit, hosts)


def playable_facts(
    card: Card,
    f: Facts,
    hand: list[Card],
    board: Board,
    leader_limit: int,
    hosts: list[Unit] | None = None,
) -> bool:
    """``playable`` for a card whose facts ``f`` the caller has already read."""
    if f.never:
        return False
    # the cheap conditions first: free() scans the field
    if (f.dash or f.node > board.nodes or f.cost > board.active) and not free_facts(f, board):
        return False
    units = board.units
    if f.leader and sum(u.facts.leader for u in units) >= leader_limit:
        return False
    if f.needs_user and not user_on_field(f, units):
        return False
    if f.on_character and _host(f, units if hosts is None else hosts) is None:
        return False
    if f.world and board.world_played:
        return False
    if f.field_equip and any(e.facts.field_equip for e in board.placed):
        return False
    if f.once_a_turn and nfkc(card.name) in board.names:
        return False
    if f.overdrive and not any(fuels(f, c) for c in board.grave):
        return False
    return not f.links or _link_cards(f, card, hand, board) is not None


def _leave(board: Board, entry: Entry) -> None:
    """``entry`` leaves the field for 冥界, with the cards set on it if it is a character."""
    board.placed.remove(entry)
    board.grave.append(entry.card)
    if entry.unit is not None:
        board.units.remove(entry.unit)
        for held in [e for e in board.placed if e.host is entry.unit]:
            _leave(board, held)
    elif entry.host is not None:
        f = entry.facts
        entry.host.attack -= f.bonus
        entry.host.mana -= f.mana
        entry.host.equipped = entry.host.equipped and not f.equip


def _put(
    card: Card,
    hand: list[Card],
    deck: list[Card],
    board: Board,
    turn: int,
    hosts: list[Unit] | None = None,
) -> int:
    """Play ``card`` from hand: sleep nodes for its cost unless it is free, remove its 連結
    cards from the game, put it where it goes. Returns the attack it adds now (a command's)."""
    f = facts(card)
    gratis = free_facts(f, board)
    if f.links:
        for thing in _link_cards(f, card, hand, board) or ():
            if isinstance(thing, Unit):  # removed from the game; what it held goes to 冥界
                entry = next(e for e in board.placed if e.unit is thing)
                _leave(board, entry)
                take(board.grave, thing.card)
            elif any(thing is c for c in hand):
                take(hand, thing)
            else:
                take(board.grave, thing)
    if f.overdrive:  # deckcheck's reading: the pilot removes one, the first in 冥界
        take(board.grave, next(c for c in board.grave if fuels(f, c)))
    take(hand, card)
    if not gratis:
        board.active -= f.cost
    board.played += 1
    board.free_played += gratis
    board.world_played |= f.world
    if f.once_a_turn:
        board.names.add(nfkc(card.name))
    added = 0
    if f.role in ("character", "creature"):
        unit = Unit(card, f.attack, turn, f.haste, f.mana)
        board.units.append(unit)
        board.placed.append(Entry(card, unit=unit))
    elif f.on_character:
        host = _host(f, board.units if hosts is None else hosts)
        assert host is not None  # playable() checked it
        host.attack += f.bonus
        host.mana += f.mana  # the text of a card set on a character is the character's
        host.equipped |= f.equip
        board.placed.append(Entry(card, host=host))
        added = f.bonus
    elif f.on_field:
        board.placed.append(Entry(card))
    else:
        board.grave.append(card)
        added = f.bonus
    return added


def charge(
    board: Board, deck: list[Card], turn: int, lim: Limits, until: int | None, trace: Trace | None
) -> None:
    """マナチャージ(X), 総合ルール §10.12.2.a 「(自分ターン)(S):〔あなたのデッキの上のカードX枚〕を
    スリープ状態でノードに加える」: each character that can sleep (in play since an earlier
    turn, or 速攻) and has the ability charges while the pilot's policy says so and the deck
    has a card; it does not attack this turn."""
    for unit in board.units:
        if not unit.mana or not deck or not (unit.turn < turn or unit.haste):
            continue
        if not charges(lim, board.nodes, until):
            return
        unit.charged = turn
        n = min(unit.mana, len(deck))
        del deck[len(deck) - n :]
        board.nodes += n
        if trace is not None:
            trace.step("resource", telling.charge(unit.card, n))


def upkeep(board: Board, trace: Trace | None = None) -> int:
    """The maintenance phase's 維持コスト, in the order the cards came into play: paid from
    active nodes, ignored while the card's 術者 is on the field, else the card is 破棄.
    Returns how many cards were 破棄; ``trace`` hears of each payment."""
    lost = 0
    for entry in list(board.placed):
        f = entry.facts
        if not f.upkeep or entry not in board.placed:
            continue
        if user_on_field(f, board.units):
            if trace is not None:
                trace.step("resource", telling.upkeep_waived(entry.card))
        elif board.active >= f.upkeep:
            board.active -= f.upkeep
            if trace is not None:
                trace.step("resource", telling.upkeep_paid(entry.card, f.upkeep))
        else:
            _leave(board, entry)
            lost += 1
    return lost


def upkeep_due(board: Board) -> int:
    """The 維持コスト the cards on the field will ask at the next maintenance phase."""
    return sum(
        e.facts.upkeep
        for e in board.placed
        if e.facts.upkeep and not user_on_field(e.facts, board.units)
    )
