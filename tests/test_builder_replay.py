"""The builder's "Watch a game" panel (issue 22, item 10), in Chromium at both sizes: a
replayed game shown turn by turn (previous/next), whose final state is the one
``deckcheck goldfish DECK --replay N`` prints for the same deck, seed and game."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from deckcheck.cli import app
from tests.cli_run import CliRunner
from tests.conftest import EXAMPLES
from tests.test_web import SIZES, expect_legal, open_builder, server_url, shot, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

DECK = EXAMPLES / "rakuen-standard-legal.deck"
GAME, SEED, TURNS = 3, 7, 5


def cli_replay(*extra: str) -> list[str]:
    result = CliRunner().invoke(
        app,
        [
            "goldfish",
            str(DECK),
            "--replay",
            str(GAME),
            "--seed",
            str(SEED),
            "--turns",
            str(TURNS),
            *extra,
        ],
    )
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()


def load_deck(page: Page) -> None:
    """Paste the deck into a page ``open_builder`` opened (and so has let settle)."""
    if not page.locator("#paste").is_visible():
        page.locator("summary", has_text="Paste a deck list").click()
    page.fill("#paste", DECK.read_text(encoding="utf-8"))
    page.click("#load")
    expect_legal(page)


@pytest.mark.parametrize("size", SIZES)
def test_watch_a_game_turn_by_turn(browser, server_url: str, size: str) -> None:  # type: ignore[no-untyped-def]
    lines = cli_replay()
    context, page, violations = open_builder(browser, server_url, size)
    load_deck(page)
    expect(page.locator("#watch-nav")).to_be_hidden()
    page.fill("#watch-game", "0")
    page.click("#watch")
    expect(page.locator("#watch-message")).to_contain_text("Game number from 1")
    shot(page, f"22-watch-bad-number-{size}")
    page.fill("#watch-game", str(GAME))
    page.fill("#watch-seed", str(SEED))
    page.fill("#watch-turns", str(TURNS))
    page.click("#watch")
    expect(page.locator("#watch-turn")).to_have_text("Set-up")
    expect(page.locator("#watch-status")).to_have_text(f"Game {GAME} of seed {SEED}")
    steps = page.locator("#watch-steps li")
    # the CLI's set-up steps, the same words in the same order
    setup = lines[lines.index("Set-up") + 1 : lines.index("Turn 1")]
    expect(steps).to_have_text([s.removeprefix("  - ") for s in setup])
    assert page.locator("#watch-prev").is_disabled()
    assert page.locator("#watch-final").inner_text() == ""
    shot(page, f"22-watch-setup-{size}")
    for turn in range(1, TURNS + 1):
        page.click("#watch-next")
        expect(page.locator("#watch-turn")).to_have_text(f"Turn {turn}")
        start = lines.index(f"Turn {turn}") + 1
        end = lines.index(f"Turn {turn + 1}") if turn < TURNS else len(lines) - 1
        told = [line for line in lines[start:end] if line.startswith("  - ")]
        expect(steps).to_have_text([s.removeprefix("  - ") for s in told])
        state = next(line for line in lines[start:end] if line.startswith("  = "))
        expect(page.locator("#watch-state")).to_have_text(
            "End of the turn: " + state.removeprefix("  = ")
        )
        if turn == 2:
            shot(page, f"22-watch-turn-{size}")
    assert page.locator("#watch-next").is_disabled()
    final = page.locator("#watch-final")
    expect(final).to_have_text(lines[-1])  # "Final state: …", as the CLI prints it
    assert lines[-1].startswith("Final state: ")
    shot(page, f"22-watch-final-{size}")
    page.click("#watch-prev")
    expect(page.locator("#watch-turn")).to_have_text(f"Turn {TURNS - 1}")
    assert final.inner_text() == "" and page.locator("#watch-next").is_enabled()
    assert violations == []
    context.close()


def test_the_cli_replays_through_the_service_as_it_does_locally(server_url: str) -> None:
    """``deckcheck --server URL goldfish DECK --replay N`` asks ``POST /goldfish/replay``: the
    same game, the same words."""
    remote = CliRunner().invoke(
        app,
        ["--server", server_url, "goldfish", str(DECK), "--replay", str(GAME), "--seed",
         str(SEED), "--turns", str(TURNS)],
    )
    assert remote.exit_code == 0, remote.output
    assert remote.output.strip().splitlines() == cli_replay()
