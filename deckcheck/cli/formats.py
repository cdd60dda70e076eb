"""``deckcheck formats``: list the formats, or show one."""

from __future__ import annotations

from typing import Annotated

import typer

from deckcheck.cli.common import console, print_json
from deckcheck.cli.localize import Command, Group
from deckcheck.cli.options import JsonOption
from deckcheck.i18n import N_, _

formats_app = typer.Typer(
    cls=Group,
    help=N_("Formats: list them, or show one.\n\nExit status: 0 listed, 2 bad option."),
    invoke_without_command=True,
)


@formats_app.callback()
def formats_main(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """List the formats (shipped, and any in $DECKCHECK_FORMATS folders). Its help is
    formats_app's."""
    if ctx.invoked_subcommand is not None:
        return
    from deckcheck import plugins
    from deckcheck.formats.registry import default_registry, listing

    found = default_registry().all()
    for why in plugins.broken().values():  # a plugin that did not load: its formats are missing
        console(stderr=True).print(_("warning: {problem}", problem=why), markup=False)
    if as_json:
        print_json([listing(f) for f in found])
        return
    from deckcheck.cli import show

    show.format_list(console(), found)


SHOW_HELP = N_(
    "Print one format: every rule it checks, with its source, and its versions' dates.\n\n"
    "Exit status: 0 shown, 2 unknown format or bad .toml file."
)


@formats_app.command("show", cls=Command, help=SHOW_HELP)
def formats_show(
    format_id: Annotated[str, typer.Argument(metavar="ID", help=N_("Format id or .toml file."))],
    as_json: JsonOption = False,
) -> None:
    from deckcheck.formats.registry import default_registry, detail

    registry = default_registry()
    if as_json:
        print_json(detail(registry, format_id))
        return
    from deckcheck.cli import show

    show.format_detail(console(), registry.get(format_id), registry.family(format_id))
