"""``deckcheck goldfish``: solitaire games by the game's turn rules."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.backend import DeckFile, Progress, backend
from deckcheck.cli.common import as_of_day, console, print_json
from deckcheck.cli.options import AsOfOption, DbOption, DeckArgument, FormatOption, JsonOption
from deckcheck.cli.outputs import QuietOption, assumptions, write_files
from deckcheck.errors import UsageError
from deckcheck.i18n import N_, _

if TYPE_CHECKING:
    from deckcheck.goldfish.run import GoldfishResult


class EngineChoice(StrEnum):
    auto = "auto"  # i18n: machine
    reference = "reference"  # i18n: machine


ReplayOption = Annotated[
    int | None,
    typer.Option(
        "--replay",
        min=1,
        metavar="N",
        help=N_(
            "Print game N of the run (1 … --games) turn by turn instead of statistics: hand, "
            "mulligan, draws, resources, plays and why, attacks, final state. It is game N of "
            "the same command with --engine reference (same seed, turns and side); the batch "
            "engine draws other shuffles."
        ),
    ),
]
EngineOption = Annotated[
    EngineChoice,
    typer.Option(
        "--engine",
        help=N_(
            "auto: the compiled batch engine when ready (fast); reference: game by game, "
            "each game the one --replay prints."
        ),
    ),
]


HELP = N_(
    "Play solitaire games by the game's turn rules; statistics per turn and milestones.\n\n"
    "Exit status: 0 done (also when Ctrl-C stopped it early: the finished games are "
    "reported), 2 bad deck, policy or option."
)


def goldfish(
    ctx: typer.Context,
    deck_path: DeckArgument,
    format: FormatOption = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=1_000_000)] = 1000,
    turns: Annotated[int, typer.Option("--turns", "-t", min=1, max=30)] = 10,
    seed: Annotated[int, typer.Option("--seed", min=0)] = 0,
    policy_path: Annotated[
        Path | None,
        typer.Option("--policy", dir_okay=False, help=N_("Policy file (TOML or YAML).")),
    ] = None,
    on_play: Annotated[bool, typer.Option("--on-play/--on-draw")] = True,
    both_sides: Annotated[
        bool,
        typer.Option(
            "--both-sides", help=N_("Also play the other side: both tables, both in the plot.")
        ),
    ] = False,
    workers: Annotated[int, typer.Option("--workers", "-j", min=1, max=64)] = 1,
    replay: ReplayOption = None,
    engine: EngineOption = EngineChoice.auto,
    as_json: JsonOption = False,
    csv_path: Annotated[Path | None, typer.Option("--csv", dir_okay=False)] = None,
    parquet: Annotated[Path | None, typer.Option("--parquet", dir_okay=False)] = None,
    plot: Annotated[Path | None, typer.Option("--plot", dir_okay=False)] = None,
    quiet: QuietOption = False,
    as_of: AsOfOption = None,
    db: DbOption = None,
) -> None:
    from deckcheck.goldfish.run import GoldfishRequest

    if replay is not None:
        from deckcheck.cli import replay as one

        one.check(replay, games, (csv_path, parquet, plot), both_sides)
        numbers = (replay, seed, turns, on_play)
        one.replay(ctx, deck_path, format, policy_path, numbers, as_json, as_of, db)
        return
    if both_sides and (csv_path or parquet):  # one side's rows a file: say so before playing
        raise UsageError(_("--both-sides writes tables, JSON and the plot; for --csv or "
                           "--parquet, run each side on its own (--on-play, --on-draw)"))
    req = GoldfishRequest(
        games=games, turns=turns, seed=seed, on_play=on_play, workers=workers, engine=engine.value
    )
    deck = DeckFile(deck_path, format, as_of_day(as_of))
    answers = backend(ctx, db)
    with _progress(games if answers.reports_progress else 0) as progress:
        result = answers.goldfish(deck, policy_path, req, progress)
    other = None
    if both_sides and not result.interrupted:
        req = req.model_copy(update={"on_play": not on_play})
        with _progress(games if answers.reports_progress else 0) as progress:
            other = answers.goldfish(deck, policy_path, req, progress)
    _output(result, other, as_json, (csv_path, parquet, plot), quiet)


@contextmanager
def _progress(games: int) -> Iterator[Progress | None]:
    """A progress bar on a terminal, for runs long enough to want one."""
    if not (sys.stderr.isatty() and games >= 2000):
        yield None
        return
    from rich.progress import Progress as Bar

    with Bar(console=console(stderr=True), transient=True) as bar:
        task = bar.add_task(_("goldfish"), total=games)
        yield lambda n: bar.advance(task, n)


def _output(
    result: GoldfishResult,
    other: GoldfishResult | None,
    as_json: bool,
    files: tuple[Path | None, Path | None, Path | None],
    quiet: bool,
) -> None:
    from deckcheck.goldfish import output

    if result.interrupted:
        sys.stderr.write(
            _(
                "deckcheck: interrupted: {done} of {games} games finished",
                done=result.games,
                games=result.requested,
            )
            + "\n"
        )
    csv_path, parquet, plot = files
    write_files(
        result,
        [
            (csv_path, output.write_csv, _("per-turn statistics, CSV")),
            (parquet, output.write_parquet, _("per-turn statistics, Parquet")),
            (plot, lambda r, p: output.write_plot(r, p, other), _("plot of the milestones")),
        ],
    )
    shown = [result] if other is None else [result, other]
    if as_json:
        dumped = [r.model_dump(mode="json") for r in shown]
        print_json(dumped[0] if other is None else dumped)
    elif not quiet:
        out = console()
        for n, one in enumerate(shown):
            if n:
                out.print()
            output.render(out, one)
        assumptions(out, result.assumptions)
