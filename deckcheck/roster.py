"""What an organiser reads from a run over many deck lists: one line that sums it up (in every
output form) and one table of all decks (``validate --summary``, a CSV file)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from deckcheck.csvsafe import escape
from deckcheck.files import write_text_atomic
from deckcheck.i18n import _, _n
from deckcheck.models import DeckList, Report
from deckcheck.same_deck import RULE as DUPLICATE

# The summary table's columns and its verdict values are machine words (a spreadsheet's or a
# script's), the same in every language.
COLUMNS = ("file", "player", "deck_name", "format", "verdict", "errors", "warnings")


def tally(errors: int, warnings: int) -> str:
    """``2 errors, 1 warning``."""
    return _(
        "{error_count}, {warning_count}",
        error_count=_n("{n} error", "{n} errors", errors, n=errors),
        warning_count=_n("{n} warning", "{n} warnings", warnings, n=warnings),
    )


def summary_line(reports: Sequence[Report]) -> str:
    """``12 decks: 9 legal, 3 illegal (5 errors, 2 warnings); 1 duplicate list``."""
    legal = sum(r.legal for r in reports)
    line = _(
        "{decks}: {legal} legal, {illegal} illegal ({tally})",
        decks=_n("{n} deck", "{n} decks", len(reports), n=len(reports)),
        legal=legal,
        illegal=len(reports) - legal,
        tally=tally(sum(len(r.errors) for r in reports), sum(len(r.warnings) for r in reports)),
    )
    same = sum(v.rule == DUPLICATE for r in reports for v in r.warnings)
    if same:
        line += _("; {n} lists that are the same deck as another", n=same)
    return line


def rows(decks: Sequence[DeckList], reports: Sequence[Report]) -> list[list[str | int]]:
    """One row a deck, in ``COLUMNS`` order."""
    return [
        [
            report.path or "",
            deck.player or "",
            deck.name or "",
            report.format,
            "legal" if report.legal else "illegal",
            len(report.errors),
            len(report.warnings),
        ]
        for deck, report in zip(decks, reports, strict=True)
    ]


def summary_csv(decks: Sequence[DeckList], reports: Sequence[Report]) -> str:
    """The table as CSV, each text cell escaped against formula injection (a player's name
    such as ``=HYPERLINK(…)`` stays text in a spreadsheet)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows(decks, reports):
        writer.writerow([escape(cell) if isinstance(cell, str) else cell for cell in row])
    return out.getvalue()


def write_summary(path: Path, decks: Sequence[DeckList], reports: Sequence[Report]) -> None:
    """The table written atomically (UTF-8 with a BOM, so that a spreadsheet reads the
    Japanese names as Japanese)."""
    write_text_atomic(path, "\ufeff" + summary_csv(decks, reports))
