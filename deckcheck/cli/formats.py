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
    from deckcheck.formats import default_registry

    found = default_registry().all()
    if as_json:
        print_json(
            [
                {"id": f.id, "game": f.game, "name": f.name, "assumptions": f.assumptions}
                for f in found
            ]
        )
        return
    from deckcheck import render

    render.format_list(console(), found)


@formats_app.command("show")
def formats_show(
    format_id: Annotated[str, typer.Argument(metavar="ID", help="Format id or .toml file.")],
    as_json: JsonOption = False,
) -> None:
    """Print one format: every rule it checks, with its source."""
    from deckcheck.formats import default_registry

    fmt = default_registry().get(format_id)
    if as_json:
        print_json(fmt.model_dump(mode="json"))
        return
    from deckcheck import render

    render.format_detail(console(), fmt)
