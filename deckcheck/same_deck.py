"""Two deck lists that are the same deck: an organiser's check that no two players handed in
one list (``deckcheck/duplicate-list``, a warning; outside the rulebooks)."""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.i18n import _
from deckcheck.models import DeckList, Game, Report, Violation
from deckcheck.normalize import nfkc
from deckcheck.resolve import CardIndex
from deckcheck.wording import listing

RULE = "deckcheck/duplicate-list"
Fingerprint = tuple[Game, tuple[tuple[tuple[str, str], int], ...]]


def fingerprint(deck: DeckList, game: Game, index: CardIndex) -> Fingerprint | None:
    """The deck as the cards it holds: per section, each card's number (a name and a number
    for one card are the same card) and its count. An unresolved line counts as what it says.
    None for a list with no card."""
    cards: dict[tuple[str, str], int] = {}
    for entry in deck.entries:
        card = index.found(game, entry.ref).card
        key = (entry.section, card.number if card else nfkc(entry.ref).casefold())
        cards[key] = cards.get(key, 0) + entry.count
    return (game, tuple(sorted(cards.items()))) if cards else None


def mark_duplicates(
    decks: Sequence[DeckList], games: Sequence[Game], reports: Sequence[Report], index: CardIndex
) -> None:
    """Add a ``deckcheck/duplicate-list`` warning to each report whose deck holds the same
    cards as another deck of the run, naming the others."""
    groups: dict[Fingerprint, list[int]] = {}
    for i, (deck, game) in enumerate(zip(decks, games, strict=True)):
        found = fingerprint(deck, game, index)
        if found is not None:
            groups.setdefault(found, []).append(i)
    for members in groups.values():
        if len(members) < 2:
            continue
        for i in members:
            others = listing(reports[j].path or _("(deck)") for j in members if j != i)
            reports[i].violations.append(
                Violation(
                    rule=RULE,
                    severity="warning",
                    message=_(
                        "the same deck as {others}: the same cards in the same sections",
                        others=others,
                    ),
                    line=decks[i].first_line or 1,
                    source=_(
                        "outside the rulebooks: deckcheck's check for organisers, that no two "
                        "players submit one list"
                    ),
                    fix=_("check that each player handed in their own list"),
                )
            )
