"""Option types shared by several commands, so each reads and documents the same way."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer


@dataclass(frozen=True)
class Globals:
    """The root command's options, kept on the click context for every command."""

    server: str | None = None


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar="ja|en",
        help="Language of messages and reports (default: $DECKCHECK_LANG, else the locale: "
        "LC_ALL, LC_MESSAGES, LANG); it may follow any command.",
    ),
]
DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        help="Card database (default: $DECKCHECK_DB, else the user data dir).",
        dir_okay=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]
AsOfOption = Annotated[
    str | None,
    typer.Option(
        "--as-of",
        metavar="DATE",
        help="Use the format version in force on this day (YYYY-MM-DD; default: the deck's "
        "date: line, else today).",
    ),
]
FormatOption = Annotated[
    str | None, typer.Option("--format", "-f", help="Format id or .toml file.")
]
ServerOption = Annotated[
    str | None,
    typer.Option(
        "--server",
        envvar="DECKCHECK_SERVER",
        metavar="URL",
        help="Ask a deckcheck service (validate, odds, hand, goldfish).",
    ),
]
DeckArgument = Annotated[Path, typer.Argument(metavar="DECK", help="Deck file.")]
WantOption = Annotated[
    list[str],
    typer.Option(
        "--want",
        "-w",
        help="Condition 'SELECTOR OP K', e.g. 'type:TYPE>=1' (repeat: all must hold).",
        show_default=False,
    ),
]
AsideOption = Annotated[
    str | None,
    typer.Option(
        "--aside",
        help="The card you choose to set aside before the deal, when the game asks for one "
        "(name or number).",
    ),
]
SeedOption = Annotated[int | None, typer.Option("--seed", help="Random seed (reproducible).")]
