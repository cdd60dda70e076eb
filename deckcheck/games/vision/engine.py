"""東方 Phantom Magic VISION goldfish on real card data. The seed is the keyword glossary only:
the draw rule, the opening hand, the mulligan, the node rule and the play limits come from the
format file and are assumptions; how spells and commands are played is deckcheck's reading.
Both are printed with every result (the spec's notes). Card text is not executed.

A turn: every node becomes active; draw; set nodes from hand (the pilot picks the cards);
main phase: characters (``characters_per_turn``) and spells whose 必要ノード the nodes in play
meet and whose コスト the active nodes pay (paid by sleeping them); battle: characters in play
since an earlier turn (or with 速攻) attack an empty board, and commands that add attack are
played on them with the nodes still active."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from deckcheck.games.vision import MILESTONES
from deckcheck.goldfish.common import DeckOut, Record, expand, keep_of, redeal, shuffled, take
from deckcheck.goldfish.policy import Compiled, ranker
from deckcheck.goldfish.setup import Setup
from deckcheck.models import Card
from deckcheck.normalize import nfkc
from deckcheck.odds.conditions import Atom

if TYPE_CHECKING:
    from deckcheck.games.vision import VisionPolicy

NODE_MILESTONES = 7  # node_1 … node_7: milestones 2 … 8
_NUMBER = re.compile(r"[0-9]+")
_BONUS = re.compile(r"\+[0-9]+")


def _named(option: str) -> bool:
    """``PREFIX「NAME」`` (e.g. 夢符「…」), checked without a regular expression: the one this
    replaces backtracked quadratically on long text (tests/test_regex_time.py)."""
    start = option.find("「")
    return (
        start >= 0
        and option.endswith("」")
        and len(option) > start + 2
        and not any(c in "「」+" for c in option[:start])
        and "」" not in option[start + 1 : -1]
    )


@dataclass(frozen=True, slots=True)
class Facts:
    """What the engine reads off one card, worked out once."""

    kind: str  # character, creature (幻想生物: a spell that becomes a character), spell, command
    node: int  # 必要ノード: the nodes in play it needs
    cost: int  # コスト: the active nodes it sleeps
    attack: int  # a character's printed attack (0 when not a number)
    bonus: int  # a set-on-character spell's or a command's +N attack
    on_character: bool  # 装備 / 呪符: set on one of your characters, so it needs one
    leader: bool  # 【リーダー】: one on the field
    haste: bool  # 速攻: attacks the turn it comes into play
    never: bool  # 弐符 (spell break only), or a 連結 deckcheck cannot read
    needs_user: str | None  # ラストワード: its 術者 must be in play
    links: tuple[tuple[str, ...], ...]  # 連結: one card per part, any of its alternatives


def _links(link: str | None) -> tuple[tuple[tuple[str, ...], ...], bool]:
    """A 【連結(A+B…)】 text as parts of name needles ("X または Y": alternatives), and whether it
    is readable. 「A」 alone: a card whose name contains A; 夢符「…」: that card's full name."""
    if not link:
        return (), True
    inner = nfkc(link).removeprefix("【連結(").removesuffix(")】")
    parts: list[tuple[str, ...]] = []
    for part in inner.split("+"):
        options: list[str] = []
        for option in part.split("または"):
            option = option.strip()
            inner_name = option[1:-1]
            if option[:1] == "「" and option[-1:] == "」" and inner_name and "」" not in inner_name:
                options.append(inner_name)  # 「A」 alone
            elif _named(option):
                options.append(option)
            else:  # a condition (「人形」を持つ…4枚), not a name: the engine cannot play it
                return (), False
        parts.append(tuple(options))
    return tuple(parts), True


_MEMO: dict[int, tuple[Card, Facts]] = {}


def facts(card: Card) -> Facts:
    hit = _MEMO.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    words = {nfkc(k) for k in card.keywords}
    links, readable = _links(card.link)
    attack = nfkc(card.attack or "")
    creature = card.type == "spell" and "幻想生物" in words
    found = Facts(
        kind="creature" if creature else card.type,
        node=card.node or 0,
        cost=card.cost or 0,
        attack=int(attack) if _NUMBER.fullmatch(attack) else 0,
        bonus=int(attack) if _BONUS.fullmatch(attack) else 0,
        on_character=card.type == "spell" and bool(words & {"装備", "呪符"}),
        leader="リーダー" in words,
        haste="速攻" in words,
        never="弐符" in words or not readable,
        needs_user=card.user if "ラストワード" in words else None,
        links=links,
    )
    if len(_MEMO) > 50_000:
        _MEMO.clear()
    _MEMO[id(card)] = (card, found)
    return found


@dataclass
class Unit:
    """A character (or 幻想生物) on the field."""

    card: Card
    attack: int
    turn: int  # the turn it came into play
    haste: bool


@dataclass
class Board:
    nodes: int = 0
    active: int = 0  # nodes not yet slept this turn
    units: list[Unit] = field(default_factory=list)
    grave: list[Card] = field(default_factory=list)  # 冥界: played spells and commands
    played: int = 0  # cards played this turn


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


def playable(card: Card, hand: list[Card], board: Board, leader_limit: int) -> bool:
    """Whether ``card`` can be played now in the main phase (commands: at any timing)."""
    f = facts(card)
    if f.never or f.node > board.nodes or f.cost > board.active:
        return False
    units = board.units
    if f.leader and sum(facts(u.card).leader for u in units) >= leader_limit:
        return False
    if f.needs_user and not any(nfkc(f.needs_user) in nfkc(u.card.name) for u in units):
        return False
    if f.on_character and not units:
        return False
    return not f.links or _link_cards(f, card, hand, board) is not None


def _put(card: Card, hand: list[Card], board: Board, turn: int) -> None:
    """Play ``card`` from hand: sleep nodes for its cost, remove its 連結 cards from the game."""
    f = facts(card)
    if f.links:
        for thing in _link_cards(f, card, hand, board) or ():
            if isinstance(thing, Unit):
                board.units.remove(thing)
            elif any(thing is c for c in hand):
                take(hand, thing)
            else:
                take(board.grave, thing)
    take(hand, card)
    board.active -= f.cost
    board.played += 1
    if f.kind in ("character", "creature"):
        board.units.append(Unit(card, f.attack, turn, f.haste))
    elif f.on_character:
        strongest = max(board.units, key=lambda u: u.attack)
        strongest.attack += f.bonus
    else:
        board.grave.append(card)


def _node_key(policy: Compiled, node_first: list[Atom]) -> Callable[[Card], tuple[object, ...]]:
    rank_node, rank_play = ranker(policy, node_first), ranker(policy, policy.play_first)

    def key(card: Card) -> tuple[object, ...]:
        f = facts(card)  # max() picks the node:
        # the pilot's node_first cards first; then cards that can never be played, then
        # non-characters, then the highest 必要ノード, then the least wanted by play_first
        return (-rank_node(card)[0], f.never, f.kind != "character", f.node, rank_play(card))

    return key


def play(setup: Setup, policy: Compiled, rng: random.Random, turns: int, on_play: bool) -> Record:
    pol = cast("VisionPolicy", policy.policy)
    rules = setup.rules
    per_turn = rules.param_int("node_per_turn") if "node_per_turn" in rules.params else None
    node_per_turn = pol.node_per_turn if per_turn is None else per_turn
    characters_per_turn = rules.param_int("characters_per_turn")
    leaders = rules.param_int("leaders")
    deck = shuffled(expand(setup.drawable), rng)
    # the pilot stops setting nodes once the deck's highest 必要ノード is met, unless told
    node_until = pol.node_until
    if node_until is None:
        node_until = max((facts(c).node for c in deck if not facts(c).never), default=0)
    record = Record(milestones=[0] * len(MILESTONES))
    hand = [deck.pop() for _ in range(min(rules.hand, len(deck)))]
    if pol.mulligan and rules.mulligan == "return-all-once" and not keep_of(policy).meets(hand):
        hand = redeal(deck, hand, rules.hand, rng)
        record.mulligans = 1
    life = rules.param_int("life")
    node_key = _node_key(policy, policy.atoms["node_first"])
    rank = ranker(policy, policy.play_first)
    board = Board()
    damage = 0
    for turn in range(1, turns + 1):
        try:
            if not (turn == 1 and on_play and not rules.first_player_draws):
                for _ in range(rules.draw_per_turn):
                    if not deck:
                        raise DeckOut("deck-out")
                    hand.append(deck.pop())
        except DeckOut as out:
            record.loss, record.loss_turn = out.reason, turn
            break
        board.active = board.nodes  # every node becomes active again
        for _ in range(node_per_turn):
            if not hand or board.nodes >= node_until:
                break
            take(hand, max(hand, key=node_key))
            board.nodes += 1
            board.active += 1  # deckcheck's reading: a node set this turn pays this turn
        for k in range(1, NODE_MILESTONES + 1):
            if board.nodes >= k and not record.milestones[1 + k]:
                record.milestones[1 + k] = turn
        ready = sum(playable(c, hand, board, leaders) for c in hand)
        board.played = characters = 0
        while True:  # main phase: the pilot's first choice among what can be played
            options = [
                c
                for c in hand
                if facts(c).kind != "command"
                and (facts(c).kind != "character" or characters < characters_per_turn)
                and playable(c, hand, board, leaders)
            ]
            if not options:
                break
            card = min(options, key=lambda c: (facts(c).kind != "character", rank(c)))
            characters += facts(card).kind == "character"
            _put(card, hand, board, turn)
        if characters and not record.milestones[0]:
            record.milestones[0] = turn
        if not (turn == 1 and on_play):  # no battle on the first player's first turn
            attackers = [u for u in board.units if u.turn < turn or u.haste]
            hit = sum(u.attack for u in attackers)
            if attackers:  # commands that add attack, on the attackers, while nodes pay
                for card in sorted(hand, key=rank):
                    f = facts(card)
                    if f.kind == "command" and f.bonus > 0 and playable(card, hand, board, leaders):
                        _put(card, hand, board, turn)
                        hit += f.bonus
            damage += hit
            if damage >= life and not record.milestones[1]:
                record.milestones[1] = turn
        record.metrics.append(
            (len(hand), board.nodes, len(board.units), ready, board.played, damage, len(deck))
        )
    return record
