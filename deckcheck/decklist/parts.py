"""What the deck-list readers (reading.py, tabular.py) share: the ``deck/syntax``
violation, the ``date:`` line, the count bound, repeated lines added up."""

from __future__ import annotations

import datetime

from deckcheck.formats.versions import parse_day
from deckcheck.i18n import N_, _
from deckcheck.models import DeckEntry, DeckList, Violation
from deckcheck.text import quote

SYNTAX = "deck/syntax"
SYNTAX_SOURCE = N_("deckcheck deck list format (README: Deck lists); outside the rulebooks")
# Counts beyond this are typing errors, not decks; bounding them keeps every later step cheap.
MAX_COUNT = 9999
# Nor is a reference longer than this any card's number or name; left in, each unique one
# became a key of every memo on the way (issue 24, item 4). deckcheck's reading.
MAX_REF = 200


def syntax(message: str, line: int | None, fix: str, section: str | None = None) -> Violation:
    return Violation(
        rule=SYNTAX, message=message, line=line, source=_(SYNTAX_SOURCE), fix=fix, section=section
    )


def read_day(
    text: str, before: datetime.date | None, line: int | None
) -> tuple[datetime.date | None, Violation | None]:
    """A ``date:`` line's day, or the problem with it (not a date, or a second date)."""
    try:
        day = parse_day(text)
    except ValueError as exc:
        return None, syntax(
            _("date line: {error}", error=exc), line, _("write the date as YYYY-MM-DD")
        )
    if before is not None and day != before:
        message = _("second date line names {new}, the first named {old}", new=day, old=before)
        return None, syntax(message, line, _("keep one date: line"))
    return day, None


def clip(text: str, width: int = 80) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def merge_repeats(deck: DeckList) -> DeckList:
    merged: dict[tuple[str, str], DeckEntry] = {}
    for entry in deck.entries:
        key = (entry.section, entry.ref)
        if key in merged:
            merged[key] = merged[key]._replace(count=merged[key].count + entry.count)
        else:
            merged[key] = entry
    deck.entries = list(merged.values())
    return deck


def without_long_refs(deck: DeckList) -> DeckList:
    """Lines whose card reference is longer than ``MAX_REF`` characters become ``deck/syntax``
    problems (showing the reference's start) and leave the list."""
    kept = [e for e in deck.entries if len(e.ref) <= MAX_REF]
    if len(kept) == len(deck.entries):
        return deck
    for entry in deck.entries:
        if len(entry.ref) > MAX_REF:
            message = _(
                "the card reference {ref} has {n} characters; no card number or name has more "
                "than {most}",
                ref=quote(clip(entry.ref, 40)),
                n=f"{len(entry.ref):,}",
                most=MAX_REF,
            )
            fix = _("write the card's number or name")
            deck.problems.append(syntax(message, entry.line, fix, entry.section))
    deck.entries = kept
    return deck


def card_hint(example: str | None) -> str:
    """The fix of a line that is no card line: ``example`` is a line of the deck's own game
    with a legal count (the validator fills it in: the parser does not know the game yet)."""
    line = example or _("3 CARD-NAME")
    return _(
        "write a count and a card number or name, e.g. {example} (or {example_after})",
        example=quote(line),
        example_after=quote(_after(line)),
    )


def _after(example: str) -> str:
    count, _space, name = example.partition(" ")
    return f"{name} ×{count}"
