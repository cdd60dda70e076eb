"""What every command prints around its answer: a "wrote PATH (what)" line for each file it
wrote, and the assumptions behind the answer, each once, after every report.

The "wrote" lines go to stderr, so a table or JSON on stdout stays clean for a pipe.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol, TypeVar

import typer

from deckcheck.i18n import N_, _

if TYPE_CHECKING:
    from rich.console import Console

T = TypeVar("T")

QuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help=N_("Print no table and no assumptions: only a line for each file written."),
    ),
]


def wrote(path: Path | str, what: str) -> None:
    """The one line that says a file was written, and what it holds."""
    sys.stderr.write(_("wrote {path} ({what})", path=path, what=what) + "\n")


def write_files(
    result: T, targets: Sequence[tuple[Path | None, Callable[[T, Path], None], str]]
) -> None:
    """Write ``result`` to each target given (path, writer, what it holds), saying so."""
    for path, writer, what in targets:
        if path is not None:
            writer(result, path)  # atomic; exit 2 for a target that is no regular file
            wrote(path, what)


def assumptions(console: Console, notes: Iterable[str]) -> None:
    """The facts from outside the rulebooks the answers rest on, each once, in first-seen
    order: a run over many decks prints them after all its reports."""
    from rich.markup import escape

    for note in dict.fromkeys(notes):
        shown = _("assumption: {note}", note=escape(note))
        console.print(f"  [dim]{shown}[/]")  # i18n: machine (markup)


class Answer(Protocol):
    """A command's result: JSON for ``--json``, and the assumptions it rests on."""

    @property
    def assumptions(self) -> Sequence[str]: ...

    def model_dump(self, *, mode: str) -> Any: ...


def show(result: Answer, as_json: bool, render: Callable[[Console], None] | None) -> None:
    """``result`` as JSON, or drawn by ``render`` and followed by its assumptions (``render``
    None: ``--quiet``, nothing on stdout)."""
    from deckcheck.cli.common import console, print_json

    if as_json:
        print_json(result.model_dump(mode="json"))
    elif render is not None:
        out = console()
        render(out)
        assumptions(out, result.assumptions)

