"""The ``--want`` language: ``SELECTOR OP K``.

SELECTOR is one or more atoms joined by ``|`` (a card matching any atom counts):
``type:paradox``, ``kind:合理体``, ``name:REF``, ``number:REF``, ``title:…``, ``os:…``,
``keyword:…``, ``append:…``, and comparisons on any integer column of a card, ``level<=2``,
``cost>=1`` (operators ``<= >= = == < >``).
OP is ``>=``, ``<=`` or ``==``; K a whole number.

``>=`` and ``==`` conditions need that many *distinct* cards: one physical card never fills
two required slots. ``<=`` and ``==`` bound the number of matching cards seen.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

from deckcheck import games
from deckcheck.errors import UsageError
from deckcheck.games import name_key
from deckcheck.models import Card, Game
from deckcheck.normalize import nfkc, title_key, word_key
from deckcheck.resolve import number_key
from deckcheck.wording import a_an


class ConditionError(UsageError, ValueError):
    problem = "bad-condition"

    """A condition that cannot be read; the message names the bad part."""


_CONDITION = re.compile(r"^(?P<sel>.*\S)\s*(?P<op>>=|<=|==)\s*(?P<k>[0-9]+)$")
# Every integer column of a card can be compared (level, cost, node, graze, …): the list comes
# from the Card model, so a new column is a new selector.
NUMBER_FIELDS: tuple[str, ...] = tuple(
    name for name, f in Card.model_fields.items() if f.annotation in (int, int | None)
)
_COMPARISON = re.compile(
    rf"^(?P<field>{'|'.join(NUMBER_FIELDS)})\s*(?P<op><=|>=|==|=|<|>)\s*(?P<n>-?[0-9]+)$"
)
_OPS: dict[str, Callable[[int, int], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "=": operator.eq,
    "==": operator.eq,
    "<": operator.lt,
    ">": operator.gt,
}
_WORDS = ("type", "kind", "name", "number", "title", "os", "keyword", "append")


@dataclass(frozen=True)
class Atom:
    """One selector atom; ``matches`` decides it for a card of ``game``."""

    text: str
    field: str
    value: str
    op: str | None = None

    def matches(self, card: Card) -> bool:
        f = self.field
        if self.op is not None:
            actual = getattr(card, f)
            return actual is not None and _OPS[self.op](actual, int(self.value))
        if f == "type":
            return card.type == self.value
        if f == "kind":
            return card.kind is not None and nfkc(card.kind) == nfkc(self.value)
        if f == "name":
            game = card.game
            return name_key(game, card.name) == name_key(game, self.value) or (
                number_key(card.number) == number_key(self.value)
            )
        if f == "number":
            return number_key(card.number) == number_key(self.value)
        if f == "title":
            return card.title is not None and title_key(card.title) == title_key(self.value)
        if f == "os":
            return card.os is not None and title_key(card.os) == title_key(self.value)
        if f == "keyword":
            return word_key(self.value) in {word_key(k) for k in card.keywords}
        return word_key(self.value) in {word_key(a) for a in card.append}  # append


@dataclass(frozen=True)
class Condition:
    text: str
    atoms: tuple[Atom, ...]
    op: str  # ">=", "<=", "=="
    k: int

    def matches(self, card: Card) -> bool:
        return any(atom.matches(card) for atom in self.atoms)

    @property
    def demand(self) -> int:
        """Distinct cards this condition needs (0 for an upper bound only)."""
        return self.k if self.op in (">=", "==") else 0

    @property
    def bound(self) -> int | None:
        """Most matching cards allowed, or None."""
        return self.k if self.op in ("<=", "==") else None


def parse_atom(text: str, game: Game) -> Atom:
    raw = nfkc(text).strip()
    if not raw:
        raise ConditionError("an empty selector (check the '|' separators)")
    m = _COMPARISON.match(raw)
    if m is not None:
        return Atom(raw, m["field"], m["n"], m["op"])
    field, sep, value = raw.partition(":")
    field = field.strip().casefold()
    value = value.strip()
    if not sep or field not in _WORDS:
        raise ConditionError(
            f"unknown selector {text.strip()!r}: use type:, kind:, name:, number:, title:, "
            "os:, keyword:, append:, or a comparison such as level<=2"
        )
    if not value:
        raise ConditionError(f"selector {text.strip()!r} has no value after ':'")
    if field == "type":
        value = _card_type(game, value, text)
    return Atom(raw, field, value)


def _card_type(game: Game, value: str, text: str) -> str:
    wanted = nfkc(value).casefold()
    for canonical, words in games.get(game).card_types.items():
        if wanted in {nfkc(w).casefold() for w in (canonical, *words)}:
            return canonical
    known = ", ".join(games.get(game).card_types)
    raise ConditionError(f"{text.strip()!r}: {value!r} is not {a_an(game)} card type ({known})")


def parse_condition(text: str, game: Game) -> Condition:
    """``SELECTOR OP K``; raises ``ConditionError`` naming the part that is wrong."""
    m = _CONDITION.match(nfkc(text).strip())
    if m is None:
        raise ConditionError(
            f"{text!r} is not 'SELECTOR OP K' (OP one of >=, <=, ==; K a whole number), "
            "e.g. 'type:paradox>=1'"
        )
    atoms = tuple(parse_atom(part, game) for part in m["sel"].split("|"))
    return Condition(text.strip(), atoms, m["op"], int(m["k"]))


def parse_conditions(texts: list[str], game: Game) -> list[Condition]:
    if not texts:
        raise ConditionError("give at least one --want condition, e.g. --want 'type:paradox>=1'")
    return [parse_condition(t, game) for t in texts]
