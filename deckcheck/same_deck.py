"""Two deck lists that are the same deck: an organiser's check that no two players handed in
one list (``deckcheck/duplicate-list``, a warning; outside the rulebooks)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from deckcheck.i18n import _
from deckcheck.models import DeckList, Game, Report, Violation
from deckcheck.normalize import nfkc
from deckcheck.resolve import CardIndex
from deckcheck.wording import listing

RULE = "deckcheck/duplicate-list"
Fingerprint = tuple[Game, frozenset[tuple[tuple[str, str], int]]]


def fingerprint(deck: DeckList, game: Game, numbers: Numbers) -> Fingerprint | None:
    """The deck as the cards it holds: per section, each card's number (a name and a number
    for one card are the same card) and its count, as a set (each key once, so equal sets
    are the same cards). An unresolved line counts as what it says. None for a list with no
    card. ``numbers``: the memo of references to numbers (``Numbers``)."""
    cards: dict[tuple[str, str], int] = {}
    known = numbers.known
    for section, count, ref, _line in deck.entries:  # unpacking beats attribute access
        number = known.get(ref)
        if number is None:
            number = numbers.number(ref)
        key = (section, number)
        cards[key] = cards.get(key, 0) + count
    return (game, frozenset(cards.items())) if cards else None


def signature(deck: DeckList, numbers: Numbers) -> int:
    """A number that decks of one game with equal ``fingerprint``s share: the sum over the
    sections of hash(section) × the sum over their lines of copies × ``Numbers.hash_of`` of the
    line's number, which depends only on the fingerprint (the lines of one key add up to its
    count there). Several times cheaper than a fingerprint, a set of tuples (micro-timing of
    the 10,000 decks of benchmarks/validate_bench.py: 4.4 µs a deck against 13.3)."""
    hashes = numbers.hashes
    current: str | None = None
    total = part = 0
    for section, count, ref, _line in deck.entries:  # unpacking beats attribute access
        if section != current:  # lines come section by section: one product a section
            total += part * hash(current)
            current, part = section, 0
        found = hashes.get(ref)
        if found is None:
            found = numbers.hash_of(ref)
        part += count * found
    return total + part * hash(current)


class Numbers:
    """A reference's card number in one game, memoised for a run: a folder of lists names the
    same cards again and again, and this check walks every line of every list. Without an
    index (``--server``), ``known`` holds what the service resolved; a reference that names
    no one card stands for itself either way."""

    def __init__(
        self, game: Game, index: CardIndex | None, known: dict[str, str] | None = None
    ) -> None:
        self.game, self.index = game, index
        self.known: dict[str, str] = known if known is not None else {}
        self.hashes: dict[str, int] = {}  # ``signature``'s memo: a reference's ``hash_of``

    def hash_of(self, ref: str) -> int:
        """The hash of ``ref``'s number, in 30 bits (the small ints Python adds fastest)."""
        number = self.known.get(ref)
        if number is None:
            number = self.number(ref)
        found = self.hashes[ref] = hash(number) & 0x3FFFFFFF
        return found

    def number(self, ref: str) -> str:
        card = self.index.found(self.game, ref).card if self.index is not None else None
        number = self.known[ref] = card.number if card else nfkc(ref).casefold()
        return number


def section_totals(deck: DeckList) -> frozenset[tuple[str, int]]:
    """The copies of each section as listed: two lists whose totals differ are never the same
    deck (their fingerprints hold the same sums), so only lists that share them need their
    cards resolved (``--server``: one ``/resolve`` a list)."""
    totals: dict[str, int] = {}
    for section, count, _ref, _line in deck.entries:
        totals[section] = totals.get(section, 0) + count
    return frozenset(totals.items())


def may_match(decks: Sequence[DeckList], games: Sequence[Game]) -> Iterable[int]:
    """The decks that share their game and ``section_totals`` with another deck of the run."""
    groups: dict[tuple[Game, frozenset[tuple[str, int]]], list[int]] = {}
    for i, (deck, game) in enumerate(zip(decks, games, strict=True)):
        if deck.entries:
            groups.setdefault((game, section_totals(deck)), []).append(i)
    return sorted(i for members in groups.values() if len(members) > 1 for i in members)


def mark_duplicates(
    decks: Sequence[DeckList], games: Sequence[Game], reports: Sequence[Report], index: CardIndex
) -> None:
    """Add a ``deckcheck/duplicate-list`` warning to each report whose deck holds the same
    cards as another deck of the run, naming the others."""
    mark_same(decks, games, reports, {game: Numbers(game, index) for game in set(games)})


def mark_same(
    decks: Sequence[DeckList],
    games: Sequence[Game],
    reports: Sequence[Report],
    by_game: Mapping[Game, Numbers],
) -> None:
    """``mark_duplicates`` with each game's references to numbers in ``by_game``. Only the
    decks whose ``signature`` another deck of their game shares are fingerprinted: building
    each deck's set was a fifth of ``api.validate_decks``' time (benchmarks/validate_bench.py)."""
    alike: dict[tuple[Game, int], list[int]] = {}
    for i, (deck, game) in enumerate(zip(decks, games, strict=True)):
        if deck.entries:  # no card: no fingerprint
            alike.setdefault((game, signature(deck, by_game[game])), []).append(i)
    groups: dict[Fingerprint, list[int]] = {}
    for i in sorted(i for members in alike.values() if len(members) > 1 for i in members):
        found = fingerprint(decks[i], games[i], by_game[games[i]])
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
