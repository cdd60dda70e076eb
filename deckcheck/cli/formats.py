"""``deckcheck formats``: list the formats, or show one."""

from __future__ import annotations

from typing import Annotated

import typer

from deckcheck.cli.common import console, print_json
from deckcheck.cli.options import JsonOption

formats_app = typer.Typer(help="Formats: list them, or show one.", invoke_without_command=True)


@formats_app.callback()
def formats_main(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """List the formats (shipped, and any in $DECKCHECK_FORMATS folders)."""
    if ctx.invoked_subcommand is not None:
        return
    from deckcheck import games
    from deckcheck.format_registry import default_registry, listing

    found = default_registry().all()
    for why in games.broken().values():  # a plugin that did not load: its formats are missing
        console(stderr=True).print(f"warning: {why}", markup=False)
    if as_json:
        print_json([listing(f) for f in found])
        return
    from deckcheck import render

    render.format_list(console(), found)


@formats_app.command("show")
def formats_show(
    format_id: Annotated[str, typer.Argument(metavar="ID", help="Format id or .toml file.")],
    as_json: JsonOption = False,
) -> None:
    """Print one format: every rule it checks, with its source, and its versions' dates."""
    from deckcheck.format_registry import default_registry, detail

    registry = default_registry()
    if as_json:
        print_json(detail(registry, format_id))
        return
    from deckcheck import render

    render.format_detail(console(), registry.get(format_id), registry.family(format_id))
