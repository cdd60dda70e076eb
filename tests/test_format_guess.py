"""A list with no format: line and no --format, as copied from a blog or a chat: read in the only
format of its cards' game, and said so; a game with several formats, or cards of no one game,
is an error that says how to name one (before, always "no format: line and no --format")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deckcheck import decklist
from deckcheck.api import MissingFormat, validate_decks
from deckcheck.formats.registry import FormatRegistry
from deckcheck.resolve import CardIndex
from tests.cli_run import deckcheck
from tests.conftest import EXAMPLES


def without_format(name: str) -> str:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("format:")]
    assert len(lines) < len(text.splitlines())
    return "\n".join(lines) + "\n"


def test_a_vision_list_is_read_in_vision_standard_and_says_so(
    index: CardIndex, registry: FormatRegistry
) -> None:
    deck = decklist.parse(without_format("vision-standard-hangonchou.deck"), "blog.txt")
    (report,) = validate_decks([deck], registry, index)
    (named,) = validate_decks(
        [
            decklist.parse(
                (EXAMPLES / "vision-standard-hangonchou.deck").read_text(encoding="utf-8")
            )
        ],
        registry,
        index,
    )
    assert report.format == "vision-standard" and report.legal == named.legal is True
    assert "names no format" in report.assumptions[0] and "vision" in report.assumptions[0]
    assert report.assumptions[1:] == named.assumptions


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("chaos-standard-legal.deck", "its cards are chaos cards"),  # two chaos formats
        ("rakuen-standard-legal.deck", "its cards are rakuen cards"),
    ],
)
def test_a_game_with_several_formats_is_never_guessed(
    index: CardIndex, registry: FormatRegistry, name: str, said: str
) -> None:
    deck = decklist.parse(without_format(name), "blog.txt")
    with pytest.raises(MissingFormat, match=said):
        validate_decks([deck], registry, index)


def test_cards_of_two_games_or_none_name_every_format(
    index: CardIndex, registry: FormatRegistry
) -> None:
    for text in ("3 紅葉狩り\n4 見本キャラ 01\n", "3 NOPE\n"):
        with pytest.raises(
            MissingFormat, match=r"known formats: .*chaos-standard.*vision-standard"
        ):
            validate_decks([decklist.parse(text, "blog.txt")], registry, index)


def test_the_commands_read_it_too_and_say_so_on_stderr(tmp_path: Path) -> None:
    deck = tmp_path / "blog.txt"
    deck.write_text(without_format("vision-standard-hangonchou.deck"), encoding="utf-8")
    env = {**os.environ, "DECKCHECK_DB": str(tmp_path / "pool.sqlite3")}
    sweep = ["sweep", str(deck), "--vary", "name:紅葉狩り=0..1", "--games", "20", "--turns", "2"]
    for args in (["validate", str(deck)], ["odds", str(deck), "-w", "type:character>=1"], sweep):
        done = deckcheck(args, env=env)
        assert done.returncode == 0, (args, done.stderr)
        assert "vision-standard" in done.stdout and "names no format" in done.stderr, args


def test_the_service_reads_it_too_and_its_report_says_so(tmp_path: Path) -> None:
    """/validate and /resolve (the page's paste): a VISION list is read in vision-standard; a
    chaos one is still the 422 for body.format, now saying how to name one."""
    from starlette.testclient import TestClient

    from deckcheck.service.app import create_app
    from deckcheck.service.settings import Settings

    vision = without_format("vision-standard-hangonchou.deck")
    with TestClient(create_app(Settings(db=tmp_path / "pool.sqlite3"))) as http:
        report = http.post("/validate", json={"deck": vision}).json()
        assert report["format"] == "vision-standard" and report["legal"] is True
        assert "names no format" in report["assumptions"][0]
        assert http.post("/resolve", json={"deck": vision}).json()["format"] == "vision-standard"
        chaos = http.post("/validate", json={"deck": without_format("chaos-standard-legal.deck")})
        assert chaos.status_code == 422 and "chaos-standard" in chaos.json()["detail"]
        assert chaos.json()["errors"][0]["path"] == "body.format"
