"""Option types shared by several commands, so each reads and documents the same way."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from deckcheck.i18n import LANGUAGES, N_, _, activate


@dataclass(frozen=True)
class Globals:
    """The root command's options, kept on the click context for every command."""

    server: str | None = None


def _set_language(ctx: typer.Context, value: str | None) -> str | None:
    """``--lang`` given to the root command (``deckcheck.cli.main`` takes it from anywhere
    first): the language of this run, from the help texts on."""
    if value is None:
        return None
    if value not in LANGUAGES:
        raise typer.BadParameter(_("use one of {languages}", languages=", ".join(LANGUAGES)))
    activate(value)
    from deckcheck.cli.localize import translate_tree

    translate_tree(ctx.find_root().command)
    return value


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar="ja|en",
        is_eager=True,
        callback=_set_language,
        help=N_(
            "Language of messages and reports (default: $DECKCHECK_LANG, else the locale: "
            "LC_ALL, LC_MESSAGES, LANG); it may follow any command."
        ),
    ),
]
DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        help=N_("Card database (default: $DECKCHECK_DB, else the user data dir)."),
        dir_okay=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help=N_("Print JSON."))]
AsOfOption = Annotated[
    str | None,
    typer.Option(
        "--as-of",
        metavar="DATE",
        help=N_(
            "Use the format version in force on this day (YYYY-MM-DD; default: the deck's "
            "date: line, else today)."
        ),
    ),
]
FormatOption = Annotated[
    str | None, typer.Option("--format", "-f", help=N_("Format id or .toml file."))
]
ServerOption = Annotated[
    str | None,
    typer.Option(
        "--server",
        envvar="DECKCHECK_SERVER",
        metavar="URL",
        help=N_("Ask a deckcheck service (validate, odds, hand, goldfish)."),
    ),
]
DeckArgument = Annotated[Path, typer.Argument(metavar="DECK", help=N_("Deck file."))]
WantOption = Annotated[
    list[str],
    typer.Option(
        "--want",
        "-w",
        help=N_(
            "Condition 'SELECTOR OP K', e.g. 'type:TYPE>=1' or a card's name: 'NAME>=1' "
            "(repeat: all must hold)."
        ),
        show_default=False,
    ),
]
AsideOption = Annotated[
    str | None,
    typer.Option(
        "--aside",
        help=N_(
            "The card you choose to set aside before the deal, when the game asks for one "
            "(name or number)."
        ),
    ),
]
SeedOption = Annotated[int | None, typer.Option("--seed", help=N_("Random seed (reproducible)."))]
SummaryOption = Annotated[
    Path | None,
    typer.Option(
        "--summary",
        metavar="FILE.csv",
        help=N_(
            "Also write one table of all decks: file, player, deck name, format, verdict, "
            "errors, warnings."
        ),
    ),
]


# add and remove: N and REF in either order, or REF alone (cli/named.py ``count_and_ref``)
CountArgument = Annotated[
    str,
    typer.Argument(
        metavar="N",
        help=N_("How many copies: 3, ３, 3枚 or x3; it may follow REF, or be left out for one."),
    ),
]
RefArgument = Annotated[
    list[str] | None,
    typer.Argument(metavar="REF", help=N_("Card number or name (no quotes needed).")),
]
