"""Helpers every command group uses: the console, JSON out, the card pool, deck files.

Errors are raised as ``deckcheck.errors`` exceptions; the root command turns them into a message
and an exit status (see ``deckcheck.cli``).
"""

from __future__ import annotations

import datetime
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.errors import PoolError, UsageError
from deckcheck.i18n import _

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from rich.console import Console

    from deckcheck.formats import Format
    from deckcheck.models import DeckList, Game
    from deckcheck.pool.store import CardPool
    from deckcheck.resolve import CardIndex


def console(stderr: bool = False) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def open_pool(db: Path | None) -> CardPool:
    """The card pool: ``--db``, else ``$DECKCHECK_DATABASE_URL`` (SQLAlchemy), else
    ``$DECKCHECK_DB`` or the user data folder."""
    from deckcheck.pool.store import Pool

    url = os.environ.get("DECKCHECK_DATABASE_URL")
    if db is None and url:
        from sqlalchemy.exc import SQLAlchemyError

        from deckcheck.pool.sql import SqlPool

        try:
            return SqlPool(url)
        except SQLAlchemyError as exc:
            raise PoolError(_("cannot use DECKCHECK_DATABASE_URL: {error}", error=exc)) from exc
    try:
        return Pool(db)
    except OSError as exc:
        raise PoolError(_("cannot open the card database: {error}", error=exc)) from exc


def read_text(path: Path) -> str:
    """A deck file's text, decoded as deck files are."""
    from deckcheck import decks as deckfiles

    text, _encoding = deckfiles.decode(deckfiles.read_raw(path), str(path))
    return text


def as_of_day(text: str | None) -> datetime.date | None:
    """``--as-of``'s day; a bad one is a usage error (exit status 2)."""
    if text is None:
        return None
    from deckcheck.formats.versions import parse_day

    try:
        return parse_day(text)
    except ValueError as exc:
        raise UsageError(_("--as-of: {error}", error=exc)) from exc


def format_for(
    ref: str | None,
    path: Path,
    day: datetime.date | None = None,
    named: tuple[DeckList, CardIndex] | None = None,
) -> Format:
    """The version of the format ``ref`` names (an id or a .toml file) in force on ``day``
    (default: today); the deck at ``path`` needs one. With none named, the only format of the
    game of the cards ``named`` (a deck and the index of its cards) names, said on stderr
    (formats.guess); else an error that says how to name one."""
    from deckcheck.formats.guess import guess
    from deckcheck.formats.registry import default_registry

    registry = default_registry()
    if ref is None and named is not None:
        found = guess(named[0], registry, named[1])
        ref = found.format
        if ref is None:
            raise UsageError(found.missing(path))
        print(_("{path}: {note}", path=path, note=found.assumption()), file=sys.stderr)
    if ref is None:
        raise UsageError(_("{path}: no format: line and no --format", path=path))
    return registry.resolve(ref, day)


def asking(
    index: CardIndex, db: Path | None, refs: Iterable[str], game: Game, want: Sequence[str],
    *more: str,
) -> CardIndex:
    """``index`` (the cards of ``refs``, a deck's), or the pool's cards of ``refs`` and of what
    the conditions ``want`` name (and ``more``): a condition may ask about any card of the
    pool, not only the deck's. The pool is read again only when a named card is missing."""
    from deckcheck.odds.conditions import optional_conditions
    from deckcheck.odds.known import named_refs

    conditions = optional_conditions(want, game)
    return with_cards(index, db, refs, game, [*named_refs(conditions), *more])


def with_cards(
    index: CardIndex, db: Path | None, refs: Iterable[str], game: Game, named: Sequence[str]
) -> CardIndex:
    """``index`` (the cards of ``refs``), or the pool's cards of ``refs`` and ``named`` when
    one of ``named`` is missing from it."""
    if all(not index.found(game, ref).unknown for ref in named):
        return index
    with open_pool(db) as pool:
        return pool.index_for([*refs, *named])


def one_deck(
    path: Path, format: str | None, db: Path | None, as_of: datetime.date | None = None
) -> tuple[DeckList, Format, CardIndex]:
    """Read one deck file, its format (the version in force on ``as_of``, else on the deck's
    ``date:`` line, else today) and the cards it names."""
    from deckcheck import decks as deckfiles

    deck = deckfiles.read(path)
    with open_pool(db) as pool:
        index = pool.index_for([e.ref for e in deck.entries])
    fmt = format_for(format or deck.format, path, as_of or deck.date, (deck, index))
    return deck, fmt, index
