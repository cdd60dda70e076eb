"""The blank card: deckcheck's device for "Compare copies" and ``deckcheck sweep --fill
blank``, outside the rulebooks (no game prints such a card). It keeps a deck's size and
counts for nothing: it matches no odds condition, the goldfish pilot never plays it, and the
validation of a sweep's variant ignores what is said about the blank itself (its type, its
copies). It is still a card in the deck: drawn, held, and (like any card) usable where a game
lets any card serve (a resource set from hand, a cost paid by discarding)."""

from __future__ import annotations

from deckcheck.models import Card, Game

BLANK = "blank"  # the ``fill`` that asks for it
BLANK_NUMBER = "BLANK"  # the number the sweep writes for it in a variant's deck list
BLANK_TYPE = "blank"  # a type no game has, so no engine plays it


def blank_card(game: Game) -> Card:
    return Card(game=game, number=BLANK_NUMBER, name=BLANK, type=BLANK_TYPE)


def is_blank(card: Card) -> bool:
    return card.type == BLANK_TYPE and card.number == BLANK_NUMBER
