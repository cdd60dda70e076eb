"""The ``deckcheck`` command. Parses arguments, calls a backend, renders; nothing more.

Exit status: 0 every deck legal (or the command succeeded), 1 some deck illegal,
2 usage or input error (missing file, unknown format, bad card file, unreadable database),
70 a bug in deckcheck. Commands raise ``deckcheck.errors`` exceptions; the root command below
is the one place that turns them into a message and an exit status.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from deckcheck.cli import files, goldfish, odds, serve, sweep, validate
from deckcheck.cli.formats import formats_app
from deckcheck.cli.options import Globals, LangOption, ServerOption
from deckcheck.cli.pool import pool_app
from deckcheck.errors import EXIT_BUG, EXIT_ILLEGAL, EXIT_INPUT, EXIT_OK, as_user_error
from deckcheck.i18n import LANGUAGES, activate, cli_language

__all__ = ["EXIT_BUG", "EXIT_ILLEGAL", "EXIT_INPUT", "EXIT_OK", "app", "main"]


class _Root(TyperGroup):
    """Maps every user-facing error to its message and exit status. Done here rather than
    only in ``main`` so that it also holds when the app is invoked directly (tests, embedding)."""

    def invoke(self, ctx: Any) -> Any:  # Any: typer's click.Context is a private class
        try:
            return super().invoke(ctx)
        except Exception as exc:
            error = as_user_error(exc)
            if error is None:
                raise  # a bug: main() reports it
            sys.stderr.write(f"deckcheck: error: {error}\n")
            raise typer.Exit(error.exit_code) from exc


app = typer.Typer(
    cls=_Root,
    help="Deck legality validator for trading card games: each game is a plugin, and "
    "`deckcheck formats` lists the formats of the games installed.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def root(ctx: typer.Context, server: ServerOption = None, lang: LangOption = None) -> None:
    """Deck legality, odds and goldfish for the trading card games deckcheck knows (each a
    plugin: deckcheck/games/)."""
    if lang is not None:
        activate(lang)
    ctx.obj = Globals(server=server)


app.command()(validate.validate)
app.command()(odds.odds)
app.command()(odds.hand)
app.command()(goldfish.goldfish)
app.command()(serve.serve)
app.command()(sweep.sweep)
app.add_typer(pool_app, name="pool")
app.add_typer(formats_app, name="formats")
for _command in (files.new, files.add, files.remove, files.fix, files.convert, files.diff):
    app.command()(_command)


def take_lang(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` or ``--lang=X`` taken out of the arguments (before any ``--``), so that it
    works after a command as well as before it: ``deckcheck validate x.deck --lang ja``."""
    flag: str | None = None
    rest: list[str] = []
    items = iter(argv)
    for item in items:
        if item == "--":
            rest.append(item)
            rest.extend(items)
            break
        if item == "--lang":
            flag = next(items, "")
        elif item.startswith("--lang="):
            flag = item.partition("=")[2]
        else:
            rest.append(item)
    return flag, rest


def main() -> None:
    """Console entry point: never a traceback. Bad input exits 2 with a message; an error in
    deckcheck itself exits 70 with a one-line report (set DECKCHECK_DEBUG=1 for the trace)."""
    flag, args = take_lang(sys.argv[1:])
    if flag is not None and flag not in LANGUAGES:
        sys.stderr.write(f"deckcheck: error: --lang {flag!r}: use one of {', '.join(LANGUAGES)}\n")
        sys.exit(EXIT_INPUT)
    activate(cli_language(flag))
    try:
        app(args=args, prog_name="deckcheck")
    except KeyboardInterrupt:
        sys.stderr.write("deckcheck: interrupted\n")
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("DECKCHECK_DEBUG"):
            raise
        sys.stderr.write(
            f"deckcheck: internal error: {type(exc).__name__}: {exc} (a bug in deckcheck; "
            "rerun with DECKCHECK_DEBUG=1 and report it)\n"
        )
        sys.exit(EXIT_BUG)
