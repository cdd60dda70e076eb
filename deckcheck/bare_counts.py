"""Deck-list lines whose count is a bare number after the name (``森近 霖之助 2``), decided
with the pool: a card line when the words before the count name a card, else not a card line
(``DeckList.bare``, ``decklist.lines.bare_count``). deckcheck's reading, outside the
rulebooks."""

from __future__ import annotations

from deckcheck.decklist.parts import card_hint, clip, syntax
from deckcheck.formats import Format
from deckcheck.i18n import _
from deckcheck.models import DeckEntry, DeckList, Violation
from deckcheck.resolve import CardIndex, Resolution
from deckcheck.text import quote


def no_card(found: Resolution) -> bool:
    return found.unknown and found.sample is None


def settled(deck: DeckList, fmt: Format, index: CardIndex) -> DeckList:
    """``deck`` with its ``NAME 3`` lines decided as the validator decides them
    (``validate._read``): a line whose NAME is no card is a problem, not an entry, as any other
    line that is not a card line, so what convert, diff, the sheet and /resolve show is what the
    validator read."""
    if not deck.bare:
        return deck
    found = index.revealed() if deck.samples else index
    kept: list[DeckEntry] = []
    unread: list[Violation] = []
    for e in deck.entries:
        if e.line in deck.bare and no_card(found.found(fmt.game, e.ref)):
            unread.append(not_a_card(fmt, deck.bare[e.line], e, found))
        else:
            kept.append(e)
    problems = sorted([*deck.problems, *unread], key=lambda p: p.line or 0)
    return deck.model_copy(update={"entries": kept, "problems": problems, "bare": {}})


def not_a_card(fmt: Format, written: str, entry: DeckEntry, index: CardIndex) -> Violation:
    """``NAME 3`` whose NAME names no card (``DeckList.bare``): not a card line, as the parser
    says of any other; when the whole line is a card's name (some sample cards' names end in
    a number), the fix shows it with a count, and when NAME is one typo from a card's name
    (森近 霖之介 2), that name with the line's count."""
    whole = index.found(fmt.game, written).card
    close = [] if whole is not None else index.resolve(fmt.game, entry.ref).suggestions
    example = f"1 {whole.name}" if whole is not None else None
    if len(close) == 1:
        example = f"{entry.count} {close[0]}"
    return syntax(
        _("not a card line: {line}", line=quote(clip(written))),
        entry.line,
        card_hint(example),
        section=entry.section,
    )
