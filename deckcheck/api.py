"""The library's entry points that the CLI, the service and tests share."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from operator import attrgetter

from deckcheck import suggest
from deckcheck.collector import paused_gc as paused_gc
from deckcheck.errors import UsageError
from deckcheck.formats import Format, FormatError
from deckcheck.formats.guess import guess
from deckcheck.formats.registry import FormatRegistry
from deckcheck.i18n import _
from deckcheck.models import DeckList, Report
from deckcheck.resolve import CardIndex
from deckcheck.same_deck import mark_duplicates
from deckcheck.validate import validate

_REF = attrgetter("ref")


class MissingFormat(UsageError):
    """A deck list with no ``format:`` line, validated without ``--format``."""


def refs_of(decks: Sequence[DeckList]) -> set[str]:
    return {entry.ref for deck in decks for entry in deck.entries}


def validate_decks(
    decks: Sequence[DeckList],
    registry: FormatRegistry,
    index: CardIndex,
    format_override: str | None = None,
    as_of: datetime.date | None = None,
    suggest_names: int = suggest.NAMES,
) -> list[Report]:
    """Validate each deck against ``format_override`` or its own ``format:`` line, in the
    version in force on ``as_of``, else on the deck's ``date:`` line, else today; a deck with
    neither, in the only format of its cards' game (formats.guess, said in its report).

    Raises ``MissingFormat``, ``FormatError`` or ``suggest.SuggestLimit`` before validating
    anything, so a batch never half-succeeds on a usage error.
    """
    formats = []
    guessed: dict[int, str] = {}  # a deck's position: what its report says of its format
    for i, deck in enumerate(decks):
        ref = format_override or deck.format
        if ref is None:
            found = guess(deck, registry, index)
            ref = found.format
            if ref is None:
                raise MissingFormat(found.missing(deck.path or _("deck")))
            guessed[i] = found.assumption()
        try:
            formats.append(registry.resolve(ref, as_of or deck.date))
        except FormatError as exc:
            raise FormatError(f"{deck.path or _('deck')}: {exc}") from exc
    # the whole batch with the collector paused: the duplicate check too, which makes a
    # fingerprint a deck while every report is alive (with the collector on, its passes over
    # them took half the check's time: benchmarks/validate_bench.py)
    with paused_gc():
        known: dict[str, set[str]] = {}  # per game, the references found in the index
        for deck, fmt in zip(decks, formats, strict=True):  # every budget before any work
            check_suggestions(
                deck, fmt.game, index, suggest_names, known.setdefault(fmt.game, set())
            )
        reports = [
            validate_capped(deck, fmt, index, suggest_names)
            for deck, fmt in zip(decks, formats, strict=True)
        ]
        if len(decks) > 1:  # a folder of lists: two that are the same deck are worth a warning
            mark_duplicates(decks, [fmt.game for fmt in formats], reports, index)
    for i, assumption in guessed.items():
        reports[i].assumptions.insert(0, assumption)
    return reports


def check_suggestions(
    deck: DeckList,
    game: str,
    index: CardIndex,
    names: int = suggest.NAMES,
    known: set[str] | None = None,
) -> int:
    """The work of the suggestions for ``deck``'s first ``names`` unknown names, found from
    the index before doing it; a ``SuggestLimit`` past ``suggest.WORK_LIMIT``. ``known``:
    a batch's references already found (``CardIndex.unknown_keys``)."""
    if known is not None and known.issuperset(map(_REF, deck.entries)):  # a batch's usual
        return 0  # deck: one C-level pass (a list of the references first took as long again)
    refs = [e.ref for e in deck.entries]
    keys = index.unknown_keys(game, refs, names, known)
    return suggest.check_work(index.name_index(game), keys) if keys else 0


def validate_capped(
    deck: DeckList, fmt: Format, index: CardIndex, names: int = suggest.NAMES
) -> Report:
    """``validate``, with suggestions for the deck's first ``names`` unknown names only (call
    ``check_suggestions`` first)."""
    with suggest.per_deck(names):
        return validate(deck, fmt, index)
