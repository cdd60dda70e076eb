"""``deckcheck goldfish DECK --replay N``: game N of the run, turn by turn."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from deckcheck.cli.backend import DeckFile, backend
from deckcheck.cli.common import as_of_day, console, print_json
from deckcheck.errors import UsageError
from deckcheck.i18n import _

if TYPE_CHECKING:
    from rich.console import Console

    from deckcheck.goldfish.replay import ReplayResult


def check(number: int, games: int, files: tuple[Path | None, ...], both_sides: bool) -> None:
    """--replay N names a game of the run (1 … --games) and prints one game: no files."""
    if number > games:
        raise UsageError(
            _(
                "--replay {n}: the run has {games} games (--games {games}); choose a game "
                "from 1 to {games}",
                n=number,
                games=games,
            )
        )
    if both_sides or any(files):
        raise UsageError(
            _("--replay prints one game; --both-sides, --csv, --parquet and --plot are for runs")
        )


def replay(
    ctx: typer.Context,
    deck_path: Path,
    format: str | None,
    policy_path: Path | None,
    numbers: tuple[int, int, int, bool],
    as_json: bool,
    as_of: str | None,
    db: Path | None,
) -> None:
    """Play and print game N of the run (game, seed, turns, on_play = ``numbers``)."""
    from deckcheck.goldfish.replay import ReplayRequest

    number, seed, turns, on_play = numbers
    req = ReplayRequest(game=number, seed=seed, turns=turns, on_play=on_play)
    answers = backend(ctx, db)
    result = answers.replay(DeckFile(deck_path, format, as_of_day(as_of)), policy_path, req)
    if as_json:
        print_json(result.model_dump(mode="json"))
    else:
        render(console(), result)


def render(out: Console, result: ReplayResult) -> None:
    side = _("on the play") if result.on_play else _("on the draw")
    out.print(
        _(
            "Game {n} of seed {seed} ({format}, {side}; the reference engine's game {n} of "
            "--engine reference)",
            n=result.number,
            seed=result.seed,
            format=result.format,
            side=side,
        ),
        markup=False,
        highlight=False,
    )
    for turn in result.log:
        title = _("Set-up") if turn.turn == 0 else _("Turn {n}", n=turn.turn)
        out.print(title, style="bold", markup=False, highlight=False)
        for step in turn.steps:
            out.print(f"  - {step.text}", markup=False, highlight=False)
        if turn.state:
            out.print(f"  = {turn.state}", markup=False, highlight=False)
    out.print(_("Final state: {state}", state=result.final), markup=False, highlight=False)
