"""The changes a tune may make: copies moved between candidate cards, the main deck's size
kept (each copy cut makes room for one added). Which counts are legal is the validator's call:
a card's counts are bounded first by validating that card's change alone, then every variant
the search keeps is validated whole."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from deckcheck.formats import Format
from deckcheck.i18n import _
from deckcheck.models import Card, DeckEntry, DeckList
from deckcheck.resolve import CardIndex
from deckcheck.validate import validate

Changes = tuple[tuple[str, int], ...]  # (card number, copies added; negative: cut), sorted


@dataclass(frozen=True)
class Candidate:
    """A card the tune may add or cut: its copies now and the range it may take."""

    card: Card
    count: int
    low: int  # the fewest copies (a kept card: its copies now)
    high: int  # the most copies the validator allows for this card's change alone


@dataclass(frozen=True)
class Space:
    deck: DeckList
    fmt: Format
    index: CardIndex
    candidates: tuple[Candidate, ...]
    max_changes: int
    skipped: tuple[str, ...]  # what the search never tries, and why (for the report)


def main_counts(deck: DeckList, index: CardIndex, game: str) -> dict[str, tuple[Card, int]]:
    """Each main-deck card by number, with its copies (lines naming it summed)."""
    out: dict[str, tuple[Card, int]] = {}
    for entry in deck.entries:
        card = index.resolve(game, entry.ref).card if entry.section == "main" else None
        if card is not None:
            had = out.get(card.number, (card, 0))[1]
            out[card.number] = (card, had + entry.count)
    return out


def apply(deck: DeckList, index: CardIndex, game: str, changes: Changes) -> DeckList:
    """``deck`` with each changed card's main-deck lines replaced by one line of its new
    count (placed where its first line was; a new card at the end of the main deck)."""
    entries = list(deck.entries)
    for number, delta in changes:
        lines = [
            i
            for i, e in enumerate(entries)
            if e.section == "main" and (c := index.resolve(game, e.ref).card) and c.number == number
        ]
        count = sum(entries[i].count for i in lines) + delta
        new = DeckEntry("main", count, number, entries[lines[0]].line if lines else None)
        at = lines[0] if lines else len(entries)
        entries = [e for i, e in enumerate(entries) if i not in lines[1:]]
        if lines:
            entries[at] = new
        else:
            last = max((i for i, e in enumerate(entries) if e.section == "main"), default=-1)
            entries.insert(last + 1, new)
        entries = [e for e in entries if e.count > 0]
    return deck.model_copy(update={"entries": entries, "problems": list(deck.problems)})


def legal(deck: DeckList, fmt: Format, index: CardIndex) -> bool:
    return validate(deck, fmt, index).legal


def _names_card(report_cards: Iterable[tuple[str | None, str]], card: Card) -> bool:
    return any(n == card.number or name == card.name for n, name in report_cards)


def _high(
    space_deck: DeckList, fmt: Format, index: CardIndex, card: Card, count: int, most: int
) -> int:
    """The most copies of ``card`` (up to ``count + most``) before the validator reports an
    error naming it (a copy limit) that the deck did not have: the deck size aside, which
    the cuts restore."""
    base = {(v.rule, c.number) for v in validate(space_deck, fmt, index).errors for c in v.cards}
    high = count
    for extra in range(1, most + 1):
        deck = apply(space_deck, index, fmt.game, ((card.number, extra),))
        report = validate(deck, fmt, index)
        new = [
            v
            for v in report.errors
            if _names_card(((c.number, c.name) for c in v.cards), card)
            and not any((v.rule, c.number) in base for c in v.cards)
        ]
        if new:
            break
        high = count + extra
    return high


def default_candidates(
    deck: DeckList, index: CardIndex, game: str, extra: Sequence[Card]
) -> list[Card]:
    """The main deck's cards, then ``extra`` (a file or a pool search) not among them."""
    now = main_counts(deck, index, game)
    return [card for card, _n in now.values()] + [c for c in extra if c.number not in now]


def build_space(
    deck: DeckList,
    fmt: Format,
    index: CardIndex,
    cards: Sequence[Card],
    keep: Sequence[Card],
    max_changes: int,
) -> Space:
    """The candidates ``cards`` (the others stay as they are); a ``keep`` card is never
    cut."""
    now = main_counts(deck, index, fmt.game)
    kept = {c.number for c in keep}
    extra = [c for c in cards if c.game != fmt.game]
    cards = [c for c in cards if c.game == fmt.game]
    seen: set[str] = set()
    out, skipped, capped = [], [], []
    for card in cards:
        if card.number in seen:
            continue
        seen.add(card.number)
        count = now.get(card.number, (card, 0))[1]
        high = _high(deck, fmt, index, card, count, max_changes)
        if high == count and card.number not in now:
            skipped.append(_("adding {card}: the validator rejects even one copy", card=card.name))
            continue
        if high < count + max_changes:
            capped.append(f"{card.name} ({high})")
        low = count if card.number in kept else 0
        out.append(Candidate(card, count, low, high))
    if capped:
        skipped.append(
            _(
                "more copies than these (the validator rejects them): {cards}",
                cards=", ".join(capped),
            )
        )
    foreign = [c.name for c in extra]
    if foreign:
        skipped.append(_("cards of another game: {cards}", cards=", ".join(foreign)))
    return Space(deck, fmt, index, tuple(out), max_changes, tuple(skipped))


def words(changes: Changes, cards: dict[str, Card]) -> str:
    """``−1 強引な取引, +1 霧雨 魔理沙``: the cuts, then the additions."""
    names = [c.name for c in cards.values()]

    def name(number: str) -> str:  # printings that share a name are told apart by number
        card = cards[number]
        return f"{card.name} ({number})" if names.count(card.name) > 1 else card.name

    cuts = [f"\u2212{-d} {name(n)}" for n, d in changes if d < 0]
    adds = [f"+{d} {name(n)}" for n, d in changes if d > 0]
    return ", ".join(cuts + adds) or _("no change")
