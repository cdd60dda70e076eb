"""What the VISION reference engine tells a replay (``goldfish.trace``), in this game's words:
each step of the pilot, with why (the engine's own rule or pilot choice, engine.py)."""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.games.vision.cards import facts
from deckcheck.sdk import Card, _p, told
from deckcheck.sdk import card_names as names


def no_draw() -> str:
    return _p("vision", "no draw: the first player's first turn")


def node(card: Card) -> str:
    return _p("vision", "sets {card} as a node (the pilot's node order)", card=names([card]))


def play(card: Card, gratis: bool, character_first: bool) -> str:
    """The card played and why: free through its 術者, else the pilot's order (characters
    first, then play_first)."""
    f = facts(card)
    if gratis:
        why = _p("vision", "free: its 術者 is on the field")
    elif character_first and f.role == "character":
        why = _p("vision", "characters first; pays コスト {cost}", cost=f.cost)
    else:
        why = _p("vision", "the pilot's next playable card; pays コスト {cost}", cost=f.cost)
    return _p("vision", "plays {card} ({why})", card=names([card]), why=why)


def held(card: Card) -> str:
    """Why the pilot keeps a card it can never play: 必要ノード and コスト printed 「-」."""
    return _p(
        "vision",
        "keeps {card}: 必要ノード and コスト 「-」, it cannot be played "
        "(東方VISIONオンライン rules, カードのプレイ)",
        card=names([card]),
    )


def charge(card: Card, n: int) -> str:
    return _p(
        "vision",
        "{card} sleeps for マナチャージ: nodes +{n} from the deck's top, asleep "
        "(総合ルール §10.12.2.a; it does not attack)",
        card=names([card]),
        n=n,
    )


def hand(cards: Sequence[Card]) -> str:
    return _p("vision", "hand at the start of the turn: {cards}", cards=names(cards))


def upkeep_paid(card: Card, cost: int) -> str:
    return _p(
        "vision",
        "pays 維持コスト {cost} for {card} (sleeps {cost} active nodes)",
        card=names([card]),
        cost=cost,
    )


def upkeep_waived(card: Card) -> str:
    return _p(
        "vision",
        "no 維持コスト for {card}: its 術者 is on the field (キーワード用語集 「維持コスト」)",
        card=names([card]),
    )


def lost(cards: Sequence[Card]) -> str:
    return _p("vision", "維持コスト not paid: {cards} to 冥界", cards=names(cards))


def attack(attackers: Sequence[Card], hit: int, damage: int, life: int) -> str:
    return _p(
        "vision",
        "attacks with {cards}: {hit} damage ({damage} of {life} in all)",
        cards=names(attackers),
        hit=hit,
        damage=damage,
        life=life,
    )


def command(card: Card, bonus: int) -> str:
    return _p(
        "vision", "plays {card} on an attacker (+{bonus} attack)", card=names([card]), bonus=bonus
    )


def discard(card: Card) -> str:
    return _p("vision", "discards {card} to the hand limit", card=names([card]))


def state(active: int, nodes: int, field: Sequence[Card], hand: int, deck: int, damage: int) -> str:
    return _p(
        "vision",
        "nodes {active}/{nodes} active; field: {field}; hand {hand}, deck {deck}; damage {damage}",
        **told(active=active, nodes=nodes, field=field, hand=hand, deck=deck, damage=damage),
    )
