"""``deckcheck odds`` and ``deckcheck hand``: chances by turn, and sample opening hands."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.backend import DeckFile, backend
from deckcheck.cli.common import as_of_day
from deckcheck.cli.options import (
    AsideOption,
    AsOfOption,
    DbOption,
    DeckArgument,
    FormatOption,
    JsonOption,
    SeedOption,
    WantOption,
)
from deckcheck.cli.outputs import QuietOption, show, write_files
from deckcheck.errors import UsageError
from deckcheck.i18n import N_, _

if TYPE_CHECKING:
    from rich.console import Console

    from deckcheck.odds.api import OddsRequest

SimulateOption = Annotated[
    int | None,
    typer.Option(
        "--simulate",
        min=1,
        max=10_000_000,
        help=N_("Monte Carlo with N games instead of exact counting."),
    ),
]
TableOption = Annotated[
    str | None,
    typer.Option("--table", help=N_("name:REF (or REF): the answer with 1-4 copies of that card.")),
]
CsvOption = Annotated[
    Path | None, typer.Option("--csv", help=N_("Write the rows as CSV."), dir_okay=False)
]
PlotOption = Annotated[
    Path | None,
    typer.Option("--plot", help=N_("Write a PNG of probability by turn."), dir_okay=False),
]


ODDS_HELP = N_(
    "Exact chance that the conditions hold at each turn, with the game's mulligan and "
    "draws.\n\n"
    "Exit status: 0 answered, 2 bad condition, deck or option."
)


def odds(
    ctx: typer.Context,
    deck_path: DeckArgument,
    want: WantOption,
    format: FormatOption = None,
    turns: Annotated[int, typer.Option("--turns", "-t", min=0, max=30)] = 5,
    on_play: Annotated[
        bool, typer.Option("--on-play/--on-draw", help=N_("First or second player."))
    ] = True,
    no_mulligan: Annotated[
        bool, typer.Option("--no-mulligan", help=N_("Never take a voluntary mulligan."))
    ] = False,
    optional_draws: Annotated[
        bool,
        typer.Option(
            "--optional-draws",
            help=N_(
                "Also count the draws the game lets a player choose to take (the format's "
                "draw timeline names them; an error if it has none)."
            ),
        ),
    ] = False,
    aside: AsideOption = None,
    simulate: SimulateOption = None,
    seed: SeedOption = None,
    table: TableOption = None,
    as_json: JsonOption = False,
    csv_path: CsvOption = None,
    plot: PlotOption = None,
    quiet: QuietOption = False,
    as_of: AsOfOption = None,
    db: DbOption = None,
) -> None:
    from deckcheck.odds import output

    req = _request(
        want=want,
        turns=turns,
        on_play=on_play,
        mulligan=not no_mulligan,
        optional_draws=optional_draws,
        aside=aside,
        simulate=simulate,
        seed=seed,
        table=table,
    )
    result = backend(ctx, db).odds(DeckFile(deck_path, format, as_of_day(as_of)), req)
    write_files(
        result,
        [
            (csv_path, output.write_csv, _("probability by turn, CSV")),
            (plot, output.write_plot, _("plot of the probability by turn")),
        ],
    )
    show(result, as_json, None if quiet else lambda out: output.render(out, result))


def _request(**fields: object) -> OddsRequest:
    from pydantic import ValidationError

    from deckcheck.odds.api import OddsRequest

    try:
        return OddsRequest.model_validate(fields)
    except ValidationError as exc:  # options typer cannot check, e.g. an empty --want
        where = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise UsageError(where) from exc


HAND_HELP = N_(
    "Deal sample opening hands by the game's procedure.\n\n"
    "Exit status: 0 dealt, 2 bad deck, condition or option."
)


def hand(
    ctx: typer.Context,
    deck_path: DeckArgument,
    format: FormatOption = None,
    count: Annotated[int, typer.Option("--count", "-n", min=1, max=1000)] = 1,
    seed: SeedOption = None,
    want: Annotated[
        list[str] | None,
        typer.Option(
            "--want",
            "-w",
            help=N_("Keep only hands that meet these; otherwise take the game's mulligan."),
        ),
    ] = None,
    aside: AsideOption = None,
    as_json: JsonOption = False,
    as_of: AsOfOption = None,
    db: DbOption = None,
) -> None:
    from deckcheck.odds.hands import HandsRequest

    deck = DeckFile(deck_path, format, as_of_day(as_of))
    req = HandsRequest(count=count, seed=seed, want=want or [], aside=aside)
    result = backend(ctx, db).hand(deck, req)
    def render(out: Console) -> None:
        from deckcheck.odds.output import render_hands

        render_hands(out, result)

    show(result, as_json, render)
