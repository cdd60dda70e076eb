"""A toy fifth game, a package of its own found through its ``deckcheck.games`` entry point
(../pyproject.toml): proof that a game is a package plus data, with no line of deckcheck
changed. Rules (deckcheck's test fixture, not a real game): 20-card deck, 3 copies, 4-card hand,
draw 1 a turn, one creature a turn costing at most the turn number, at most ``board`` (a format
parameter of its own) creatures in play; its own check table, ``word_limit`` (checks.py). Its own
deal: a champion creature set aside before the deal, the ``bottom-two`` mulligan
(``mulligan.py``), and a loss of its own, ``overflow``: more than ``hand_max`` cards in hand at
the end of a turn. Each card has an element (a column of the toy game's own, with a search
filter); the default pilot plays fire first."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from deckcheck.sdk import (
    PLUGIN_API,
    Aside,
    AsideError,
    Card,
    CardColumn,
    Cards,
    Compiled,
    Construction,
    Deal,
    DeckOut,
    GameSpec,
    Loss,
    Param,
    Play,
    Policy,
    Record,
    Search,
    Setup,
    Words,
    deck_out,
    expand,
    keep_of,
    lazy,
    redeal,
    shuffled,
    take,
)

METRICS = ("hand", "creatures", "deck")
MILESTONES = ("first_creature",)
RULES = "toy rules (deckcheck's test fixture, outside the rulebooks)"


class ToyPolicy(Policy):
    play_spells: bool = True
    champion: str | None = None  # the creature to set aside; None: the toy's pick

    def aside_choice(self) -> str | None:
        return self.champion


def champion(
    main: Sequence[tuple[Card, int]], fmt: Any, choice: str | None, pick: bool
) -> tuple[list[tuple[Card, int]], list[Aside[Card]]]:
    """Before the deal one creature of the main deck is set aside as the champion: the one
    the player names, else the highest-cost creature (then the most copies)."""
    creatures = [(c, n) for c, n in main if c.type == "creature"]
    if choice is not None:
        named = [c for c, _ in main if choice in (c.name, c.number)]
        if not named:
            raise AsideError(f"--aside {choice!r} is not a card of the main deck ({RULES})")
        if named[0].type != "creature":
            raise AsideError(f"--aside {choice!r}: the champion must be a creature ({RULES})")
        chosen = named[0]
    elif creatures:
        chosen = max(creatures, key=lambda cn: (cn[0].cost or 0, cn[1], cn[0].number))[0]
    else:
        return list(main), []
    rest = [(c, n - (1 if c is chosen else 0)) for c, n in main]
    aside = Aside("champion", "champion, set aside", (chosen,), f"{RULES}: the champion")
    return [(c, n) for c, n in rest if n > 0], [aside]


def _mulligan(
    rules_name: str, policy: Compiled, deck: list[Card], hand: list[Card], rng: random.Random
) -> list[Card]:
    """The format's mulligan: ``bottom-two`` (two cards the keep rule does not need under the
    deck, the cards that count toward nothing first; draw two) or the return-all one."""
    keep = keep_of(policy)
    if rules_name != "bottom-two":
        return redeal(deck, hand, len(hand), rng)
    kept, spare = keep.bottom(hand)
    spare.sort(key=lambda c: keep.signature(c) != 0)  # stable: the rest first
    under, stay = spare[:2], spare[2:]
    deck[:0] = under  # under the deck (the top is the end of the list)
    return kept + stay + [deck.pop() for _ in under]


def play(setup: Setup, policy: Compiled, rng: random.Random, turns: int, on_play: bool) -> Record:
    rules = setup.rules
    deck = shuffled(expand(setup.drawable), rng)
    record = Record(milestones=[0])
    hand = [deck.pop() for _ in range(rules.hand)]
    if policy.policy.mulligan and not keep_of(policy).meets(hand):
        hand = _mulligan(rules.mulligan.name, policy, deck, hand, rng)
        record.mulligans = 1
    creatures = 0
    for turn in range(1, turns + 1):
        try:
            for _ in range(rules.draw_per_turn):
                if not deck:
                    raise DeckOut("deck-out")
                hand.append(deck.pop())
            ready = [c for c in hand if c.type == "creature" and (c.cost or 0) <= turn]
            if ready and creatures < rules.param_int("board"):
                take(hand, min(ready, key=lambda c: policy.rank(c, policy.play_first)))
                creatures += 1
                record.milestones[0] = record.milestones[0] or turn
            if len(hand) > rules.param_int("hand_max"):  # the end of the turn
                raise DeckOut("overflow")
        except DeckOut as out:
            record.loss, record.loss_turn = out.reason, turn
            break
        record.metrics.append((len(hand), creatures, len(deck)))
    return record


TOY = GameSpec(
    id="toy",
    plugin_api=PLUGIN_API,
    words=Words(
        name="Toy game",
    ),
    cards=Cards(
        card_types={"creature": ("クリーチャー",), "spell": ("呪文",)},
        columns=(
            CardColumn(
                "element", "text", "the card's element (火 水 森 闇)", Search("exact"), summary=True
            ),
        ),
    ),
    construction=Construction(
        section_aliases={"sideline": "side"},
        params={
            "board": Param(int, 3, "goldfish: creatures in play at most"),
            "hand_max": Param(int, 8, "goldfish: more cards in hand at a turn's end lose", 0),
        },
        check_tables=lazy("deckcheck_toygame.checks:tables"),
    ),
    deal=Deal(
        set_aside=champion,
        mulligans={"bottom-two": f"{__name__}.mulligan:BOTTOM_TWO"},
    ),
    play=Play(
        policy=ToyPolicy,
        default_policy=ToyPolicy(
            name="toy default", keep=("type:creature>=1",), play_first=("element:火",)
        ),
        play=play,
        metrics=METRICS,
        milestones=MILESTONES,
        losses=(
            deck_out(f"{RULES}: a draw from an empty deck"),
            Loss("overflow", "hand overflow", f"{RULES}: more than hand_max cards at a turn's end"),
        ),
    ),
)
