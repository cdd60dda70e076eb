"""The command line in the user's language: deckcheck's help texts, and typer's own words.

Typer builds the command tree with the texts given at import time (marked ``N_``), so
``translate_tree`` translates them in place when the command runs, once the language is known
(from the texts as written, since the tree serves every run of the process).
Typer's bundled click writes its own words (``Usage:``, ``Show this message and exit.``, its
parse errors) as English literals, not through gettext: the command classes here write them
from the catalogue instead (``Command``, ``Group``, ``show_error``), and ``typer.rich_utils``'s
words (panel titles, ``[default: …]``) are its module constants, set from the catalogue before
help or an error is shown. In English every text is the one typer and click write.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

from rich.text import Text
from typer import _click
from typer._click.exceptions import (
    BadParameter,
    ClickException,
    MissingParameter,
    NoArgsIsHelpError,
    NoSuchOption,
    UsageError,
)
from typer.core import TyperCommand, TyperGroup

from deckcheck.i18n import DEFAULT, N_, _, current

# typer.rich_utils' constants (its words in help and error panels), as typer writes them
RICH_WORDS: dict[str, str] = {
    "DEPRECATED_STRING": N_("(deprecated) "),
    "DEFAULT_STRING": N_("[default: {}]"),
    "ENVVAR_STRING": N_("[env var: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
}
USAGE = N_("Usage: ")
HELP_OPTION = N_("Show this message and exit.")


def _table(rows: dict[str, str]) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The rows (a pattern on click's English message → the catalogue's text for it) as
    compiled patterns; ``.`` matches a line break too (a value may hold one)."""
    return tuple((re.compile(source, re.S), text) for source, text in rows.items())


# the parse errors of typer's bundled click, as click words them:
# a pattern on the English message and the catalogue's text for it.
_MESSAGES = _table(
    {
        r"^Got unexpected extra argument\(s\) \((?P<args>.*)\)$":
            N_("Got unexpected extra argument(s) ({args})"),
        r"^Missing command\.$": N_("Missing command."),
        r"^No such command (?P<name>.*?)\. Did you mean (?P<choices>.*)\?$":
            N_("No such command {name}. Did you mean {choices}?"),
        r"^No such command (?P<name>.*)\.$": N_("No such command {name}."),
        r"^Option (?P<name>.*) requires an argument\.$": N_("Option {name} requires an argument."),
        r"^Option (?P<name>.*) requires (?P<n>\d+) arguments\.$":
            N_("Option {name} requires {n} arguments."),
        r"^Option (?P<name>.*) does not take a value\.$":
            N_("Option {name} does not take a value."),
    }
)
# why a value is bad (typer checks values with pydantic and its path types)
_DETAILS = _table(
    {
        r"^Input should be greater than or equal to (?P<n>\S+)$":
            N_("Input should be greater than or equal to {n}"),
        r"^Input should be less than or equal to (?P<n>\S+)$":
            N_("Input should be less than or equal to {n}"),
        r"^Input should be greater than (?P<n>\S+)$": N_("Input should be greater than {n}"),
        r"^Input should be less than (?P<n>\S+)$": N_("Input should be less than {n}"),
        r"^Input should be a valid integer": N_("Input should be a valid integer"),
        r"^Input should be a valid number": N_("Input should be a valid number"),
        r"^Input should be a valid boolean": N_("Input should be a valid boolean"),
        r"^(?:File|Directory|Path) (?P<path>.*) does not exist\.$": N_("{path} does not exist."),
        r"^(?:File|Path) (?P<path>.*) is a directory\.$": N_("{path} is a folder."),
        r"^(?:Directory|Path) (?P<path>.*) is a file\.$": N_("{path} is a file."),
        r"^(?:File|Directory|Path) (?P<path>.*) is not readable\.$": N_("{path} is not readable."),
        r"^(?:File|Directory|Path) (?P<path>.*) is not writable\.$": N_("{path} is not writable."),
        r"^(?P<value>.*) is not one of (?P<choices>.*)\.$": N_("{value} is not one of {choices}."),
    }
)
_MISSING = {
    "argument": N_("Missing argument {name}."),
    "option": N_("Missing option {name}."),
}


def _reworded(text: str, table: tuple[tuple[re.Pattern[str], str], ...]) -> str:
    for pattern, message in table:
        found = pattern.match(text)
        if found is not None:
            return _(message, **found.groupdict())
    return text  # a message click may add later: shown as click words it


def error_text(exc: ClickException) -> str:
    """``exc``'s message in the current language."""
    if isinstance(exc, NoSuchOption):
        text = _("No such option: {name}", name=exc.option_name)
        if exc.possibilities:
            options = ", ".join(sorted(exc.possibilities))
            text += _(" (Possible options: {options})", options=options)
        return text
    if isinstance(exc, MissingParameter):
        hint = _hint(exc)
        what = exc.param_type or (exc.param.param_type_name if exc.param else "parameter")
        return _(_MISSING.get(what, N_("Missing parameter {name}.")), name=hint)
    if isinstance(exc, BadParameter):
        hint = _hint(exc)
        detail = _reworded(exc.message, _DETAILS)
        if not hint:
            return _("Invalid value: {reason}", reason=detail)
        return _("Invalid value for {name}: {reason}", name=hint, reason=detail)
    return _reworded(exc.message, _MESSAGES)


def _hint(exc: BadParameter) -> str:
    hint: Any = exc.param_hint
    if hint is None and exc.param is not None:
        hint = exc.param.get_error_hint()
    if isinstance(hint, list | tuple):
        return " / ".join(repr(h) for h in hint)
    return str(hint or "")


def use_rich_words() -> None:
    """Set typer.rich_utils' words from the catalogue (imported only to show help or an
    error, as typer does)."""
    from typer import rich_utils

    for name, text in RICH_WORDS.items():
        setattr(rich_utils, name, _(text))
    if not getattr(rich_utils._get_parameter_help, "folds", False):
        rich_utils._get_parameter_help = _folding(rich_utils._get_parameter_help)


def _folding(get_help: Callable[..., Any]) -> Callable[..., Any]:
    """typer's option help, folded at the column's edge rather than cut with "…": Japanese
    has no spaces for rich to wrap at, so a help text would lose its end."""

    def folded(*args: Any, **kwargs: Any) -> Any:
        found = get_help(*args, **kwargs)
        for item in getattr(found, "renderables", ()):
            if isinstance(item, Text):
                item.overflow = "fold"
        return found

    folded.folds = True  # type: ignore[attr-defined]
    return folded


def show_error(exc: ClickException) -> None:
    """A usage error as typer shows it (usage line, hint, error panel), in the language."""
    from typer import rich_utils

    use_rich_words()  # in English too: an earlier Japanese run in this process set them
    if current() == DEFAULT or isinstance(exc, NoArgsIsHelpError):
        rich_utils.rich_format_error(exc)
        return
    ctx = getattr(exc, "ctx", None)
    text = error_text(exc)
    rich_utils.rich_format_error(UsageError(text, ctx) if ctx is not None else ClickException(text))


def show_aborted() -> None:
    from typer import rich_utils

    use_rich_words()
    rich_utils.rich_abort_error()


# where ``translate_tree`` keeps an item's texts as written
_SOURCE = "_deckcheck_source"


def _commands(command: _click.Command) -> Iterator[_click.Command]:
    yield command
    for sub in getattr(command, "commands", {}).values():
        yield from _commands(sub)


def translate_tree(root: _click.Command) -> None:
    """Every help text of the command tree under ``root`` in the current language, in place,
    from the texts as written (kept on each command and option the first time): one tree
    serves every run of the process (``deckcheck.cli.command_tree``), in any language, English
    included."""
    for command in _commands(root):
        _translate(command, ("help", "short_help", "epilog"))
        for param in command.params:
            _translate(param, ("help",))


def _translate(item: object, attrs: tuple[str, ...]) -> None:
    source: dict[str, str | None] | None = vars(item).get(_SOURCE)
    if source is None:
        source = {attr: getattr(item, attr, None) for attr in attrs}
        setattr(item, _SOURCE, source)
    for attr, text in source.items():
        if text:
            setattr(item, attr, _(text))


class _Localized:
    """What typer's commands show in its own words: the usage line and ``--help``'s help."""

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_(USAGE))

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = _(HELP_OPTION)
        return option

    def format_help(self, ctx: Any, formatter: Any) -> None:
        use_rich_words()  # in English too: an earlier Japanese run in this process set them
        super().format_help(ctx, formatter)  # type: ignore[misc]


class Command(_Localized, TyperCommand):
    """A typer command that shows its usage line and help option in the language."""


class Group(_Localized, TyperGroup):
    """A typer group that shows its usage line and help option in the language."""


def exit_on_error(exc: ClickException) -> None:
    show_error(exc)
    sys.exit(exc.exit_code)
