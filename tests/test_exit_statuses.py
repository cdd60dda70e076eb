"""Every command's ``--help`` ends with its exit statuses (docs/commands.md: only the commands
that judge a deck exit 1 for an illegal one), in English and Japanese."""

from __future__ import annotations

import click
import pytest
import typer

from deckcheck.cli import app
from tests.cli_run import CliRunner


def _leaves(group: click.Command, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command a user runs, as its words (``pool import``), a group's own too."""
    found = [path] if path else []
    for name, command in getattr(group, "commands", {}).items():
        found += _leaves(command, (*path, name))
    return found


COMMANDS = sorted(_leaves(typer.main.get_command(app)))


def test_the_list_holds_the_commands_users_run() -> None:
    names = {" ".join(words) for words in COMMANDS}
    assert {"validate", "odds", "hand", "add", "convert", "pool import", "formats show"} <= names


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_command_says_its_exit_statuses(lang: str) -> None:
    word = {"en": "Exit status:", "ja": "終了ステータス："}[lang]
    missing = []
    for name in COMMANDS:
        result = CliRunner().invoke(app, ["--lang", lang, *name, "--help"])
        assert result.exit_code == 0, (name, result.output)
        if word not in result.output:
            missing.append(" ".join(name))
    assert missing == []
