"""The ``--want`` language: ``SELECTOR OP K``.

SELECTOR is one or more atoms joined by ``|`` (a card matching any atom counts):
``type:TYPE``, ``kind:KIND``, ``name:REF``, ``number:REF``, ``keyword:…``, a bare card name
or number (``name:`` without the word), and ``COLUMN:…`` for a text or list column of the
game's own (its spec's ``columns``; a keyed column compares by its key, a list column by
item); comparisons ``level<=2``, ``cost>=1`` on
the whole-number columns, shared or the game's own (operators ``<= >= = == < >``).
OP is ``>=``, ``<=`` or ``==``; K a whole number.

``>=`` and ``==`` conditions need that many *distinct* cards: one physical card never fills
two required slots. ``<=`` and ``==`` bound the number of matching cards seen.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from deckcheck import plugins
from deckcheck.blank import is_blank
from deckcheck.errors import UsageError
from deckcheck.i18n import _
from deckcheck.models import Card, ColumnValue, Game
from deckcheck.normalize import loose_name_key, nfkc, word_key
from deckcheck.plugins import name_key
from deckcheck.plugins.columns import CardColumn
from deckcheck.resolve import number_key
from deckcheck.text import as_written
from deckcheck.wording import a_an


class ConditionError(UsageError, ValueError):
    problem = "bad-condition"

    """A condition that cannot be read; the message names the bad part."""


_CONDITION = re.compile(r"^(?P<sel>.*\S)\s*(?P<op>>=|<=|==)\s*(?P<k>[0-9]+)$")
# OP K as Japanese players write it: 「大妖精 2枚以上」, 「2枚以下」, 「ちょうど2枚」 or
# 「2枚ちょうど」 (deckcheck's reading; a bare 「2枚」 says no OP, so it is not read). Split
# by hand: a pattern with digits after a free selector is quadratic on a line of digits.
_JA_OPS = {"以上": ">=", "以下": "<=", "ちょうど": "=="}
# Every integer column of a card can be compared (level, cost, and the game's own): the shared
# ones come from the Card model, a game's from its spec, so a new column is a new selector.
NUMBER_FIELDS: tuple[str, ...] = tuple(
    name for name, f in Card.model_fields.items() if f.annotation in (int, int | None)
)
_COMPARISON = re.compile(r"^(?P<field>[a-z][a-z0-9_]*)\s*(?P<op><=|>=|==|=|<|>)\s*(?P<n>-?[0-9]+)$")
_OPS: dict[str, Callable[[int, int], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "=": operator.eq,
    "==": operator.eq,
    "<": operator.lt,
    ">": operator.gt,
}
_WORDS = ("type", "kind", "name", "number", "keyword")
_OPERATOR_MARKS = frozenset("<>=")  # a selector with one is a comparison, written wrong


def _own(game: Game) -> dict[str, CardColumn]:
    return {c.name: c for c in plugins.get(game).cards.columns}


@dataclass(frozen=True)
class Atom:
    """One selector atom; ``matches`` decides it for a card of ``game``."""

    text: str
    field: str
    value: str
    op: str | None = None
    column: CardColumn | None = None  # a game's own column: ``field`` names it
    # 「大妖精を2枚以上」: the name without its particle, also matched (``_particle``)
    alias: str | None = None

    def matches(self, card: Card) -> bool:
        if is_blank(card):  # deckcheck's blank fill counts for nothing (deckcheck.blank)
            return False
        f = self.field
        if self.op is not None:
            actual = card.value(f)
            return isinstance(actual, int) and _OPS[self.op](actual, int(self.value))
        if self.column is not None:
            return _column_matches(self.column, card.extra.get(f), self.value)
        if f == "type":
            return card.type == self.value
        if f == "kind":
            return card.kind is not None and nfkc(card.kind) == nfkc(self.value)
        if f == "name":
            return _names(card, self.value) or (self.alias is not None and _names(card, self.alias))
        if f == "number":
            return number_key(card.number) == number_key(self.value)
        return word_key(self.value) in {word_key(k) for k in card.keywords}  # keyword


def _names(card: Card, value: str) -> bool:
    """Whether ``value`` names ``card``. name:反魂蝶 is the card 「反魂蝶」: brackets, quotes and
    spaces aside (normalize.loose_name_key; deckcheck's reading, outside the rulebooks)."""
    game = card.game
    return (
        name_key(game, card.name) == name_key(game, value)
        or number_key(card.number) == number_key(value)
        or loose_name_key(card.name) == loose_name_key(value)
    )


def _column_matches(column: CardColumn, actual: ColumnValue, wanted: str) -> bool:
    """A game's text column equal to ``wanted`` (by its key, if it has one, else any width or
    case), or its list column holding it (brackets, spaces and width aside)."""
    if isinstance(actual, tuple):
        return word_key(wanted) in {word_key(a) for a in actual}
    if not isinstance(actual, str):
        return False
    if column.key is not None:
        return column.key(actual) == column.key(wanted)
    return nfkc(actual).casefold() == nfkc(wanted).casefold()


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
        raise ConditionError(_("an empty selector (check the '|' separators)"))
    own = _own(game)
    m = _COMPARISON.match(raw)
    if m is not None:
        numbers = _number_columns(game)
        if m["field"] not in numbers:
            raise ConditionError(
                _(
                    "{text}: {game} cards have no whole-number column {column} (use {columns})",
                    text=as_written(text.strip()),
                    game=game,
                    column=as_written(m["field"]),
                    columns=", ".join(numbers),
                )
            )
        return Atom(raw, m["field"], m["n"], m["op"])
    if ":" not in raw and not _OPERATOR_MARKS.intersection(raw):
        # a bare card name or number, as players ask ("西行妖>=1"): name: (deckcheck's reading);
        # a bare card type of the game, in its words ("TYPE 2枚以上"): type:
        card_type = _type_of(game, raw)
        if card_type is not None:
            return Atom(raw, "type", card_type)
        return Atom(raw, "name", raw)
    field, sep, value = raw.partition(":")
    field = field.strip().casefold()
    value = value.strip()
    words = (*_WORDS, *(c.name for c in own.values() if c.type != "int"))
    if not sep or field not in words:
        raise ConditionError(
            _(
                "unknown selector {text}: use {selectors}, a comparison such as level<=2, or a "
                "card's name or number alone",
                text=as_written(text.strip()),
                selectors=", ".join(w + ":" for w in words),
            )
        )
    if not value:
        raise ConditionError(
            _("selector {text} has no value after ':'", text=as_written(text.strip()))
        )
    if field == "type":
        value = _card_type(game, value, text)
    return Atom(raw, field, value, column=own.get(field))


def _number_columns(game: Game) -> tuple[str, ...]:
    """The whole-number columns a comparison may name: the shared ones and the game's own."""
    return (*NUMBER_FIELDS, *(c.name for c in _own(game).values() if c.type == "int"))


def _type_of(game: Game, value: str) -> str | None:
    """The card type ``value`` names in ``game``'s words (any width and case), or None."""
    wanted = nfkc(value).casefold()
    for canonical, words in plugins.get(game).cards.card_types.items():
        if wanted in {nfkc(w).casefold() for w in (canonical, *words)}:
            return canonical
    return None


def _card_type(game: Game, value: str, text: str) -> str:
    found = _type_of(game, value)
    if found is not None:
        return found
    known = ", ".join(plugins.get(game).cards.card_types)
    fields = {
        "text": as_written(text.strip()),
        "value": as_written(value),
        "game": game,
        "known": known,
    }
    if a_an(game).startswith("an "):  # the English article of the game id: one message each
        raise ConditionError(_("{text}: {value} is not an {game} card type ({known})", **fields))
    raise ConditionError(_("{text}: {value} is not a {game} card type ({known})", **fields))


def _example(game: Game) -> str:
    """A condition to show in a message: at least one card of the game's first type."""
    return f"type:{next(iter(plugins.get(game).cards.card_types))}>=1"


def _japanese(text: str) -> tuple[str, str, str] | None:
    """``(selector, OP, K)`` of 「SELECTOR K枚以上」 (以下, ちょうど) or 「… ちょうどK枚」."""
    for word, op in _JA_OPS.items():
        if text.endswith("枚" + word):
            return _selector_and_k(text[: -len(word) - 1], op)
    if text.endswith("枚"):
        found = _selector_and_k(text[:-1], "==")
        if found is not None and found[0].endswith("ちょうど"):
            sel = found[0][: -len("ちょうど")].rstrip()
            return (sel, "==", found[2]) if sel else None
    return None


def _selector_and_k(head: str, op: str) -> tuple[str, str, str] | None:
    """``head`` (「大妖精 2」) split into its selector and its trailing whole number."""
    head = head.rstrip()
    sel = head.rstrip("0123456789")
    k = head[len(sel) :]
    sel = sel.rstrip()
    return (sel, op, k) if sel and k else None


# 「大妖精を2枚以上」, 「大妖精が2枚以上」: the particle between the card and its count
_PARTICLES = "をが"


def _particle(sel: str, game: Game) -> tuple[Atom, ...]:
    """The atoms of a Japanese condition's selector that ends in a particle: a card type
    without it (「TYPEを」, in the game's own word), else a name that matches as written or
    without it, since a card's name may end in one (星に願いを); known.py accepts either
    (deckcheck's reading)."""
    *parts, last = sel.split("|")
    head = tuple(parse_atom(part, game) for part in parts)
    bare = last[:-1].rstrip()
    atom = parse_atom(bare, game) if bare else None
    if atom is not None and atom.field != "name":
        return (*head, atom)
    written = parse_atom(last, game)
    if written.field != "name" or not bare:
        return (*head, written)
    return (*head, replace(written, alias=atom.value if atom is not None else bare))


# OP as players also write it: ≧ and ≦ (Japanese keyboards), ≥ and ≤
_WIDE_OPS = str.maketrans({"≧": ">=", "≥": ">=", "≦": "<=", "≤": "<="})


def _single_op(text: str, game: Game) -> tuple[str, str, str] | None:
    """``SELECTOR=K`` as ``==``, ``SELECTOR>K`` as ``>= K+1``, ``SELECTOR<K`` as ``<= K-1``
    (deckcheck's reading), unless SELECTOR is a whole-number column (``cost=1`` is a card
    comparison, not a condition). Split by hand, for the reason ``_JA_OPS`` gives."""
    head = text.rstrip("0123456789")
    k, head = text[len(head) :], head.rstrip()
    op, sel = head[-1:], head[:-1].rstrip()
    if not k or op not in "=<>" or not sel or sel[-1] in "<>=":
        return None
    if sel.casefold() in _number_columns(game) or (op == "<" and int(k) == 0):
        return None
    return sel, {"=": "==", ">": ">=", "<": "<="}[op], str(int(k) + {"=": 0, ">": 1, "<": -1}[op])


def parse_condition(text: str, game: Game) -> Condition:
    """``SELECTOR OP K``; raises ``ConditionError`` naming the part that is wrong."""
    written = nfkc(text).strip().translate(_WIDE_OPS)
    m = _CONDITION.match(written)
    if m is not None:
        sel, op, k = m["sel"], m["op"], m["k"]
    elif (ja := _japanese(written)) is not None:
        sel, op, k = ja
        if sel[-1] in _PARTICLES and len(sel) > 1:
            return Condition(text.strip(), _particle(sel, game), op, int(k))
    elif (single := _single_op(written, game)) is not None:
        sel, op, k = single
    else:
        raise ConditionError(
            _(
                "{text} is not 'SELECTOR OP K' (OP one of >=, <=, ==; K a whole number) "
                "nor 'SELECTOR K枚以上' (以下, ちょうど), e.g. {example}",
                text=as_written(text),
                example=as_written(_example(game)),
            )
        )
    atoms = tuple(parse_atom(part, game) for part in sel.split("|"))
    return Condition(text.strip(), atoms, op, int(k))


def parse_conditions(texts: list[str], game: Game) -> list[Condition]:
    if not texts:
        raise ConditionError(
            _(
                "give at least one --want condition, e.g. --want {example}",
                example=as_written(_example(game)),
            )
        )
    return [parse_condition(t, game) for t in texts]


def optional_conditions(texts: Sequence[str], game: Game) -> list[Condition]:
    """``parse_conditions``, with no conditions for no texts: for the questions where asking
    none is fine (a hand, a sweep, a tune by milestone)."""
    return parse_conditions(list(texts), game) if texts else []
