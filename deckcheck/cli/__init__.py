"""The ``deckcheck`` command. Parses arguments, calls a backend, renders; nothing more.

Exit status: 0 every deck legal (or the command succeeded), 1 some deck illegal,
2 usage or input error (missing file, unknown format, bad card file, unreadable database),
70 a bug in deckcheck. Commands raise ``deckcheck.errors`` exceptions; the root command below
is the one place that turns them into a message and an exit status.
"""

from __future__ import annotations

import contextvars
import functools
import os
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer
from typer import _click
from typer._click.exceptions import ClickException

from deckcheck import kinsoku
from deckcheck.cli import files, goldfish, localize, odds, serve, sheet, sweep, tune, validate
from deckcheck.cli.formats import formats_app
from deckcheck.cli.localize import Command, Group
from deckcheck.cli.options import Globals, LangOption, ServerOption
from deckcheck.cli.pool import pool_app
from deckcheck.errors import EXIT_BUG, EXIT_ILLEGAL, EXIT_INPUT, EXIT_OK, as_user_error
from deckcheck.i18n import LANGUAGES, N_, _, activate, cli_language

__all__ = ["EXIT_BUG", "EXIT_ILLEGAL", "EXIT_INPUT", "EXIT_OK", "app", "command_tree", "main"]


class _Root(Group):
    """Maps every user-facing error to its message and exit status, and shows click's own
    errors in the language. Done here rather than only in ``main`` so that it also holds when
    the app is invoked directly (tests, embedding)."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        # a run's language (``--lang`` sets it while parsing) stays inside the run
        run = functools.partial(
            super().main,
            args,
            prog_name,
            complete_var,
            windows_expand_args=windows_expand_args,
            **extra,
        )
        return contextvars.copy_context().run(self._main, run, standalone_mode)

    def _main(self, run: Callable[..., Any], standalone_mode: bool) -> Any:
        if not standalone_mode:
            return run(standalone_mode=False)
        localize.translate_tree(self)
        kinsoku.install()  # Japanese help and tables wrap by display width, with 禁則
        try:
            # typer returns an Exit's status instead of exiting; the commands return None
            code = run(standalone_mode=False)
        except ClickException as exc:
            localize.exit_on_error(exc)
        except typer.Abort:
            localize.show_aborted()
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else EXIT_OK)

    def invoke(self, ctx: Any) -> Any:  # Any: typer's click.Context is a private class
        try:
            return super().invoke(ctx)
        except Exception as exc:
            error = as_user_error(exc)
            if error is None:
                raise  # a bug: main() reports it
            sys.stderr.write(_("deckcheck: error: {problem}", problem=error) + "\n")
            raise typer.Exit(error.exit_code) from exc


app = typer.Typer(
    cls=_Root,
    help=N_(
        "Deck legality validator for trading card games: each game is a plugin, and "
        "`deckcheck formats` lists the formats of the games installed."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from deckcheck import __version__

        print(_("deckcheck {version}", version=__version__))
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    server: ServerOption = None,
    lang: LangOption = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help=N_("Print the version and exit."),
        ),
    ] = False,
) -> None:
    # the root's help is the Typer's; --lang is set by its own callback (options.py)
    ctx.obj = Globals(server=server)


for _command, _help in (
    (validate.validate, validate.HELP),
    (odds.odds, odds.ODDS_HELP),
    (odds.hand, odds.HAND_HELP),
    (goldfish.goldfish, goldfish.HELP),
    (serve.serve, serve.HELP),
    (sweep.sweep, sweep.HELP),
    (tune.tune, tune.HELP),
    (sheet.sheet, sheet.HELP),
):
    app.command(cls=Command, help=_help)(_command)
app.add_typer(pool_app, name="pool")
app.add_typer(formats_app, name="formats")
for _edit, _edit_help in files.HELPS.items():
    app.command(cls=Command, help=_edit_help)(_edit)


def take_lang(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` or ``--lang=X`` taken out of the arguments (before any ``--``), so that it
    works after a command as well as before it: ``deckcheck validate DECK --lang ja``."""
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


_built = threading.local()


def command_tree() -> _click.Command:
    """``app``'s click command tree, built once per thread: typer builds it again at every
    call of ``app`` (each command's signature and type hints, 36 ms on the 2-core VM), which
    every run in one process paid: the suite's in-process runs spent about a tenth of their
    Python time there (issue 35). The tree holds no run's state: a run's values live in its
    click context, and its language's help texts are put in afresh at each run
    (``localize.translate_tree``). One per thread, so two threads' runs never share texts."""
    tree: _click.Command | None = getattr(_built, "tree", None)
    if tree is None:
        tree = _built.tree = typer.main.get_command(app)
    return tree


def main() -> None:
    """Console entry point: never a traceback. Bad input exits 2 with a message; an error in
    deckcheck itself exits 70 with a one-line report (set DECKCHECK_DEBUG=1 for the trace)."""
    flag, args = take_lang(sys.argv[1:])
    activate(cli_language(flag if flag in LANGUAGES else None))
    if flag is not None and flag not in LANGUAGES:
        message = _(
            "--lang {value}: use one of {languages}",
            value=repr(flag),
            languages=", ".join(LANGUAGES),
        )
        sys.stderr.write(_("deckcheck: error: {problem}", problem=message) + "\n")
        sys.exit(EXIT_INPUT)
    try:
        command_tree()(args=args, prog_name="deckcheck")
    except KeyboardInterrupt:
        sys.stderr.write(_("deckcheck: interrupted") + "\n")
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("DECKCHECK_DEBUG"):
            raise
        sys.stderr.write(
            _(
                "deckcheck: internal error: {error_type}: {error} (a bug in deckcheck; "
                "rerun with DECKCHECK_DEBUG=1 and report it)",
                error_type=type(exc).__name__,
                error=exc,
            )
            + "\n"
        )
        sys.exit(EXIT_BUG)
