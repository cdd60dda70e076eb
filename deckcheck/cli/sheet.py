"""``deckcheck sheet``: a printable registration sheet (HTML) for each deck list."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from deckcheck.cli.common import one_deck
from deckcheck.cli.options import AsOfOption, DbOption, FormatOption
from deckcheck.cli.outputs import wrote
from deckcheck.errors import EXIT_OK
from deckcheck.i18n import N_, _

HELP = N_(
    "Write a printable registration sheet (HTML, one A4 page) for each deck list: player and "
    "event fields, each section's cards (number, name, count) and totals, and the verdict.\n\n"
    "Exit status: 0 written, 2 usage or input error."
)


def sheet(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help=N_("Deck files or folders (*.deck, *.txt, *.json)."), show_default=False
        ),
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            metavar="DIR",
            help=N_("Folder for the sheets: DECK.html for each deck file DECK.*."),
        ),
    ],
    event: Annotated[
        str | None, typer.Option("--event", help=N_("The event's name, printed on each sheet."))
    ] = None,
    format: FormatOption = None,
    as_of: AsOfOption = None,
    db: DbOption = None,
) -> None:
    from deckcheck import decks as deckfiles
    from deckcheck import sheet as sheets
    from deckcheck.cli.common import as_of_day
    from deckcheck.errors import UsageError, os_reason
    from deckcheck.files import write_text_atomic
    from deckcheck.validate import validate

    files = deckfiles.expand(paths)
    if not files:
        raise UsageError(_("no deck files found (looked for *.deck, *.txt, *.json)"))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(_("cannot write {path}: {error}", path=out, error=os_reason(exc))) from exc
    day = as_of_day(as_of)
    for path in files:
        deck, fmt, index = one_deck(path, format, db, day)
        page = sheets.render(deck, fmt, index, validate(deck, fmt, index), event)
        target = out / f"{path.stem}.html"
        write_text_atomic(target, page)
        wrote(target, _("registration sheet"))
    raise typer.Exit(EXIT_OK)
