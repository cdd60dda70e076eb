"""The builder on a phone (issue 32, item 4), in Chromium at 390×844: the deck comes first, a bar
with the section counts and the verdict stays on screen while cards are added from the search
(opened as a sheet), and every button is at least 44×44 px."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.conftest import EXAMPLES
from tests.test_web import artifact, expect_legal, server_url, settled, shot, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

PHONE = {"width": 390, "height": 844}
TARGET = 44  # px, WCAG 2.5.5 (target size, enhanced)


def on_screen(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def small_buttons(page: Page, at_least: int) -> list[str]:
    """Every visible button smaller than the target, as id or text and size; there are at
    least ``at_least`` visible buttons (the measure measured something)."""
    shown = page.evaluate(
        """() => [...document.querySelectorAll("button")]
          .filter((b) => b.offsetParent !== null)
          .map((b) => [b.id || b.getAttribute("aria-label") || b.textContent.trim(),
                       b.getBoundingClientRect().width, b.getBoundingClientRect().height])"""
    )
    assert len(shown) >= at_least, shown
    return [f"{n} {w:.1f}x{h:.1f}" for n, w, h in shown if min(w, h) < TARGET - 0.01]


def test_phone_keeps_counts_and_verdict_on_screen(browser, server_url: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(server_url + "/?lang=en")
    settled(page)
    page.select_option("#format", "vision-standard")
    # the deck comes before the search
    deck = page.locator("#deck-panel").bounding_box()
    search = page.locator("#search-panel").bounding_box()
    assert deck is not None and search is not None and deck["y"] < search["y"]
    page.tap("#open-search")
    expect(page.locator("#close-search")).to_be_visible()
    page.fill("#q", "霊夢")
    add = page.locator("#results li button[aria-label^='Add']").first
    add.tap()
    expect(page.locator("#summary-counts")).to_contain_text("1/50")
    expect(page.locator("#summary-verdict")).to_have_class("illegal")
    expect(page.locator("#summary-verdict")).to_contain_text("ILLEGAL")
    assert on_screen(page, "#summary-counts") and on_screen(page, "#summary-verdict")
    add.tap()
    expect(page.locator("#summary-counts")).to_contain_text("2/50")
    assert on_screen(page, "#summary-counts")
    assert small_buttons(page, 20) == []  # the sheet's buttons and the rest
    seen = artifact("32-phone-search-sheet")
    if seen is not None:
        page.screenshot(path=seen)  # the screen, as seen
    page.tap("#close-search")
    expect(page.locator("#close-search")).to_be_hidden()

    # a whole deck, every panel open: every button measured
    page.click("#paste-summary")
    page.fill("#paste", (EXAMPLES / "vision-standard-hangonchou.deck").read_text(encoding="utf-8"))
    page.tap("#load")
    expect_legal(page)
    expect(page.locator("#summary-verdict")).to_have_class("legal")
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.tap("#pt-deal")
    page.tap("#pt-pass")
    page.tap("#deal")
    expect(page.locator("#pt-turn")).to_have_text("Turn 1")
    assert small_buttons(page, 100) == []
    shot(page, "32-phone-deck")
    context.close()
