"""``deckcheck pool template``: a commented header a community fills in and imports."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck import plugins
from deckcheck.cli import app
from tests.cli_run import CliRunner


@pytest.mark.parametrize("game", ["chaos", "rakuen", "iris", "vision"])
def test_template_explains_each_column_and_imports_once_filled(game: str, tmp_path: Path) -> None:
    out = tmp_path / f"{game}.csv"
    result = CliRunner().invoke(app, ["pool", "template", game, "--output", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    header = lines[-1].split(",")
    comments = [line for line in lines if line.startswith("#")]
    assert header[:4] == ["game", "number", "name", "type"]
    assert len(comments) == len(header) + 1  # a title line, then one line a column
    for column in header:
        assert any(line.startswith(f"# {column}: ") for line in comments), column
    card_type = next(iter(plugins.get(game).cards.card_types))
    row = {"game": game, "number": "COMMUNITY-1", "name": "コミュニティ", "type": card_type}
    with out.open("a", encoding="utf-8") as f:
        f.write(",".join(row.get(c, "") for c in header) + "\n")
    db = str(tmp_path / "pool.sqlite3")
    done = CliRunner().invoke(app, ["pool", "import", str(out), "--db", db])
    assert done.exit_code == 0 and "1 new" in done.output, done.output


def test_template_of_an_unknown_game_is_an_error() -> None:
    result = CliRunner().invoke(app, ["pool", "template", "mtg"])
    assert result.exit_code == 2 and "known:" in result.output
