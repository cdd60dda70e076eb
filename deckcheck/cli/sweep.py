"""``deckcheck sweep``: odds and goldfish milestones over variants of a deck, or over every
deck of a folder, in-process or on a Dask cluster."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import asking, console, format_for, open_pool
from deckcheck.cli.options import DbOption, FormatOption, JsonOption
from deckcheck.cli.outputs import QuietOption, show, write_files
from deckcheck.errors import UsageError
from deckcheck.i18n import N_, _

if TYPE_CHECKING:
    from deckcheck.models import DeckList
    from deckcheck.resolve import CardIndex
    from deckcheck.sweep import SweepRequest, SweepResult

Sides = Annotated[
    str, typer.Option("--side", help=N_("play, draw or both (variants on each side)."))
]


HELP = N_(
    "Sweep variants of a deck: validate each, then its odds and goldfish milestones.\n\n"
    "Exit status: 0 done, 2 bad deck, option or cluster."
)


def sweep(
    target: Annotated[
        Path, typer.Argument(metavar="DECK_OR_FOLDER", help=N_("A deck, or a folder of decks."))
    ],
    vary: Annotated[
        list[str],
        typer.Option("--vary", help=N_("name:REF=1..4 (or REF=1..4) or policy:KEY=a,b (repeat).")),
    ] = [],  # noqa: B006
    fill: Annotated[
        str | None,
        typer.Option(
            "--fill",
            help=N_(
                "The card that keeps the deck size, or blank: a card that counts for nothing"
                " (deckcheck's device, outside the rulebooks)."
            ),
        ),
    ] = None,
    side: Sides = "play",
    want: Annotated[
        list[str], typer.Option("--want", "-w", help=N_("Odds condition (repeat)."))
    ] = [],  # noqa: B006
    turns: Annotated[int, typer.Option("--turns", "-t", min=1, max=30)] = 6,
    games: Annotated[int, typer.Option("--games", "-n", min=0, max=1_000_000)] = 2000,
    seed: Annotated[int, typer.Option("--seed", min=0)] = 0,
    best: Annotated[
        str | None, typer.Option("--best", help=N_("milestone:NAME or odds:COND[@T]."))
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            envvar="DECKCHECK_DASK_SCHEDULER",
            help=N_("A Dask scheduler, tcp://HOST:PORT."),
        ),
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option("--cluster", help=N_("local:K: a local Dask cluster of K processes.")),
    ] = None,
    format: FormatOption = None,
    as_json: JsonOption = False,
    csv_path: Annotated[Path | None, typer.Option("--csv", dir_okay=False)] = None,
    parquet: Annotated[Path | None, typer.Option("--parquet", dir_okay=False)] = None,
    plot: Annotated[Path | None, typer.Option("--plot", dir_okay=False)] = None,
    quiet: QuietOption = False,
    db: DbOption = None,
) -> None:
    from deckcheck.sweep import SweepRequest

    sides = {"play": (True,), "draw": (False,), "both": (True, False)}.get(side)
    if sides is None:
        raise UsageError(_("--side {value}: play, draw or both", value=repr(side)))
    req = SweepRequest(
        vary=vary, fill=fill, sides=sides, want=want, turns=turns, games=games, seed=seed, best=best
    )
    result, names = _run(target, format, req, scheduler, cluster, db)
    _write(result, names, as_json, (csv_path, parquet, plot), best, quiet)


def _write(
    result: SweepResult,
    names: dict[str, str],
    as_json: bool,
    files: tuple[Path | None, Path | None, Path | None],
    best: str | None,
    quiet: bool,
) -> None:
    from deckcheck.sweep import output
    from deckcheck.sweep import plot as drawing

    csv_path, parquet, plot = files
    write_files(
        result,
        [
            (csv_path, output.write_csv, _("one row a variant, CSV")),
            (parquet, output.write_parquet, _("one row a variant, Parquet")),
            (plot, lambda r, p: drawing.plot(r, p, best, names), _("plot of the variants")),
        ],
    )
    show(result, as_json, None if quiet else lambda out: output.render(out, result, names))


def _decks(target: Path, format: str | None) -> list[tuple[str | None, DeckList]]:
    from deckcheck import decks as deckfiles

    paths = deckfiles.expand([target]) if target.is_dir() else [target]
    return [(p.stem, deckfiles.read(p)) for p in paths]


def _run(
    target: Path,
    format: str | None,
    req: SweepRequest,
    scheduler: str | None,
    cluster: str | None,
    db: Path | None,
) -> tuple[SweepResult, dict[str, str]]:
    from deckcheck.sweep import sweep as run_sweep

    decks = _decks(target, format)
    if not decks:
        raise UsageError(_("{path}: no deck files", path=target))
    refs = {e.ref for _, d in decks for e in d.entries} | set(_refs(req))
    with open_pool(db) as pool:
        index = pool.index_for(refs)
    fmt = format_for(format or decks[0][1].format, target, decks[0][1].date, (decks[0][1], index))
    index = asking(index, db, refs, fmt.game, req.want)
    with _runner(scheduler, cluster) as runner, _progress(req) as progress:
        result = run_sweep(decks, fmt, index, req, runner, progress)
    return result, _names(req, fmt.game, index)


def _names(req: SweepRequest, game: str, index: CardIndex) -> dict[str, str]:
    """The name of each card ``--vary name:`` gives (by number or name), for labels."""
    from deckcheck.sweep import parse_vary

    out = {}
    for axis in map(parse_vary, req.vary):
        found = index.resolve(game, axis.key).card if axis.varies == "name" else None
        if found is not None:
            out[axis.key] = found.name
    return out


def _refs(req: SweepRequest) -> list[str]:
    """The cards ``--vary name:`` and ``--fill`` name, so the index holds them too."""
    from deckcheck.sweep import parse_vary

    named = [axis.key for axis in map(parse_vary, req.vary) if axis.varies == "name"]
    return [*named, *([req.fill] if req.fill else [])]


@contextmanager
def _runner(scheduler: str | None, cluster: str | None) -> Iterator[Callable[..., list]]:  # type: ignore[type-arg]
    if scheduler is None and cluster is None:  # in-process: Dask is never imported
        from deckcheck.sweep.run import in_process

        yield in_process
        return
    from deckcheck.sweep.cluster import dask_runner

    with dask_runner(scheduler if cluster is None else None, cluster) as run:
        yield run


@contextmanager
def _progress(req: SweepRequest) -> Iterator[Callable[[int, int], None] | None]:
    if not (sys.stderr.isatty() and req.games >= 2000) or os.environ.get("CI"):
        yield None
        return
    from rich.progress import Progress, TaskID

    with Progress(console=console(stderr=True), transient=True) as bar:
        tasks: dict[int, TaskID] = {}

        def advance(variant: int, games: int) -> None:
            if variant not in tasks:
                label = _("variant {n}", n=variant + 1)
                tasks[variant] = bar.add_task(label, total=req.games)
            bar.advance(tasks[variant], games)

        yield advance
