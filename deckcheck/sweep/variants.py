"""Deck variants: ``--vary 'name:REF=1..4'`` (a card's copies), ``--vary 'policy:KEY=a,b'``
(pilot options), ``--fill REF`` (the card that keeps the main deck's size) and the side."""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field
from typing import Any

from deckcheck.errors import UsageError
from deckcheck.i18n import _
from deckcheck.models import DeckEntry, DeckList
from deckcheck.resolve import CardIndex
from deckcheck.text import as_written

MAX_VARIANTS = 1000
_RANGE = re.compile(r"^\s*(?P<low>\d+)\s*\.\.\s*(?P<high>\d+)\s*$")


class TooManyVariants(UsageError):
    problem = "limit-exceeded"


@dataclass(frozen=True)
class Axis:
    """One varied key and the values it takes, in order."""

    varies: str  # "name" (copies of a card) or "policy" (a pilot key)
    key: str
    values: tuple[Any, ...]

    @property
    def label(self) -> str:
        return f"{self.varies}:{self.key}"


@dataclass(frozen=True)
class Variant:
    """One point of the sweep: a deck list, pilot keys and a side."""

    label: str
    deck: DeckList
    keys: dict[str, Any] = field(default_factory=dict)  # axis label → value, and "side"
    policy: dict[str, Any] = field(default_factory=dict)
    on_play: bool = True
    problem: str | None = None  # why the variant cannot be built (e.g. --fill would go < 0)


def _value(text: str) -> Any:
    low = text.strip().casefold()
    if low in ("true", "false"):
        return low == "true"
    if re.fullmatch(r"[+-]?\d+", low):
        return int(low)
    return text.strip()


def parse_vary(text: str) -> Axis:
    """``name:REF=1..4``, ``name:REF=1,3``, ``policy:KEY=a,b``; a bare ``REF=1..4`` is
    ``name:`` (as conditions read a bare card name: deckcheck's reading)."""
    varies, _sep, rest = text.partition(":")
    varies = varies.strip().casefold()
    if varies not in ("name", "policy") and not (_sep and varies.isascii() and varies.isalpha()):
        varies, rest = "name", text  # not a misspelt prefix (polcy:): a card's name
    key, eq, values = rest.rpartition("=")
    if varies not in ("name", "policy") or not eq or not key.strip() or not values.strip():
        raise UsageError(
            _("--vary {text}: write name:REF=LOW..HIGH or policy:KEY=A,B", text=as_written(text))
        )
    found = _RANGE.match(values)
    if found:
        low, high = int(found["low"]), int(found["high"])
        if high < low or high - low > 100:
            raise UsageError(
                _(
                    "--vary {text}: the range must run up, over at most 100 values",
                    text=as_written(text),
                )
            )
        parsed: tuple[Any, ...] = tuple(range(low, high + 1))
    else:
        parsed = tuple(_value(v) for v in values.split(",") if v.strip())
    if varies == "name" and not all(isinstance(v, int) and v >= 0 for v in parsed):
        raise UsageError(_("--vary {text}: copies are whole numbers from 0", text=as_written(text)))
    return Axis(varies, key.strip(), parsed)


def check_count(decks: int, axes: list[Axis], sides: tuple[bool, ...]) -> int:
    """How many variants a sweep has, counted before any is built (each is a deck list; four
    axes of 101 values would be 104 million of them): exit 2, 422 over ``MAX_VARIANTS``."""
    count = decks * math.prod(len(a.values) for a in axes) * len(sides)
    if count > MAX_VARIANTS:
        raise TooManyVariants(
            _("{count} variants: at most {limit} in one sweep", count=count, limit=MAX_VARIANTS)
        )
    return count


def _set_copies(
    entries: list[DeckEntry], numbers: set[str], card_ref: str, count: int
) -> tuple[list[DeckEntry], int]:
    """Main-deck lines of one card replaced by one line of ``count``; returns the old count."""
    keep, old = [], 0
    for entry in entries:
        if entry.section == "main" and entry.ref in numbers:
            old += entry.count
        else:
            keep.append(entry)
    if count > 0:
        keep.append(DeckEntry("main", count, card_ref, None))
    return keep, old


def _refs_of(deck: DeckList, index: CardIndex, game: str, ref: str) -> tuple[str, set[str]]:
    """The card ``ref`` names, and every deck-list reference to it."""
    card = index.resolve(game, ref).card
    if card is None:
        raise UsageError(
            _(
                "{ref} is not one {game} card of the pool (write its number)",
                ref=as_written(ref),
                game=game,
            )
        )
    same = {e.ref for e in deck.entries if index.resolve(game, e.ref).card is card}
    return card.number, same | {ref}


def _part(key: str, value: Any) -> str:
    """One key of a variant's label: ``name:X=2``; the side as people say it."""
    if key == "side":
        return _("side=play") if value == "play" else _("side=draw")
    return f"{key}={value}"


def build(
    deck: DeckList,
    index: CardIndex,
    game: str,
    axes: list[Axis],
    fill: str | None,
    sides: tuple[bool, ...],
) -> list[Variant]:
    """Every combination of the axes' values, on each side, in a stable order."""
    size = sum(e.count for e in deck.entries if e.section == "main")
    named = {a.key: _refs_of(deck, index, game, a.key) for a in axes if a.varies == "name"}
    filler = _refs_of(deck, index, game, fill) if fill else None
    check_count(1, axes, sides)
    combos = list(itertools.product(*(a.values for a in axes), sides))
    out = []
    for combo in combos:
        *values, on_play = combo
        entries, keys, policy = list(deck.entries), {}, {}
        for axis, value in zip(axes, values, strict=True):
            keys[axis.label] = value
            if axis.varies == "name":
                number, refs = named[axis.key]
                entries, _old = _set_copies(entries, refs, number, int(value))
            else:
                policy[axis.key] = value
        problem = None
        if filler is not None:
            now = sum(e.count for e in entries if e.section == "main")
            entries, had = _set_copies(entries, filler[1], filler[0], 0)
            need = had + size - now
            if need < 0:
                problem = _(
                    "--fill {fill}: {n} too few copies to keep the deck at {size}",
                    fill=fill,
                    n=-need,
                    size=size,
                )
            entries, _old = _set_copies(entries, filler[1], filler[0], max(need, 0))
        keys["side"] = "play" if on_play else "draw"
        label = ", ".join(_part(k, v) for k, v in keys.items())
        variant = deck.model_copy(update={"entries": entries, "problems": list(deck.problems)})
        out.append(Variant(label, variant, keys, policy, on_play, problem))
    return out
