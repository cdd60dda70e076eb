"""``deckcheck pool``: the card database: import, search, statistics, init."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from deckcheck.cli.common import console, open_pool, print_json
from deckcheck.cli.options import DbOption, JsonOption
from deckcheck.errors import InputError, UnknownGame, UsageError

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


@pool_app.command("search")
def pool_search(
    query: Annotated[str | None, typer.Argument(help="Name substring (any width).")] = None,
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="A game id (deckcheck formats lists them).")
    ] = None,
    type: Annotated[str | None, typer.Option("--type", "-t", help="Card type.")] = None,
    title: Annotated[str | None, typer.Option("--title", "--os", help="Chaos title or OS.")] = None,
    keyword: Annotated[str | None, typer.Option(help="A keyword (デッキ1枚制限, Union…).")] = None,
    user: Annotated[str | None, typer.Option(help="VISION 術者 (substring).")] = None,
    klass: Annotated[str | None, typer.Option("--class", help="VISION 種族 (substring).")] = None,
    package: Annotated[str | None, typer.Option(help="VISION set (NO1, ST4…).")] = None,
    link: Annotated[str | None, typer.Option(help="VISION 連結 text (substring).")] = None,
    max_level: Annotated[int | None, typer.Option(help="At most this level.")] = None,
    max_cost: Annotated[int | None, typer.Option(help="At most this cost.")] = None,
    max_node: Annotated[int | None, typer.Option(help="VISION: at most this 必要ノード.")] = None,
    min_graze: Annotated[int | None, typer.Option(help="VISION: at least this graze.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=10000)] = 50,
    offset: Annotated[int, typer.Option(min=0, help="Skip this many matches (paging).")] = 0,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Search the pool by game, name or number, type, title or OS, and card columns."""
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
    pool = open_pool(db)
    with pool:
        filters: dict[str, str | int | None] = {"keyword": keyword, "user": user}
        filters |= {"class": klass, "package": package, "link": link, "min_graze": min_graze}
        filters["max_node"] = max_node
        found = pool.search(
            chosen, query, type, title, limit, offset, max_level, max_cost, **filters
        )
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
