"""``python -m deckcheck.cli.warm``: compile (or load) the goldfish batch engines now, so that a
user's first ``deckcheck goldfish`` does not wait for numba. ``make demo`` runs it with
``--usage``; ``deckcheck serve`` runs it per game in a child process (goldfish/warm.py).

A maintenance step rather than a ``deckcheck`` command: it has nothing to say to a deck.
Exit status: 0 every engine warmed, 1 some did not (its line says why), 2 bad input.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Sequence
from pathlib import Path

from deckcheck import plugins
from deckcheck.errors import EXIT_ILLEGAL, EXIT_INPUT, EXIT_OK, UsageError, as_user_error
from deckcheck.i18n import _, activate, cli_language


def how_to_run() -> str:
    """How to reach the venv's ``deckcheck`` (the README's first lines after set-up)."""
    return _(
        "deckcheck is installed in .venv: run `source .venv/bin/activate` once in this shell, "
        "then `deckcheck --help`; or run it as `.venv/bin/deckcheck --help`."
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m deckcheck.cli.warm",  # i18n: machine
        description=_("Compile the goldfish engines now (numba caches them on disk)."),
    )
    parser.add_argument("--db", type=Path, help=_("card database (default: as deckcheck's)"))
    parser.add_argument(
        # --game given again adds one more game (extend, one value at a time)
        "--game",
        action="extend",
        nargs=1,
        help=_("a game to warm (repeatable; default: every game)"),
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help=_("games warmed at once, each in a process of its own (default 1: in this one)"),
    )
    parser.add_argument(
        "--usage", action="store_true", help=_("then print how to run the deckcheck command")
    )
    return parser


def run(argv: Sequence[str]) -> int:
    """Warm the engines the arguments name; the exit status."""
    from deckcheck.cli.common import open_pool
    from deckcheck.goldfish.warm import batch_games, warm, warm_apart

    args = _parser().parse_args(argv)
    todo = args.game or batch_games()
    for game in todo:
        plugins.get(game)  # an unknown game is exit 2, before any compile
    if args.processes < 1:
        raise UsageError(_("--processes must be 1 or more"))
    report = functools.partial(print, flush=True)
    with open_pool(args.db) as pool:  # built here first: the processes only read it
        if args.processes == 1 or len(todo) == 1:
            ok = warm(todo, pool.index_for, report)
        else:
            ok = warm_apart(todo, args.db, args.processes, report)
    if args.usage:
        print(how_to_run())
    return EXIT_OK if ok else EXIT_ILLEGAL


def main(argv: Sequence[str] | None = None) -> int:
    """``run`` with deckcheck's language, and its errors as a message and exit status 2."""
    activate(cli_language(None))
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except Exception as exc:
        error = as_user_error(exc)
        if error is None:
            raise
        print(_("deckcheck: error: {problem}", problem=error), file=sys.stderr)
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
