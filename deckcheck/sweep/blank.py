"""``--fill blank`` (and ``"fill": "blank"`` over HTTP): the variants keep the deck's size with
blank cards (``deckcheck.blank``: deckcheck's device, outside the rulebooks), so a comparison of
copy counts measures the compared card alone, not the card that would take its place."""

from __future__ import annotations

from collections.abc import Iterable

from deckcheck.blank import BLANK, BLANK_NUMBER, blank_card
from deckcheck.formats import Format, SizeCheck
from deckcheck.models import DeckList, Game, Violation
from deckcheck.resolve import CardIndex
from deckcheck.validate import validate


def wants_blank(fill: str | None) -> bool:
    return fill is not None and fill.strip().casefold() == BLANK


def with_blank(index: CardIndex, game: Game, refs: Iterable[str]) -> CardIndex:
    """The cards ``refs`` may mean and the blank card, as a new index (``index`` is left as it
    is: the service's is shared by every request)."""
    return index.subset(game, refs, blank_card(game))


def errors_of(deck: DeckList, fmt: Format, index: CardIndex) -> list[Violation]:
    """The errors that make a variant illegal. Blank cards are taken out before the deck is
    validated (a blank stands for a card the player has not chosen: its type and copies are
    nobody's), and a section's size is judged with them in (the blanks are there to keep it)."""
    blanks = [e for e in deck.entries if e.ref == BLANK_NUMBER]
    if not blanks:
        return _errors(validate(deck, fmt, index).violations)
    kept = deck.model_copy(update={"entries": [e for e in deck.entries if e not in blanks]})
    counts: dict[str, int] = {}
    for e in deck.entries:
        counts[e.section] = counts.get(e.section, 0) + e.count
    sized: dict[str, SizeCheck] = {s.name: s.size for s in fmt.sections}
    out = []
    for v in _errors(validate(kept, fmt, index).violations):
        size = sized.get(v.section or "")
        n = counts.get(v.section or "", 0)
        if size is not None and v.rule == size.rule and _fits(n, size.min, size.max):
            continue  # short only by the blanks that fill it
        out.append(v)
    return out


def _errors(violations: list[Violation]) -> list[Violation]:
    return [v for v in violations if v.severity == "error"]


def _fits(n: int, low: int, high: int | None) -> bool:
    return low <= n and (high is None or n <= high)
