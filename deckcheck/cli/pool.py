"""``deckcheck pool``: the card database: import, search, statistics, init."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand

from deckcheck.cli.common import console, open_pool, print_json
from deckcheck.cli.options import DbOption, JsonOption
from deckcheck.errors import InputError, UnknownGame, UsageError

if TYPE_CHECKING:
    from deckcheck.pool.search import Filter

pool_app = typer.Typer(help="The card pool: import, search, statistics.", no_args_is_help=True)


@pool_app.command("import")
def pool_import(
    files: Annotated[
        list[Path],
        typer.Argument(help="CSV, JSON (array) or JSON Lines files.", show_default=False),
    ],
    db: DbOption = None,
) -> None:
    """Import cards, all or nothing: one bad row anywhere and the pool is left unchanged.

    Exit status: 0 imported, 2 bad rows or unreadable file (nothing imported).
    """
    from deckcheck.pool.store import CardFileError, ImportRejected

    pool = open_pool(db)
    with pool:
        try:
            result = pool.import_files(files)
        except CardFileError as exc:  # its message names the file, not the outcome
            raise InputError(f"{exc}; nothing imported") from exc
        except ImportRejected as exc:
            for line in exc.errors:  # every bad row, before the one-line summary
                sys.stderr.write(f"{line}\n")
            raise
    for path, columns in result.unknown_columns.items():
        sys.stderr.write(
            f"deckcheck: warning: {path}: ignored unknown columns: {', '.join(columns)}\n"
        )
    print(
        f"imported {result.added + result.updated} cards ({result.added} new, "
        f"{result.updated} updated) from {len(result.files)} file(s) into {pool.path}"
    )


class _SearchCommand(TyperCommand):
    """``pool search``, whose help ends with the search filters of the games registered when
    it is shown (a game installed later brings its own)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from deckcheck.pool.search import known_filters

        lines = [
            f"--{option.replace('_', '-')} VALUE: " + " ".join(_help(f) for f in found)
            for option, found in known_filters(None).items()
            if option != "type"
        ]
        self.epilog = "Filters (GET /games lists each game's):\n\n" + "\n\n".join(lines)
        super().format_help(ctx, formatter)


def _help(f: Filter) -> str:
    return f"{f.label}{f' ({f.game})' if f.game else ''}: {f.description}."


def _filter_options(args: list[str]) -> tuple[str | None, list[tuple[str, str]]]:
    """The query and the filter options among the arguments the command does not declare:
    ``--max-cost 2`` or ``--max-cost=2``, and one bare word, the query."""
    query: str | None = None
    pairs: list[tuple[str, str]] = []
    rest = iter(args)
    for arg in rest:
        if arg.startswith("-") and not arg.startswith("--") and arg != "-":
            raise UsageError(f"unknown option {arg!r}")
        if not arg.startswith("--"):
            if query is not None:
                raise UsageError(f"unexpected argument {arg!r} (one query, then --FILTER VALUE)")
            query = arg
            continue
        name, eq, value = arg.partition("=")
        if not eq:
            following = next(rest, None)
            if following is None:
                raise UsageError(f"{name} needs a value")
            value = following
        pairs.append((name, value))
    return query, pairs


@pool_app.command(
    "search",
    cls=_SearchCommand,
    options_metavar="[QUERY] [OPTIONS] [--FILTER VALUE]...",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def pool_search(
    ctx: typer.Context,
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="A game id (deckcheck formats lists them).")
    ] = None,
    type: Annotated[str | None, typer.Option("--type", "-t", help="Card type.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=10000)] = 50,
    offset: Annotated[int, typer.Option(min=0, help="Skip this many matches (paging).")] = 0,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Search the pool by game, QUERY (a name substring, any width, or a number prefix),
    type, and the filters of the card columns: the shared ones and each game's own, listed
    below (a game's filter finds only that game's cards).

    Exit status: 0 (also when nothing is found), 2 for an unknown game, type or filter.
    """
    from deckcheck import games

    chosen = None
    if game is not None:
        spec = games.find(game)
        if spec is None:
            raise UnknownGame(f"unknown game {game!r} (use {', '.join(games.ids())})")
        chosen = spec.id
    if type is not None:
        specs = [games.get(chosen)] if chosen else list(games.specs())
        if not any(type in s.card_types for s in specs):
            raise UsageError(f"unknown card type {type!r}")
    from deckcheck.pool.search import parse_filters

    query, pairs = _filter_options(list(ctx.args))
    filters: dict[str, str | int | None] = dict(parse_filters(pairs, chosen))
    pool = open_pool(db)
    with pool:
        found = pool.search(chosen, query, type, limit=limit, offset=offset, **filters)
    if as_json:
        print_json([c.model_dump(mode="json") for c in found])
        return
    from deckcheck import render

    render.cards(console(), found)
    if not found:
        sys.stderr.write("no cards found\n")


@pool_app.command("stats")
def pool_stats(as_json: JsonOption = False, db: DbOption = None) -> None:
    """How many cards the pool holds, per game."""
    pool = open_pool(db)
    with pool:
        stats = pool.stats()
    if as_json:
        print_json(stats)
        return
    by_game = stats["by_game"]
    assert isinstance(by_game, dict)
    print(f"{stats['total']} cards in {pool.path}")
    for game, n in by_game.items():
        print(f"  {game}: {n}")


@pool_app.command("init")
def pool_init(
    force: Annotated[
        bool, typer.Option("--force", help="Delete and rebuild an existing pool.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Create the pool and fill it from the shipped card_pool/ (done on first use anyway)."""
    from deckcheck.pool.store import default_db_path

    path = db or default_db_path()
    if path.exists():
        if not force:
            raise UsageError(f"{path} exists; use --force to rebuild it (imported cards are lost)")
        try:
            path.unlink()
        except OSError as exc:
            raise UsageError(f"cannot delete {path}: {exc}") from exc
    pool = open_pool(path)
    with pool:
        stats = pool.stats()
    print(f"created {path} with {stats['total']} cards")


@pool_app.command("template")
def pool_template(
    game: Annotated[str, typer.Argument(help="The game id (deckcheck formats lists them).")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")
    ] = None,
) -> None:
    """An empty CSV card file for GAME: the header, after one # line explaining each column.
    Fill it in and `deckcheck pool import` it."""
    from deckcheck import games
    from deckcheck.pool.template import template

    spec = games.find(game)
    if spec is None:
        raise UnknownGame(f"unknown game {game!r} (known: {', '.join(games.ids())})")
    text = template(spec.id)
    if output is None:
        sys.stdout.write(text)
        return
    from deckcheck.files import write_text_atomic

    write_text_atomic(output, text)  # exit 2 for a target that is no regular file
    print(f"wrote the {spec.id} card template to {output}")
