"""The builder's screenshots in the README (issue 32): each panel, at both sizes, with a deck in
use (the shipped VISION tournament list, its verdict, statistics, a sample hand, the odds, a
playtest, my decks, a card's details). Written to ``docs/screens/`` by every run, so the
pictures the README shows are the page as it is now. The same page, in English, is where
axe-core's accessibility check runs in English (test_builder_axe.py: Japanese): building it
once for both, not twice, saves a page's worth of work a size (issue 35)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import ROOT
from tests.test_builder_axe import AXE, serious, use_every_panel
from tests.test_web import SIZES, open_builder, server_url, shot, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

SCREENS = ROOT / "docs" / "screens"
# the page's panels (builder.html), as the README lists them
PANELS = (
    "search-panel",
    "deck-panel",
    "verdict-panel",
    "card-panel",
    "stats-panel",
    "play-panel",
    "playtest-panel",
    "compare-panel",
    "suggest-panel",
    "watch-panel",
)


@pytest.mark.parametrize("size", SIZES)
def test_each_panel_is_pictured_and_accessible(browser, server_url: str, size: str) -> None:  # type: ignore[no-untyped-def]
    SCREENS.mkdir(exist_ok=True)
    axe = AXE.exists()
    context, page, violations = open_builder(browser, server_url, size, lang="en")
    if axe:
        assert serious(page) == []  # the first sight: an empty deck
    use_every_panel(page, size)
    if axe:
        assert serious(page) == []  # every panel in use
    shot(page, f"32-axe-en-{size}")
    page.locator("#results li").first.focus()  # a card's details
    expect(page.locator("#card-title")).not_to_be_empty()
    if size == "phone":
        page.keyboard.press("Escape")  # the search sheet closed: the panels beneath
    for panel in PANELS:
        if panel == "search-panel" and size == "phone":
            page.click("#open-search")
        shown = page.locator(f"#{panel}")
        shown.scroll_into_view_if_needed()
        path = SCREENS / f"{panel}-{size}.png"
        shown.screenshot(path=str(path))
        assert path.stat().st_size > 1000, f"{panel} at {size} pictured nothing"
        if panel == "search-panel" and size == "phone":
            page.keyboard.press("Escape")
    assert violations == []
    context.close()
    if not axe:  # pictured, but not checked: say so
        pytest.skip("no node_modules/axe-core for the accessibility check: run make (npm ci)")


def test_the_readme_shows_every_picture() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for panel in PANELS:
        for size in SIZES:
            assert f"docs/screens/{panel}-{size}.png" in readme, (panel, size)
