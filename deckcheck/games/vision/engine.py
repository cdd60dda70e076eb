"""東方 Phantom Magic VISION goldfish on real card data. Sources:
「Phantom Magic Vision 総合ルール」 (CR, undated), the publisher's rules page
「ターンの流れ」 (OFF), 東方VISIONオンライン's rules pages (ONL, 2025) and the keyword
glossary; what only fan sources give (opening hand, hand limit, life) and deckcheck's own
readings are format parameters or spec notes, printed with every result.
Card text beyond the keywords is not executed.

A turn (phases: CR §4.1.1 as fan copies reproduce it; OFF 「ターンの流れ」):
- maintenance: every node becomes active again (the format's ``node_ready``: deckcheck's
  reading, the sources disagree), then each card on the field with 維持コスト pays it from active
  nodes, in the order it came into play, or is 破棄 (glossary 「維持コスト」; ignored while a
  character named after its 術者 is on the field);
- draw (none on the first player's first turn);
- main: set nodes from hand (the pilot picks the cards); play characters (``characters_per_turn``,
  人形 on ``dolls_per_turn``, 奇襲 unlimited: ONL 戦術) and spells; a spell whose 術者 is on the
  field ignores 必要ノード and コスト (ONL カードの種類); otherwise 必要ノード counts every node in
  play (CR §5.2.2.c) and コスト sleeps active ones;
- battle: characters in play since an earlier turn (or with 速攻) attack an empty board; commands
  that add attack are played on them while active nodes pay;
- discard: down to ``hand_limit``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from deckcheck.games.vision import telling
from deckcheck.games.vision.cards import Facts, facts, fuels
from deckcheck.games.vision.layout import MILESTONES
from deckcheck.games.vision.limits import Limits, charges, limits, slot_free
from deckcheck.goldfish.common import Record, expand, keep_of, redeal, shuffled, take
from deckcheck.goldfish.policy import Compiled, ranker
from deckcheck.goldfish.setup import Setup
from deckcheck.goldfish.trace import Trace
from deckcheck.models import Card
from deckcheck.normalize import nfkc
from deckcheck.odds.conditions import Atom

if TYPE_CHECKING:
    from deckcheck.games.vision import VisionPolicy

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

    @property
    def attacks(self) -> bool:
        """人形 characters cannot attack (ONL 戦術 「人形を持つキャラクターは攻撃できない」)."""
        return not facts(self.card).no_attack


@dataclass(eq=False)
class Entry:
    """A card on your field, in the order cards came into play: a unit, or a card set on one
    (``host``) or on the field."""

    card: Card
    unit: Unit | None = None
    host: Unit | None = None


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
    return bool(f.user) and any(f.user in n for u in units for n in facts(u.card).names)


def free(card: Card, board: Board) -> bool:
    """A spell whose 術者 is on your field: it ignores 必要ノード and コスト (ONL カードの種類
    「ノードとコストの条件を無視できます」)."""
    f = facts(card)
    return f.role in ("spell", "creature") and user_on_field(f, board.units)


def _host(f: Facts, hosts: list[Unit]) -> Unit | None:
    """The character a card set on one goes to: the strongest that may take it (an 装備 only
    one without an 装備, a 神器 only a 伝説 one: キーワード用語集 「神器」), the first on a tie;
    None if there is none."""
    best: Unit | None = None
    for u in hosts:
        if (f.equip and u.equipped) or (f.sacred and not facts(u.card).legend):
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
    f = facts(card)
    if f.never:
        return False
    if not free(card, board) and (f.dash or f.node > board.nodes or f.cost > board.active):
        return False
    units = board.units
    if f.leader and sum(facts(u.card).leader for u in units) >= leader_limit:
        return False
    if f.needs_user and not user_on_field(f, units):
        return False
    if f.on_character and _host(f, units if hosts is None else hosts) is None:
        return False
    if f.world and board.world_played:
        return False
    if f.field_equip and any(facts(e.card).field_equip for e in board.placed):
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
        f = facts(entry.card)
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
    gratis = free(card, board)
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
        f = facts(entry.card)
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
        facts(e.card).upkeep
        for e in board.placed
        if not user_on_field(facts(e.card), board.units)
    )


def _node_key(policy: Compiled, node_first: list[Atom]) -> Callable[[Card], tuple[object, ...]]:
    rank_node, rank_play = ranker(policy, node_first), ranker(policy, policy.play_first)

    def key(card: Card) -> tuple[object, ...]:
        f = facts(card)  # max() picks the node (and the discard):
        # the pilot's node_first cards first; then cards that can never be played, then
        # non-characters, then the highest 必要ノード, then the least wanted by play_first
        return (-rank_node(card)[0], f.never, f.role != "character", f.node, rank_play(card))

    return key


def play(
    setup: Setup,
    policy: Compiled,
    rng: random.Random,
    turns: int,
    on_play: bool,
    trace: Trace | None = None,
) -> Record:
    pol = cast("VisionPolicy", policy.policy)
    rules = setup.rules
    deck = shuffled(expand(setup.drawable), rng)
    lim = limits(setup, deck)
    record = Record(milestones=[0] * len(MILESTONES))
    hand = [deck.pop() for _ in range(min(rules.hand, len(deck)))]
    redeals = rules.mulligan.name == "return-all-once"
    first = list(hand)
    if pol.mulligan and redeals and not keep_of(policy).meets(hand):
        hand = redeal(deck, hand, rules.hand, rng)
        record.mulligans = 1
    if trace is not None:
        trace.opening(first, [(first, hand)] if record.mulligans else [])
    node_key = _node_key(policy, policy.atoms["node_first"])
    rank = ranker(policy, policy.play_first)
    board = Board()
    damage = 0
    for turn in range(1, turns + 1):
        before = list(board.placed) if trace is not None else []
        if trace is not None:
            trace.turn(turn)
            trace.step("hand", telling.hand(hand))
        if lim.ready_nodes:  # maintenance phase: nodes first, then 維持コスト
            board.active = board.nodes
        lost = upkeep(board, trace)
        if trace is not None and lost:
            trace.step("resource", telling.lost([e.card for e in before if e not in board.placed]))
        if lost and not record.milestones[FIRST_LOSS]:
            record.milestones[FIRST_LOSS] = turn
        if not (turn == 1 and on_play and not rules.first_player_draws):
            if len(deck) < rules.draw_per_turn:
                record.loss, record.loss_turn = "deck-out", turn
                break
            hand.extend(deck.pop() for _ in range(rules.draw_per_turn))
            if trace is not None:
                trace.draw(hand[len(hand) - rules.draw_per_turn :])
        elif trace is not None:
            trace.step("draw", telling.no_draw())
        # the pilot's node target; by default the nodes 維持コスト takes come on top of it
        until = lim.node_until
        if until is not None and lim.upkeep_nodes:
            until += upkeep_due(board)
        for _ in range(lim.node_per_turn):
            if not hand or (until is not None and board.nodes >= until):
                break
            card = max(hand, key=node_key)
            take(hand, card)
            if trace is not None:
                trace.step("resource", telling.node(card))
            board.nodes += 1
            board.active += 1  # deckcheck's reading: a node set this turn pays this turn
        active, asleep = board.active, board.nodes - board.active
        charge(board, deck, turn, lim, until, trace)
        board.played = board.free_played = characters = dolls = 0
        board.world_played = False
        board.names.clear()
        ready = sum(playable(c, hand, board, lim.leaders) for c in hand)
        while True:  # main phase: the pilot's first choice among what can be played
            options = [
                c
                for c in hand
                if (facts(c).role != "command" or (lim.field_commands and facts(c).field_equip))
                and slot_free(facts(c), characters, dolls, lim)
                and playable(c, hand, board, lim.leaders)
            ]
            if not options:
                break
            card = min(
                options,
                key=lambda c: (
                    not (lim.free_first and free(c, board)),
                    facts(c).role != "character",
                    facts(c).role == "command",
                    rank(c),
                ),
            )
            f = facts(card)
            if f.role == "character" and not f.surprise:
                dolls += f.doll
                characters += not f.doll
            if f.role == "character" and not record.milestones[0]:
                record.milestones[0] = turn
            if trace is not None:
                trace.step("play", telling.play(card, free(card, board), True))
            _put(card, hand, deck, board, turn)
        if trace is not None:
            held = {nfkc(c.name): c for c in hand if facts(c).dash and facts(c).never}
            for card in held.values():  # why the pilot keeps it
                trace.step("hold", telling.held(card))
        for k in range(1, NODE_MILESTONES + 1):
            if board.nodes >= k and not record.milestones[1 + k]:
                record.milestones[1 + k] = turn
        if board.free_played and not record.milestones[FIRST_FREE]:
            record.milestones[FIRST_FREE] = turn
        # attacks, in the main phase (総合ルール §4.1.1 names no battle phase); the first
        # player's on turn 1 only if the format's first_turn_attack allows them
        if not (turn == 1 and on_play and not lim.first_attack):
            attackers = [
                u
                for u in board.units
                if u.attacks and u.charged != turn and (u.turn < turn or u.haste)
            ]
            hit = sum(u.attack for u in attackers)
            if attackers:  # commands that add attack, on the attackers, while nodes pay
                for card in sorted(hand, key=rank):
                    f = facts(card)
                    if f.role != "command" or f.bonus <= 0:
                        continue
                    if playable(card, hand, board, lim.leaders, attackers):
                        if trace is not None:
                            trace.step("play", telling.command(card, f.bonus))
                        hit += _put(card, hand, deck, board, turn, attackers)
            damage += hit
            if trace is not None and attackers:
                cards = [u.card for u in attackers]
                trace.step("attack", telling.attack(cards, hit, damage, lim.life))
            if damage >= lim.life and not record.milestones[1]:
                record.milestones[1] = turn
        while len(hand) > lim.hand_limit:  # discard phase: what the pilot would set as a node
            card = max(hand, key=node_key)
            take(hand, card)
            board.grave.append(card)
            if trace is not None:
                trace.step("discard", telling.discard(card))
        if trace is not None:
            field = [e.card for e in board.placed]  # characters and the cards set in play
            trace.state(
                telling.state(board.active, board.nodes, field, len(hand), len(deck), damage)
            )
        record.metrics.append(
            (
                len(hand),
                board.nodes,
                active,
                asleep,
                len(board.units),
                ready,
                board.played,
                board.free_played,
                lost,
                damage,
                len(deck),
            )
        )
    return record
