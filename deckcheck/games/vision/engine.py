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
  then characters in play since an earlier turn (or with 速攻) charge (マナチャージ, by the
  pilot's ``mana_charge``) or attack an empty board, 人形 never (ONL 戦術): attacks happen in
  the main phase (CR §4.1.1 has no battle phase; the first player's turn-1 attack is the
  format's ``first_turn_attack``); commands that add attack are played on them while active
  nodes pay;
- discard: down to ``hand_limit``.

The board and its rule steps are in board.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from deckcheck.games.vision import telling
from deckcheck.games.vision.board import (
    Board,
    _put,
    charge,
    free,
    free_facts,
    playable,
    playable_facts,
    upkeep,
    upkeep_due,
)
from deckcheck.games.vision.cards import facts
from deckcheck.games.vision.layout import MILESTONES
from deckcheck.games.vision.limits import Limits, limits, slot_free
from deckcheck.sdk import (
    Atom,
    Card,
    Compiled,
    GameArgs,
    Record,
    Trace,
    deal,
    keep_of,
    nfkc,
    ranker,
    reference_engine,
    take,
)

if TYPE_CHECKING:
    from deckcheck.games.vision import VisionPolicy

NODE_MILESTONES = 7  # node_1 … node_7: milestones 2 … 8
FIRST_FREE, FIRST_LOSS = MILESTONES.index("first_free_spell"), MILESTONES.index("first_upkeep_loss")


def _node_key(policy: Compiled, node_first: list[Atom]) -> Callable[[Card], tuple[object, ...]]:
    rank_node, rank_play = ranker(policy, node_first), ranker(policy, policy.play_first)
    memo: dict[int, tuple[object, ...]] = {}  # by card: a game's cards are few, its turns many

    def key(card: Card) -> tuple[object, ...]:
        hit = memo.get(id(card))
        if hit is None:
            f = facts(card)  # max() picks the node (and the discard):
            # the pilot's node_first cards first; then cards that can never be played, then
            # non-characters, then the highest 必要ノード, then the least wanted by play_first
            hit = (-rank_node(card)[0], f.never, f.role != "character", f.node, rank_play(card))
            memo[id(card)] = hit
        return hit

    return key


@reference_engine
def play(game: GameArgs) -> Record:
    setup, rules, policy, rng, trace = game.setup, game.rules, game.policy, game.rng, game.trace
    pol = cast("VisionPolicy", policy.policy)
    mulligan = pol.mulligan and rules.mulligan.name == "return-all-once"
    redeal_while = keep_of(policy).unmet if mulligan else None
    dealt = deal(setup, rng, len(MILESTONES), trace, redeal_while, short=True)
    deck, hand, record = dealt.deck, dealt.hand, dealt.record
    lim = limits(setup, [c for c, _ in setup.drawable])  # of the whole deck, the hand's too
    node_key = _node_key(policy, policy.atoms["node_first"])
    rank = ranker(policy, policy.play_first)
    board = Board()
    side = _Side(hand, deck, board, lim, rank)
    damage = 0
    for turn in range(1, game.turns + 1):
        if trace is not None:
            trace.turn(turn)
            trace.step("hand", telling.hand(hand))
        lost = _maintenance(board, lim, trace)
        if lost and not record.milestones[FIRST_LOSS]:
            record.milestones[FIRST_LOSS] = turn
        if not (turn == 1 and game.on_play and not rules.first_player_draws):
            if len(deck) < rules.draw_per_turn:
                record.loss, record.loss_turn = "deck-out", turn
                break
            hand.extend(deck.pop() for _ in range(rules.draw_per_turn))
            if trace is not None:
                trace.draw(hand[len(hand) - rules.draw_per_turn :])
        elif trace is not None:
            trace.step("draw", telling.no_draw())
        until = _set_nodes(hand, board, lim, node_key, trace)
        active, asleep = board.active, board.nodes - board.active
        charge(board, deck, turn, lim, until, trace)
        board.played = board.free_played = 0
        board.world_played = False
        board.names.clear()
        ready = [c for c in hand if playable(c, hand, board, lim.leaders)]
        _main_phase(side, turn, record, trace, ready)
        for k in range(1, min(board.nodes, NODE_MILESTONES) + 1):  # node_k: k nodes in play
            if not record.milestones[1 + k]:
                record.milestones[1 + k] = turn
        if board.free_played and not record.milestones[FIRST_FREE]:
            record.milestones[FIRST_FREE] = turn
        # attacks, in the main phase (総合ルール §4.1.1 names no battle phase); the first
        # player's on turn 1 only if the format's first_turn_attack allows them
        if not (turn == 1 and game.on_play and not lim.first_attack):
            damage += _attack(side, turn, damage, trace)
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
        metrics = (active, asleep, len(board.units), len(ready), board.played, board.free_played)
        record.metrics.append((len(hand), board.nodes, *metrics, lost, damage, len(deck)))
    return record


def _maintenance(board: Board, lim: Limits, trace: Trace | None) -> int:
    """Maintenance phase: nodes first (when the format readies them), then 維持コスト; returns
    how many cards it cost."""
    before = list(board.placed) if trace is not None else []
    if lim.ready_nodes:
        board.active = board.nodes
    lost = upkeep(board, trace)
    if trace is not None and lost:
        trace.step("resource", telling.lost([e.card for e in before if e not in board.placed]))
    return lost


def _set_nodes(
    hand: list[Card],
    board: Board,
    lim: Limits,
    node_key: Callable[[Card], tuple[object, ...]],
    trace: Trace | None,
) -> int | None:
    """The turn's nodes from hand, up to the pilot's node target, which it returns (None: no
    target); by default the nodes 維持コスト takes come on top of it."""
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
    return until


@dataclass
class _Side:
    """The pilot's side of the table: what the main phase and the attacks read and change."""

    hand: list[Card]
    deck: list[Card]
    board: Board
    lim: Limits
    rank: Callable[[Card], tuple[object, ...]]  # the pilot's play_first order


def _main_phase(
    side: _Side, turn: int, record: Record, trace: Trace | None, ready: list[Card]
) -> None:
    """The main phase: the pilot's first choice among what can be played, until nothing can
    (``board``'s counts of the turn start at 0). ``ready``: the hand's cards playable as the
    phase begins, in hand order (the first choice is among them: the board is the same)."""
    hand, deck, board, lim, rank = side.hand, side.deck, side.board, side.lim, side.rank
    characters = dolls = 0
    known: list[Card] | None = ready
    while True:
        options = [
            (c, f)
            for c in (hand if known is None else known)
            if ((f := facts(c)).role != "command" or (lim.field_commands and f.field_equip))
            and slot_free(f, characters, dolls, lim)
            and (known is not None or playable_facts(c, f, hand, board, lim.leaders))
        ]
        known = None
        if not options:
            break
        card, f = min(
            options,
            key=lambda o: (
                not (lim.free_first and free_facts(o[1], board)),
                o[1].role != "character",
                o[1].role == "command",
                rank(o[0]),
            ),
        )
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


def _attack(side: _Side, turn: int, damage: int, trace: Trace | None) -> int:
    """The characters that may attack do, with the commands that add attack played on them
    while nodes pay; returns the damage dealt (``damage``: dealt before this turn)."""
    hand, deck, board, lim, rank = side.hand, side.deck, side.board, side.lim, side.rank
    attackers = [
        u for u in board.units if u.attacks and u.charged != turn and (u.turn < turn or u.haste)
    ]
    hit = sum(u.attack for u in attackers)
    if attackers:
        bonuses = [c for c in hand if facts(c).role == "command" and facts(c).bonus > 0]
        for card in sorted(bonuses, key=rank):
            f = facts(card)
            if playable(card, hand, board, lim.leaders, attackers):
                if trace is not None:
                    trace.step("play", telling.command(card, f.bonus))
                hit += _put(card, hand, deck, board, turn, attackers)
    if trace is not None and attackers:
        cards = [u.card for u in attackers]
        trace.step("attack", telling.attack(cards, hit, damage + hit, lim.life))
    return hit
