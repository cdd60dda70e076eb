"""Accessibility (issue 32, item 6): axe-core (the npm package of package.json, installed by
``make``'s node_modules/.stamp) run in the builder with every panel in use (a deck, its verdict,
statistics, a sample hand, the odds, a playtest, my decks and their versions, every fold open;
on a phone, the search sheet too), in both languages and at both sizes: no serious or critical
violation. In English the page is the one the README pictures, checked where it is pictured
(test_builder_screens.py): built once for both, not twice (issue 35)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import EXAMPLES, ROOT
from tests.test_web import SIZES, expect_legal, open_builder, server_url, shot, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
DECK = EXAMPLES / "vision-standard-hangonchou.deck"


def serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands: rule, impact and
    the first few elements. axe-core is the test's script, not the page's: evaluated through
    the DevTools protocol, once a page, it runs under the service's real CSP (a <script> the
    page did not ship would be refused), so the page's own refusals are still reported."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4)
            .map((n) => n.target.join(" ")).join(", ")}`)"""
    )
    return list(found)


def use_every_panel(page: Page, size: str) -> None:
    page.click("#paste-summary")
    page.fill("#paste", DECK.read_text(encoding="utf-8"))
    page.click("#load")
    expect_legal(page)
    page.fill("#deck-name", "反魂蝶")
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.click("#lib-save-new")
    expect(page.locator("#lib-list li")).to_have_count(1)
    page.locator("#lib-list li button").last.click()  # its versions
    page.click("#lib-diff")
    page.click("#deal")
    expect(page.locator("#hand li")).to_have_count(7)
    page.fill("#want", "type:character>=1")
    page.click("#plot")
    expect(page.locator("#chart polyline").first).to_be_visible()
    page.fill("#pt-seed", "3")
    page.click("#pt-deal")
    page.click("#pt-pass")
    page.locator('.pt-zone[data-zone="hand"] .pt-card').first.click()  # a card chosen
    if size == "phone":
        page.click("#open-search")
    page.fill("#q", "霊夢")
    # this search's answer, not the list before it (whose first card the README's card panel
    # pictured when the screenshots came before the answer)
    expect(page.locator("#results li .name").first).to_contain_text("霊夢")


@pytest.mark.skipif(not AXE.exists(), reason="no node_modules/axe-core: run make (npm ci)")
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["ja"])  # English: test_builder_screens.py, on its pictures' page
def test_no_serious_accessibility_violation(  # type: ignore[no-untyped-def]
    browser, server_url: str, lang: str, size: str
) -> None:
    context, page, violations = open_builder(browser, server_url, size, lang)
    assert serious(page) == []  # the first sight: an empty deck
    use_every_panel(page, size)
    assert serious(page) == []
    shot(page, f"32-axe-{lang}-{size}")
    assert violations == []
    context.close()


def test_the_makefile_installs_axe_from_the_lock_file() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "node_modules/.stamp: package.json package-lock.json" in makefile
    assert "npm ci" in makefile
    assert Path(ROOT / "package-lock.json").exists()
