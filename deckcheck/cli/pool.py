"""``deckcheck pool``: the card database: import, search, statistics, init."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from deckcheck.cli.common import console, open_pool, print_json
from deckcheck.cli.localize import Command, Group
from deckcheck.cli.options import DbOption, JsonOption
from deckcheck.cli.outputs import wrote
from deckcheck.errors import InputError, UnknownGame, UsageError
from deckcheck.i18n import N_, _, _n

if TYPE_CHECKING:
    from deckcheck.pool.search import Filter

pool_app = typer.Typer(
    cls=Group,
    help=N_(
        "The card pool: import, search, statistics.\n\n"
        "Exit status: each command's own (its --help says)."
    ),
    no_args_is_help=True,
)


IMPORT_HELP = N_(
    "Import cards, all or nothing: one bad row anywhere and the pool is left unchanged.\n\n"
    "Exit status: 0 imported, 2 bad rows or unreadable file (nothing imported)."
)


@pool_app.command("import", cls=Command, help=IMPORT_HELP)
def pool_import(
    files: Annotated[
        list[Path],
        typer.Argument(help=N_("CSV, JSON (array) or JSON Lines files."), show_default=False),
    ],
    db: DbOption = None,
) -> None:
    from deckcheck.pool.store import CardFileError, ImportRejected

    pool = open_pool(db)
    with pool:
        try:
            result = pool.import_files(files)
        except CardFileError as exc:  # its message names the file, not the outcome
            raise InputError(_("{error}; nothing imported", error=exc)) from exc
        except ImportRejected as exc:
            for line in exc.errors:  # every bad row, before the one-line summary
                sys.stderr.write(f"{line}\n")
            raise
    for path, columns in result.unknown_columns.items():
        warning = _(
            "deckcheck: warning: {path}: ignored unknown columns: {columns}",
            path=path,
            columns=", ".join(columns),
        )
        sys.stderr.write(warning + "\n")
    n = result.added + result.updated
    print(
        _n(
            "imported {n} card ({added} new, {updated} updated) from {files} file(s) into {db}",
            "imported {n} cards ({added} new, {updated} updated) from {files} file(s) into {db}",
            n,
            n=n,
            added=result.added,
            updated=result.updated,
            files=len(result.files),
            db=pool.path,
        )
    )


class _SearchCommand(Command):
    """``pool search``, whose help ends with the search filters of the games registered when
    it is shown (a game installed later brings its own)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from deckcheck.pool.search import known_filters

        lines = [
            _(
                "--{option} VALUE: {filters}",
                option=option.replace("_", "-"),
                filters=" ".join(_help(f) for f in found),
            )
            for option, found in known_filters(None).items()
            if option != "type"
        ]
        self.epilog = _("Filters (GET /games lists each game's):") + "\n\n" + "\n\n".join(lines)
        super().format_help(ctx, formatter)


def _help(f: Filter) -> str:
    label, description = f.shown_label(), f.shown_description()
    if f.game:
        return _(
            "{label} ({game}): {description}.", label=label, game=f.game, description=description
        )
    return _("{label}: {description}.", label=label, description=description)


def _filter_options(args: list[str]) -> tuple[str | None, list[tuple[str, str]]]:
    """The query and the filter options among the arguments the command does not declare:
    ``--max-cost 2`` or ``--max-cost=2``, and one bare word, the query."""
    query: str | None = None
    pairs: list[tuple[str, str]] = []
    rest = iter(args)
    for arg in rest:
        if arg.startswith("-") and not arg.startswith("--") and arg != "-":
            raise UsageError(_("unknown option {option}", option=repr(arg)))
        if not arg.startswith("--"):
            if query is not None:
                raise UsageError(
                    _(
                        "unexpected argument {value} (one query, then --FILTER VALUE)",
                        value=repr(arg),
                    )
                )
            query = arg
            continue
        name, eq, value = arg.partition("=")
        if not eq:
            following = next(rest, None)
            if following is None:
                raise UsageError(_("{option} needs a value", option=name))
            value = following
        pairs.append((name, value))
    return query, pairs


SEARCH_HELP = N_(
    "Search the pool by game, QUERY (a name substring, any width, or a number prefix), "
    "type, and the filters of the card columns: the shared ones and each game's own, listed"
    " below (a game's filter finds only that game's cards).\n\n"
    "Exit status: 0 (also when nothing is found), 2 for an unknown game, type or filter."
)


@pool_app.command(
    "search",
    cls=_SearchCommand,
    help=SEARCH_HELP,
    options_metavar="[QUERY] [OPTIONS] [--FILTER VALUE]...",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def pool_search(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Option("--game", "-g", help=N_("A game id (deckcheck formats lists them).")),
    ] = None,
    type: Annotated[str | None, typer.Option("--type", "-t", help=N_("Card type."))] = None,
    limit: Annotated[int, typer.Option(min=1, max=10000)] = 50,
    offset: Annotated[int, typer.Option(min=0, help=N_("Skip this many matches (paging)."))] = 0,
    samples: Annotated[
        bool,
        typer.Option(
            "--samples",
            help=N_(
                "Also the sample cards (SAMPLE-…) of a game with real cards; "
                "other games show theirs anyway."
            ),
        ),
    ] = False,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    from deckcheck import plugins

    chosen = None
    if game is not None:
        spec = plugins.find(game)
        if spec is None:
            raise UnknownGame(
                _(
                    "unknown game {game} (use {games})",
                    game=repr(game),
                    games=", ".join(plugins.ids()),
                )
            )
        chosen = spec.id
    if type is not None:
        specs = [plugins.get(chosen)] if chosen else list(plugins.specs())
        if not any(type in s.cards.card_types for s in specs):
            raise UsageError(_("unknown card type {type}", type=repr(type)))
    from deckcheck.pool.search import parse_filters

    query, pairs = _filter_options(list(ctx.args))
    filters: dict[str, str | int | None] = dict(parse_filters(pairs, chosen))
    pool = open_pool(db)
    with pool:
        found = pool.search(
            chosen, query, type, limit=limit, offset=offset, samples=samples, **filters
        )
    if as_json:
        print_json([c.model_dump(mode="json") for c in found])
        return
    from deckcheck.cli.pool_table import print_cards

    print_cards(console(), found)
    if not found:
        sys.stderr.write(_("no cards found") + "\n")


STATS_HELP = N_(
    "How many cards the pool holds, per game.\n\nExit status: 0 counted, 2 unreadable pool."
)


@pool_app.command("stats", cls=Command, help=STATS_HELP)
def pool_stats(as_json: JsonOption = False, db: DbOption = None) -> None:
    pool = open_pool(db)
    with pool:
        stats = pool.stats()
    if as_json:
        print_json(stats)
        return
    print(_("{n} cards in {db}", n=stats["total"], db=pool.path))
    for line in _stats_lines(stats):
        print(line)


def _stats_lines(stats: dict[str, Any]) -> list[str]:
    """One line a game: its card list, apart from the rulebook's examples and the samples
    (a game's real card list counts apart from its samples, as the README counts it)."""
    lines = []
    for game, n in stats["by_game"].items():
        samples, examples = stats["samples"][game], stats["examples"][game]
        parts = [_n("{n} card", "{n} cards", n - samples - examples, n=n - samples - examples)]
        if examples:
            parts.append(_n("{n} rulebook example", "{n} rulebook examples", examples, n=examples))
        if samples:
            parts.append(_n("{n} sample card", "{n} sample cards", samples, n=samples))
        lines.append(_("  {game}: {counts}", game=game, counts=", ".join(parts)))
    return lines


INIT_HELP = N_(
    "Create the pool and fill it from the shipped card_pool/ (done on first use anyway).\n\n"
    "Exit status: 0 created, 2 a pool that exists (--force rebuilds it) or cannot be written."
)


@pool_app.command("init", cls=Command, help=INIT_HELP)
def pool_init(
    force: Annotated[
        bool, typer.Option("--force", help=N_("Delete and rebuild an existing pool."))
    ] = False,
    db: DbOption = None,
) -> None:
    from deckcheck.pool.store import default_db_path

    path = db or default_db_path()
    if path.exists():
        if not force:
            raise UsageError(
                _("{path} exists; use --force to rebuild it (imported cards are lost)", path=path)
            )
        try:
            path.unlink()
        except OSError as exc:
            raise UsageError(_("cannot delete {path}: {error}", path=path, error=exc)) from exc
    pool = open_pool(path)
    with pool:
        stats = pool.stats()
    print(_("created {path} with {n} cards", path=path, n=stats["total"]))


TEMPLATE_HELP = N_(
    "An empty CSV card file for GAME: the header, after one # line explaining each column. "
    "Fill it in and `deckcheck pool import` it.\n\nExit status: 0 written, 2 unknown game."
)


@pool_app.command("template", cls=Command, help=TEMPLATE_HELP)
def pool_template(
    game: Annotated[
        str, typer.Argument(metavar="GAME", help=N_("The game id (deckcheck formats lists them)."))
    ],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help=N_("Write here instead of stdout."))
    ] = None,
) -> None:
    from deckcheck import plugins
    from deckcheck.pool.template import template

    spec = plugins.find(game)
    if spec is None:
        raise UnknownGame(
            _(
                "unknown game {game} (known: {games})",
                game=repr(game),
                games=", ".join(plugins.ids()),
            )
        )
    text = template(spec.id)
    if output is None:
        sys.stdout.write(text)
        return
    from deckcheck.files import write_text_atomic

    write_text_atomic(output, text)  # exit 2 for a target that is no regular file
    wrote(output, _("the {game} card template", game=spec.id))
