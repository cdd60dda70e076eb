"""``deckcheck validate``: verdicts for deck files, as text or for CI."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.backend import backend
from deckcheck.cli.common import as_of_day, console, print_json
from deckcheck.cli.options import AsOfOption, DbOption, SummaryOption
from deckcheck.cli.outputs import assumptions
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, UsageError
from deckcheck.i18n import N_, _

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.models import DeckList, Report

OUTPUTS = ("text", "json", "junit", "github", "sarif")


HELP = N_(
    "Check deck lists against their format; report every violation.\n\n"
    "Exit status: 0 all legal, 1 some deck illegal, 2 usage or input error."
)


SamplesOption = Annotated[
    bool,
    typer.Option(
        "--samples",
        help=N_(
            "Let names resolve to the shipped sample cards in games whose pool holds real "
            "cards (as a deck's 'samples: yes' line does)."
        ),
    ),
]
FollowOption = Annotated[
    bool,
    typer.Option(
        "--follow-symlinks",
        help=N_("Also read symlinks in folders that lead out of the folder."),
    ),
]


def _output_of(output: str, as_json: bool) -> str:
    """The output form asked for; an unknown one is a usage error naming the choices."""
    output = "json" if as_json else output.casefold()
    if output not in OUTPUTS:
        raise UsageError(
            _(
                "unknown --output {value} (use {choices})",
                value=repr(output),
                choices=", ".join(OUTPUTS),
            )
        )
    return output


def validate(
    ctx: typer.Context,
    paths: Annotated[
        list[Path],
        typer.Argument(
            help=N_("Deck files or folders (*.deck, *.txt, *.json)."), show_default=False
        ),
    ],
    format: Annotated[
        str | None,
        typer.Option(
            "--format", "-f", help=N_("Format id or .toml file; overrides the deck's format: line.")
        ),
    ] = None,
    output: Annotated[
        str, typer.Option("--output", "-o", help=N_("text, json, junit, github or sarif."))
    ] = "text",
    as_json: Annotated[bool, typer.Option("--json", help=N_("Same as --output json."))] = False,
    changed_since: Annotated[
        str | None,
        typer.Option(
            "--changed-since",
            metavar="REV",
            help=N_("Only deck files changed since this git revision."),
        ),
    ] = None,
    follow_symlinks: FollowOption = False,
    summary: SummaryOption = None,
    samples: SamplesOption = False,
    as_of: AsOfOption = None,
    db: DbOption = None,
) -> None:
    from deckcheck import decks as deckfiles
    from deckcheck.api import paused_gc

    day = as_of_day(as_of)
    output = _output_of(output, as_json)
    files = _deck_files(deckfiles.expand(paths, follow_symlinks), changed_since, output)
    with paused_gc():
        parsed = [deckfiles.read(p) for p in files]
    if samples:
        for deck in parsed:
            deck.samples = True
    answers = backend(ctx, db)
    reports = answers.validate(files, parsed, format, day)
    for deck, rep in zip(parsed, reports, strict=True):
        if format is None and deck.format is None and rep.assumptions:  # its format guessed
            print(
                _("{path}: {note}", path=rep.path, note=rep.assumptions[0]),
                file=sys.stderr,
            )
    many = len(reports) > 1 or any(p.is_dir() for p in paths)  # a folder: one line sums it up
    _print_reports(reports, output, lambda ref: answers.format_of(ref, format), many)
    if summary is not None:
        _write_summary(summary, parsed, reports)
    raise typer.Exit(EXIT_OK if all(r.legal for r in reports) else EXIT_ILLEGAL)


def _write_summary(path: Path, decks: list[DeckList], reports: list[Report]) -> None:
    from deckcheck.cli.outputs import wrote
    from deckcheck.roster import write_summary

    write_summary(path, decks, reports)
    wrote(path, _("one row a deck"))


def _deck_files(files: list[Path], changed_since: str | None, output: str) -> list[Path]:
    if changed_since is None:
        if not files:
            raise UsageError(_("no deck files found (looked for *.deck, *.txt, *.json)"))
        return files
    from deckcheck.ci import GitError
    from deckcheck.ci import changed_since as changed

    try:
        recent = changed(changed_since)
    except GitError as exc:  # git's own message does not say which option it is about
        raise GitError(_("--changed-since {rev}: {error}", rev=changed_since, error=exc)) from exc
    files = [f for f in files if f.resolve() in recent]
    if not files:
        sys.stderr.write(
            _("deckcheck: no deck files changed since {rev}", rev=changed_since) + "\n"
        )
        if output == "text":
            raise typer.Exit(EXIT_OK)
    return files


def _print_reports(
    reports: list[Report], output: str, format_of: Callable[[str], Format], many: bool
) -> None:
    """The reports in the output form. With ``many`` decks, the run's summary line too: a
    notice among GitHub's annotations, after the text, and on stderr beside a machine
    document (JSON, JUnit, SARIF), which stays as it is on stdout."""
    from deckcheck.roster import summary_line

    if output in ("json", "junit", "github", "sarif"):
        from deckcheck import ci

        if output == "json":
            dumped = [r.model_dump(mode="json") for r in reports]
            print_json(dumped[0] if len(dumped) == 1 else dumped)
        elif output == "sarif":
            print_json(ci.sarif(reports))
        elif output == "junit":
            sys.stdout.write(ci.junit(reports))
        else:
            sys.stdout.write(ci.github(reports))
            if many:
                sys.stdout.write(ci.notice(summary_line(reports)))
        if many and output != "github":
            sys.stderr.write(summary_line(reports) + "\n")
        return
    from deckcheck import render

    out = console()
    for i, rep in enumerate(reports):
        if i:
            out.print()
        render.report(out, rep, format_of(rep.format))
    if many:
        render.summary(out, reports)
    formats = {rep.format: format_of(rep.format) for rep in reports}
    assumptions(out, (note for fmt in formats.values() for note in checked(fmt)))


def checked(fmt: Format) -> list[str]:
    """The assumptions validation rests on: the format's checks from outside the rulebooks
    (its play parameters are odds' and goldfish's; ``--json`` lists every one)."""
    from deckcheck.wording import cited

    rules, _params = fmt.assumed_parts
    return [f"{rule}: {cited(fmt.game, source)}" for rule, source in rules]
