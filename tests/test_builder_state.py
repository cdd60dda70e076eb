"""State that survives (issue 32, item 5), in Chromium: switching the language after plotting
the odds keeps the plot (drawn again in the new language), its conditions and turns."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.conftest import EXAMPLES
from tests.test_web import expect_legal, open_builder, server_url, settled, shot, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)


def test_the_odds_plot_survives_a_language_switch(browser, server_url: str) -> None:  # type: ignore[no-untyped-def]
    context, page, violations = open_builder(browser, server_url, "desktop", lang="en")
    page.click("#paste-summary")
    page.fill("#paste", (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8"))
    page.click("#load")
    expect_legal(page)
    page.fill("#want", "type:paradox>=1")
    page.fill("#turns", "4")
    page.click("#plot")
    line = page.locator('#chart polyline[data-series="play = draw"]')
    expect(line).to_have_count(1)
    points = line.get_attribute("points")
    note = page.locator("#chart-note").inner_text()
    page.click('#language button[data-lang="ja"]')
    page.wait_for_url("**lang=ja**")
    settled(page)  # the new page's format is in: its odds are drawn again by then
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    again = page.locator("#chart polyline")
    expect(again).to_have_count(1)
    assert again.get_attribute("points") == points  # the same curve
    assert again.get_attribute("data-series") != "play = draw"  # its label in Japanese
    assert page.locator("#chart-note").inner_text() not in ("", note)
    assert page.locator("#want").input_value() == "type:paradox>=1"
    assert page.locator("#turns").input_value() == "4"
    shot(page, "32-odds-after-language-switch")
    # a reload keeps it too
    page.reload()
    expect(page.locator("#chart polyline")).to_have_count(1)
    assert violations == []
    context.close()
