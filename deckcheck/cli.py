"""The ``deckcheck`` command. Parses arguments, calls the library, renders; nothing more.

Exit status: 0 every deck legal (or the command succeeded), 1 some deck illegal,
2 usage or input error (missing file, unknown format, bad card file, unreadable database).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from deckcheck.formats import Format
    from deckcheck.models import DeckList, Report
    from deckcheck.pool.store import CardPool
    from deckcheck.resolve import CardIndex

EXIT_OK, EXIT_ILLEGAL, EXIT_INPUT = 0, 1, 2

app = typer.Typer(
    help="Deck legality validator for ChaosTCG, ラクエンロジック, 東方 Phantom Magic VISION and "
    "あいりすミスティリア! TCG.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def root(
    ctx: typer.Context,
    server: Annotated[
        str | None,
        typer.Option(
            "--server",
            envvar="DECKCHECK_SERVER",
            metavar="URL",
            help="Ask a deckcheck service (validate, odds, hand, goldfish).",
        ),
    ] = None,
) -> None:
    """Deck legality, odds and goldfish for ChaosTCG, ラクエンロジック, 東方 Phantom Magic VISION
    and あいりすミスティリア! TCG."""
    ctx.obj = {"server": server}


def _server(ctx: typer.Context) -> str | None:
    return (ctx.obj or {}).get("server") if ctx else None


def _remote(fn: Callable[[], Any]) -> Any:
    from deckcheck.client import ClientError

    try:
        return fn()
    except ClientError as exc:
        _fail(str(exc))


pool_app = typer.Typer(help="The card pool: import, search, statistics.", no_args_is_help=True)
formats_app = typer.Typer(help="Formats: list them, or show one.", invoke_without_command=True)
app.add_typer(pool_app, name="pool")
app.add_typer(formats_app, name="formats")

DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        help="Card database (default: $DECKCHECK_DB, else the user data dir).",
        dir_okay=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _console(stderr: bool = False) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    sys.stderr.write(f"deckcheck: error: {message}\n")
    raise typer.Exit(code)


def _open_pool(db: Path | None) -> CardPool:
    """The card pool: ``--db``, else ``$DECKCHECK_DATABASE_URL`` (SQLAlchemy), else
    ``$DECKCHECK_DB`` or the user data folder."""
    from deckcheck.pool.store import Pool, PoolError

    url = os.environ.get("DECKCHECK_DATABASE_URL")
    if db is None and url:
        from sqlalchemy.exc import SQLAlchemyError

        from deckcheck.pool.sql import SqlPool

        try:
            return SqlPool(url)
        except SQLAlchemyError as exc:
            _fail(f"cannot use DECKCHECK_DATABASE_URL: {exc}")
    try:
        return Pool(db)
    except PoolError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"cannot open the card database: {exc}")


def _print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


OUTPUTS = ("text", "json", "junit", "github", "sarif")


@app.command()
def validate(
    ctx: typer.Context,
    paths: Annotated[
        list[Path],
        typer.Argument(help="Deck files or folders (*.deck, *.txt, *.json).", show_default=False),
    ],
    format: Annotated[
        str | None,
        typer.Option(
            "--format", "-f", help="Format id or .toml file; overrides the deck's format: line."
        ),
    ] = None,
    output: Annotated[
        str, typer.Option("--output", "-o", help="text, json, junit, github or sarif.")
    ] = "text",
    as_json: Annotated[bool, typer.Option("--json", help="Same as --output json.")] = False,
    changed_since: Annotated[
        str | None,
        typer.Option(
            "--changed-since",
            metavar="REV",
            help="Only deck files changed since this git revision.",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Check deck lists against their format; report every violation.

    Exit status: 0 all legal, 1 some deck illegal, 2 usage or input error.
    """
    from deckcheck import decks as deckfiles
    from deckcheck.api import MissingFormat, paused_gc, refs_of, validate_decks
    from deckcheck.formats import FormatError, default_registry

    output = "json" if as_json else output.casefold()
    if output not in OUTPUTS:
        _fail(f"unknown --output {output!r} (use {', '.join(OUTPUTS)})")
    try:
        files = deckfiles.expand(paths)
    except deckfiles.DeckInputError as exc:
        _fail(str(exc))
    if changed_since is not None:
        from deckcheck.ci import GitError
        from deckcheck.ci import changed_since as changed

        try:
            recent = changed(changed_since)
        except GitError as exc:
            _fail(f"--changed-since {changed_since}: {exc}")
        files = [f for f in files if f.resolve() in recent]
        if not files:
            sys.stderr.write(f"deckcheck: no deck files changed since {changed_since}\n")
            if output == "text":
                raise typer.Exit(EXIT_OK)
    elif not files:
        _fail("no deck files found (looked for *.deck, *.txt, *.json)")
    try:
        with paused_gc():
            parsed = [deckfiles.read(p) for p in files]
    except deckfiles.DeckInputError as exc:
        _fail(str(exc))
    registry = default_registry()
    server = _server(ctx)
    if server:
        reports = _remote(lambda: _validate_remote(server, files, parsed, format))
        fetched: dict[str, Format] = {}

        def format_of(ref: str) -> Format:
            if ref not in fetched:
                from deckcheck.client import get
                from deckcheck.formats import Format

                fetched[ref] = Format.model_validate(
                    _remote(lambda: get(server, f"/formats/{ref}"))
                )
            return fetched[ref]

        _print_reports(reports, output, format_of)
        raise typer.Exit(EXIT_OK if all(r.legal for r in reports) else EXIT_ILLEGAL)
    with _open_pool(db) as pool:
        index = pool.index_for(refs_of(parsed))
        try:
            reports = validate_decks(parsed, registry, index, format)
        except (MissingFormat, FormatError) as exc:
            _fail(str(exc))
    _print_reports(
        reports,
        output,
        lambda ref: registry.get(format if format and format.endswith(".toml") else ref),
    )
    raise typer.Exit(EXIT_OK if all(r.legal for r in reports) else EXIT_ILLEGAL)


def _validate_remote(
    server: str, files: list[Path], parsed: list[DeckList], format: str | None
) -> list[Report]:
    from deckcheck import decks as deckfiles
    from deckcheck.client import post
    from deckcheck.models import Report

    reports = []
    for path, local in zip(files, parsed, strict=True):
        text, _ = deckfiles.decode(path.read_bytes(), str(path))
        if local.format is None and format is None:
            _fail(f"{path}: no format: line and no --format")
        data = post(server, "/validate", {"deck": text, "format": format})
        report = Report.model_validate(data)
        report.path = str(path)
        notes = [v for v in local.problems if v.rule == "deck/encoding"]
        report.violations[len(report.errors) : len(report.errors)] = notes  # warnings after errors
        reports.append(report)
    return reports


def _print_reports(reports: list[Report], output: str, format_of: Callable[[str], Format]) -> None:
    if output == "json":
        dumped = [r.model_dump(mode="json") for r in reports]
        _print_json(dumped[0] if len(dumped) == 1 else dumped)
        return
    if output in ("junit", "github", "sarif"):
        from deckcheck import ci

        if output == "sarif":
            _print_json(ci.sarif(reports))
        else:
            sys.stdout.write(ci.junit(reports) if output == "junit" else ci.github(reports))
        return
    from deckcheck import render

    console = _console()
    shown: set[str] = set()
    for i, rep in enumerate(reports):
        if i:
            console.print()
        render.report(console, rep, format_of(rep.format), assumptions=rep.format not in shown)
        shown.add(rep.format)
    render.summary(console, reports)


def _one_deck(
    path: Path, format: str | None, db: Path | None
) -> tuple[DeckList, Format, CardIndex]:
    """Read one deck file, its format and the cards it names (exit 2 on any input error)."""
    from deckcheck import decks as deckfiles
    from deckcheck.formats import FormatError, default_registry

    try:
        deck = deckfiles.read(path)
    except deckfiles.DeckInputError as exc:
        _fail(str(exc))
    ref = format or deck.format
    if ref is None:
        _fail(f"{path}: no format: line and no --format")
    try:
        fmt = default_registry().get(ref)
    except FormatError as exc:
        _fail(str(exc))
    with _open_pool(db) as pool:
        index = pool.index_for([e.ref for e in deck.entries])
    return deck, fmt, index


WantOption = Annotated[
    list[str],
    typer.Option(
        "--want",
        "-w",
        help="Condition 'SELECTOR OP K', e.g. 'type:paradox>=1' (repeat: all must hold).",
        show_default=False,
    ),
]
FormatOption = Annotated[
    str | None, typer.Option("--format", "-f", help="Format id or .toml file.")
]
PartnerOption = Annotated[
    str | None,
    typer.Option(
        "--partner",
        help="ChaosTCG: the chara you choose as partner, when the deck has no partner card.",
    ),
]
SeedOption = Annotated[int | None, typer.Option("--seed", help="Random seed (reproducible).")]


@app.command()
def odds(
    ctx: typer.Context,
    deck_path: Annotated[Path, typer.Argument(metavar="DECK", help="Deck file.")],
    want: WantOption,
    format: FormatOption = None,
    turns: Annotated[int, typer.Option("--turns", "-t", min=0, max=30)] = 5,
    on_play: Annotated[
        bool, typer.Option("--on-play/--on-draw", help="First or second player.")
    ] = True,
    no_mulligan: Annotated[
        bool, typer.Option("--no-mulligan", help="Never take a voluntary mulligan.")
    ] = False,
    attack_draws: Annotated[
        bool, typer.Option("--attack-draws", help="ChaosTCG: draw on every partner attack.")
    ] = False,
    partner: PartnerOption = None,
    simulate: Annotated[
        int | None,
        typer.Option(
            "--simulate",
            min=1,
            max=10_000_000,
            help="Monte Carlo with N games instead of exact counting.",
        ),
    ] = None,
    seed: SeedOption = None,
    table: Annotated[
        str | None,
        typer.Option("--table", help="name:REF: the answer with 1-4 copies of that card."),
    ] = None,
    as_json: JsonOption = False,
    csv_path: Annotated[
        Path | None, typer.Option("--csv", help="Write the rows as CSV.", dir_okay=False)
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Write a PNG of probability by turn.", dir_okay=False),
    ] = None,
    db: DbOption = None,
) -> None:
    """Exact chance that the conditions hold at each turn, with the game's mulligan and draws.

    Exit status: 0 answered, 2 bad condition, deck or option.
    """
    from pydantic import ValidationError

    from deckcheck.odds.api import (
        ConditionError,
        OddsError,
        OddsRequest,
        OddsResult,
        compute_odds,
    )

    server = _server(ctx)
    try:
        req = OddsRequest(
            want=want,
            turns=turns,
            on_play=on_play,
            mulligan=not no_mulligan,
            attack_draws=attack_draws,
            partner=partner,
            simulate=simulate,
            seed=seed,
            table=table,
        )
        if server:
            _, body = _remote_deck(deck_path, format)
            data = _remote(lambda: _post(server, "/odds", {**body, **req.model_dump()}))
            result = OddsResult.model_validate(data)
            result.deck = str(deck_path)
        else:
            deck, fmt, index = _one_deck(deck_path, format, db)
            result = compute_odds(deck, fmt, index, req)
    except (ConditionError, OddsError) as exc:
        _fail(str(exc))
    except ValidationError as exc:
        _fail("; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()))
    if csv_path is not None:
        from deckcheck.odds.output import write_csv

        _write_or_fail(lambda: write_csv(result, csv_path), csv_path)
    if plot is not None:
        from deckcheck.odds.output import write_plot

        _write_or_fail(lambda: write_plot(result, plot), plot)
    if as_json:
        _print_json(result.model_dump(mode="json"))
    elif csv_path is None:
        from deckcheck.odds.output import render

        render(_console(), result)


def _read_text(path: Path) -> str:
    """A deck file's text, decoded as deck files are (exit 2 when it cannot be)."""
    from deckcheck import decks as deckfiles

    try:
        raw = path.read_bytes()
    except OSError as exc:
        _fail(f"{path}: cannot read: {exc.strerror or exc}")
    try:
        text, _ = deckfiles.decode(raw, str(path))
    except deckfiles.DeckInputError as exc:
        _fail(str(exc))
    return text


def _remote_deck(path: Path, format: str | None) -> tuple[str, dict[str, Any]]:
    """The deck file's text and the request fields that carry it."""
    text = _read_text(path)
    return text, {"deck": text, "format": format}


def _post(server: str, path: str, body: dict[str, Any]) -> Any:
    from deckcheck.client import post

    return post(server, path, body)


def _write_or_fail(write: Callable[[], None], path: Path) -> None:
    try:
        write()
    except OSError as exc:
        _fail(f"cannot write {path}: {exc.strerror or exc}")


@app.command()
def hand(
    ctx: typer.Context,
    deck_path: Annotated[Path, typer.Argument(metavar="DECK", help="Deck file.")],
    format: FormatOption = None,
    count: Annotated[int, typer.Option("--count", "-n", min=1, max=1000)] = 1,
    seed: SeedOption = None,
    want: Annotated[
        list[str] | None,
        typer.Option(
            "--want",
            "-w",
            help="Keep only hands that meet these; otherwise take the game's mulligan.",
        ),
    ] = None,
    partner: PartnerOption = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Deal sample opening hands by the game's procedure."""
    from deckcheck.odds.api import ConditionError, HandsResult, OddsError, deal_hands

    server = _server(ctx)
    if server:
        _, body = _remote_deck(deck_path, format)
        fields = {"count": count, "seed": seed, "want": want or [], "partner": partner}
        result = HandsResult.model_validate(
            _remote(lambda: _post(server, "/hand", {**body, **fields}))
        )
        result.deck = str(deck_path)
    else:
        deck, fmt, index = _one_deck(deck_path, format, db)
        try:
            result = deal_hands(deck, fmt, index, count, seed, partner, want or [])
        except (ConditionError, OddsError) as exc:
            _fail(str(exc))
    if as_json:
        _print_json(result.model_dump(mode="json"))
        return
    from deckcheck.odds.output import render_hands

    render_hands(_console(), result)


@app.command()
def goldfish(
    ctx: typer.Context,
    deck_path: Annotated[Path, typer.Argument(metavar="DECK", help="Deck file.")],
    format: FormatOption = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=1_000_000)] = 1000,
    turns: Annotated[int, typer.Option("--turns", "-t", min=1, max=30)] = 10,
    seed: Annotated[int, typer.Option("--seed", min=0)] = 0,
    policy_path: Annotated[
        Path | None, typer.Option("--policy", dir_okay=False, help="Policy file (TOML or YAML).")
    ] = None,
    on_play: Annotated[bool, typer.Option("--on-play/--on-draw")] = True,
    workers: Annotated[int, typer.Option("--workers", "-j", min=1, max=64)] = 1,
    as_json: JsonOption = False,
    csv_path: Annotated[Path | None, typer.Option("--csv", dir_okay=False)] = None,
    parquet: Annotated[Path | None, typer.Option("--parquet", dir_okay=False)] = None,
    plot: Annotated[Path | None, typer.Option("--plot", dir_okay=False)] = None,
    db: DbOption = None,
) -> None:
    """Play solitaire games by the game's turn rules; statistics per turn and milestones.

    Exit status: 0 done (also when Ctrl-C stopped it early: the finished games are reported),
    2 bad deck, policy or option.
    """
    from deckcheck.goldfish.policy import PolicyError, load_policy
    from deckcheck.goldfish.run import GoldfishError, GoldfishRequest
    from deckcheck.goldfish.run import goldfish as run_goldfish

    server = _server(ctx)
    if server:
        from deckcheck.goldfish.policy import read_keys
        from deckcheck.goldfish.run import GoldfishResult

        _, body = _remote_deck(deck_path, format)
        try:
            keys = read_keys(policy_path) if policy_path else None
        except PolicyError as exc:
            _fail(str(exc))
        fields = {"games": games, "turns": turns, "seed": seed, "on_play": on_play, "policy": keys}
        from deckcheck import client

        result = GoldfishResult.model_validate(
            _remote(lambda: client.goldfish(server, {**body, **fields}))
        )
        result.deck = str(deck_path)
        _goldfish_out(result, games, as_json, csv_path, parquet, plot)
        return
    deck, fmt, index = _one_deck(deck_path, format, db)
    try:
        policy = load_policy(policy_path, fmt.game)
        req = GoldfishRequest(games=games, turns=turns, seed=seed, on_play=on_play, workers=workers)
        if sys.stderr.isatty() and games >= 2000:
            from rich.progress import Progress

            with Progress(console=_console(stderr=True), transient=True) as bar:
                task = bar.add_task("goldfish", total=games)
                result = run_goldfish(deck, fmt, index, policy, req, lambda n: bar.advance(task, n))
        else:
            result = run_goldfish(deck, fmt, index, policy, req)
    except (PolicyError, GoldfishError) as exc:
        _fail(str(exc))
    _goldfish_out(result, games, as_json, csv_path, parquet, plot)


def _goldfish_out(
    result: Any,
    games: int,
    as_json: bool,
    csv_path: Path | None,
    parquet: Path | None,
    plot: Path | None,
) -> None:
    from deckcheck.goldfish import output

    if result.interrupted:
        sys.stderr.write(f"deckcheck: interrupted: {result.games} of {games} games finished\n")
    for path, writer in (
        (csv_path, output.write_csv),
        (parquet, output.write_parquet),
        (plot, output.write_plot),
    ):
        if path is not None:
            _write_or_fail(lambda p=path, w=writer: w(result, p), path)  # type: ignore[misc]
    if as_json:
        _print_json(result.model_dump(mode="json"))
    elif csv_path is None and parquet is None:
        output.render(_console(), result)


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535)] = 8000,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64)] = 1,
    db: DbOption = None,
) -> None:
    """Run the HTTP service (FastAPI under uvicorn); the OpenAPI schema is at /openapi.json,
    the browsable docs at /docs. Settings: see the README (DECKCHECK_API_KEYS, …)."""
    import uvicorn

    if db is not None:
        os.environ["DECKCHECK_DB"] = str(db)
    _open_pool(db).close()  # a broken pool is a clear error before the server starts
    uvicorn.run("deckcheck.service.asgi:app", host=host, port=port, workers=workers)


@formats_app.callback()
def formats_main(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """List the formats (shipped, and any in $DECKCHECK_FORMATS folders)."""
    if ctx.invoked_subcommand is not None:
        return
    from deckcheck.formats import FormatError, default_registry

    try:
        found = default_registry().all()
    except FormatError as exc:
        _fail(str(exc))
    if as_json:
        _print_json(
            [
                {"id": f.id, "game": f.game.value, "name": f.name, "assumptions": f.assumptions}
                for f in found
            ]
        )
        return
    from deckcheck import render

    render.format_list(_console(), found)


@formats_app.command("show")
def formats_show(
    format_id: Annotated[str, typer.Argument(metavar="ID", help="Format id or .toml file.")],
    as_json: JsonOption = False,
) -> None:
    """Print one format: every rule it checks, with its source."""
    from deckcheck.formats import FormatError, default_registry

    try:
        fmt = default_registry().get(format_id)
    except FormatError as exc:
        _fail(str(exc))
    if as_json:
        _print_json(fmt.model_dump(mode="json"))
        return
    from deckcheck import render

    render.format_detail(_console(), fmt)


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

    pool = _open_pool(db)
    with pool:
        try:
            result = pool.import_files(files)
        except CardFileError as exc:
            _fail(f"{exc}; nothing imported")
        except ImportRejected as exc:
            for line in exc.errors:
                sys.stderr.write(f"{line}\n")
            _fail(f"{len(exc.errors)} bad row(s); nothing imported")
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
        str | None, typer.Option("--game", "-g", help="chaos, rakuen, vision, iris")
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
    from deckcheck.models import CARD_TYPES, Game

    chosen = None
    if game is not None:
        chosen = next((g for g in Game if g.value == game.casefold()), None)
        if chosen is None:
            _fail(f"unknown game {game!r} (use chaos, rakuen, vision or iris)")
    if type is not None:
        games = [chosen] if chosen else list(Game)
        if not any(type in CARD_TYPES[g] for g in games):
            _fail(f"unknown card type {type!r}")
    pool = _open_pool(db)
    with pool:
        found = pool.search(
            chosen,
            query,
            type,
            title,
            limit=limit,
            offset=offset,
            max_level=max_level,
            max_cost=max_cost,
            keyword=keyword,
            user=user,
            package=package,
            link=link,
            max_node=max_node,
            min_graze=min_graze,
            **{"class": klass},
        )
    if as_json:
        _print_json([c.model_dump(mode="json") for c in found])
        return
    from deckcheck import render

    render.cards(_console(), found)
    if not found:
        sys.stderr.write("no cards found\n")


@pool_app.command("stats")
def pool_stats(as_json: JsonOption = False, db: DbOption = None) -> None:
    """How many cards the pool holds, per game."""
    pool = _open_pool(db)
    with pool:
        stats = pool.stats()
    if as_json:
        _print_json(stats)
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
            _fail(f"{path} exists; use --force to rebuild it (imported cards are lost)")
        try:
            path.unlink()
        except OSError as exc:
            _fail(f"cannot delete {path}: {exc}")
    pool = _open_pool(path)
    with pool:
        stats = pool.stats()
    print(f"created {path} with {stats['total']} cards")


EXIT_BUG = 70  # EX_SOFTWARE: deckcheck itself failed


def main() -> None:
    """Console entry point: never a traceback. Bad input exits 2 with a message; an error in
    deckcheck itself exits 70 with a one-line report (set DECKCHECK_DEBUG=1 for the trace)."""
    try:
        app()
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


# The deck-file commands register themselves on `app`.
from deckcheck import cli_files  # noqa: E402, F401
