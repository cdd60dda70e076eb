"""Dated format versions: which version of a format family is in force on a day.

A format file may carry ``effective = { from = DATE, until = DATE }`` (``until``: its last day,
optional) and ``supersedes = ID`` (the version it follows). The versions linked by
``supersedes`` form a family; the file no other file supersedes is its head, named by the
family's id. Pure functions on plain data: the registry (formats/registry.py) reads the files.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from deckcheck.errors import FormatError
from deckcheck.i18n import _


@dataclass(frozen=True)
class Dated:
    """One version as the family rules see it."""

    id: str
    game: str
    start: date | None  # None: an undated format
    until: date | None  # its own last day, if the file gives one
    supersedes: str | None = None


def problems(chain: Sequence[Dated]) -> list[str]:
    """What is wrong with a family, newest version first: every version dated, one game,
    each version starting after the one it supersedes ends (no overlap)."""
    out: list[str] = []
    for newer, older in itertools.pairwise(chain):
        if newer.start is None or older.start is None:
            undated = newer if newer.start is None else older
            out.append(_("{id}: a version of a family needs effective.from", id=undated.id))
            continue
        ids = {"newer": newer.id, "older": older.id}
        if newer.game != older.game:
            games = {"newer_game": newer.game, "older_game": older.game}
            said = _("{newer} ({newer_game}) supersedes {older} of {older_game}", **ids, **games)
            out.append(said)
        if newer.start <= older.start:
            starts = {"newer_start": newer.start, "older_start": older.start}
            out.append(
                _(
                    "{newer} (from {newer_start}) must start after {older}, which it "
                    "supersedes (from {older_start})",
                    **ids, **starts,
                )
            )
        elif older.until is not None and older.until >= newer.start:
            out.append(
                _(
                    "{older} (until {until}) overlaps {newer} (from {start}), which supersedes it",
                    **ids, until=older.until, start=newer.start,
                )
            )
    return out


def end_of(version: Dated, successor: Dated | None) -> date | None:
    """The last day a version is in force: its own ``until``, else the day before its
    successor starts, else none (in force for good)."""
    if version.until is not None:
        return version.until
    if successor is not None and successor.start is not None:
        return successor.start - timedelta(days=1)
    return None


def in_force(chain: Sequence[Dated], successor: Dated | None, day: date) -> Dated:
    """The version to use on ``day``, from ``chain`` (the version named first, then those it
    supersedes, newest first; ``successor``: the version that supersedes the one named).

    The version whose dates hold ``day``; when ``day`` is past the named version's end (a
    version named by its own id, or a family that ended), the named version all the same: the
    output shows its dates. A day before the first version, or between two versions, is an
    error (exit status 2)."""
    named = chain[0]
    if named.start is None:
        return named  # undated: in force whatever the day
    ends = [end_of(v, n) for v, n in zip(chain, [successor, *chain], strict=False)]
    for version, end in zip(chain, ends, strict=True):
        assert version.start is not None  # a family's versions are dated (problems())
        if version.start <= day and (end is None or day <= end):
            return version
    first = chain[-1]
    if first.start is not None and day < first.start:
        raise FormatError(
            _(
                "{id}: no version is in force on {day}: the first, {first}, is in force from "
                "{start}",
                id=named.id,
                day=day,
                first=first.id,
                start=first.start,
            )
        )
    if ends[0] is not None and day > ends[0]:
        return named
    raise FormatError(
        _("{id}: no version is in force on {day} (a gap between versions)", id=named.id, day=day)
    )


ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_day(text: str) -> date:
    """A day written ``YYYY-MM-DD`` (``--as-of``, a deck's ``date:`` line); ValueError with a
    message to show otherwise."""
    text = text.strip()
    try:
        if ISO_DAY.fullmatch(text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise ValueError(
        _("{text} is not a date (write YYYY-MM-DD, e.g. 2017-02-26)", text=repr(text[:40]))
    )
