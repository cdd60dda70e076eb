"""My decks (issue 32, item 2), in Chromium: decks kept in the browser's IndexedDB without an API
key survive a reload; each save is a version, and two versions show what changed in the lines
``deckcheck diff`` prints; all of them go out and come back as one JSON file."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.conftest import EXAMPLES
from tests.test_web import expect_legal, open_builder, server_url, settled, shot, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

DECKS = {
    "反魂蝶": EXAMPLES / "vision-standard-hangonchou.deck",
    "Rakuen sample": EXAMPLES / "rakuen-standard-legal.deck",
    "Chaos sample": EXAMPLES / "chaos-standard-legal.deck",
}


def load(page: Page, deck: Path, name: str) -> None:
    if not page.locator("#paste").is_visible():
        page.click("#paste-summary")
    page.fill("#paste", deck.read_text(encoding="utf-8"))
    page.click("#load")
    expect_legal(page)
    page.fill("#deck-name", name)


def test_three_decks_survive_a_reload_and_versions_diff(  # type: ignore[no-untyped-def]
    browser, server_url: str, tmp_path: Path
) -> None:
    context, page, violations = open_builder(browser, server_url, "desktop", lang="en")
    page.click("#library-box summary")
    expect(page.locator("#lib-empty")).to_be_visible()
    for name, deck in DECKS.items():
        load(page, deck, name)
        page.click("#lib-save-new")
        expect(page.locator("#lib-save-message")).to_have_text(
            f"Saved version 1 of {name} in this browser"
        )
    page.reload()
    settled(page)
    page.click("#library-box summary")
    rows = page.locator("#lib-list li")
    expect(rows).to_have_count(3)
    for name in DECKS:
        expect(rows.filter(has_text=name)).to_contain_text("LEGAL")
    expect(rows.filter(has_text="反魂蝶")).to_contain_text("vision-standard")
    shot(page, "32-library-list")

    # open the VISION deck, take one copy out, save it as its second version
    page.get_by_role("button", name="Open 反魂蝶").click()
    expect(page.locator("#format")).to_have_value("vision-standard")
    expect_legal(page)
    line = page.locator("#sections li[data-section='main']").first
    number = line.get_attribute("data-number")
    before = int(line.locator(".count").inner_text())
    line.focus()
    page.keyboard.press("-")
    expect(page.locator("#verdict")).to_have_class("illegal")
    page.click("#lib-save")
    expect(page.locator("#lib-save-message")).to_have_text(
        "Saved version 2 of 反魂蝶 in this browser"
    )
    page.get_by_role("button", name="Versions of 反魂蝶").click()
    expect(page.locator("#lib-a option")).to_have_count(2)
    page.click("#lib-diff")
    out = page.locator("#lib-diff-out")
    expect(out).to_contain_text("[main]")
    lines = out.inner_text().splitlines()
    assert lines[0] == "[main]"
    assert re.fullmatch(
        rf"  -1 .+ \({re.escape(str(number))}\)  {before} → {before - 1}", lines[1]
    ), lines
    assert lines[2] == "A: vision-standard LEGAL (main 50, side 10)"
    assert lines[3] == "B: vision-standard ILLEGAL — 1 error (main 49, side 10)"
    shot(page, "32-library-diff")

    # all of them as one file, and back into an empty browser
    with page.expect_download() as download:
        page.click("#lib-export")
    saved = tmp_path / "decks.json"
    download.value.save_as(saved)
    assert len(json.loads(saved.read_text(encoding="utf-8"))["decks"]) == 3
    assert violations == []
    context.close()

    context, page, violations = open_builder(browser, server_url, "desktop", lang="en")
    page.click("#library-box summary")
    expect(page.locator("#lib-empty")).to_be_visible()
    page.set_input_files("#lib-import", str(saved))
    expect(page.locator("#lib-import-message")).to_have_text("3 decks imported")
    expect(page.locator("#lib-list li")).to_have_count(3)
    bad = tmp_path / "other.json"
    bad.write_text('{"decks": 3}', encoding="utf-8")
    page.set_input_files("#lib-import", str(bad))
    expect(page.locator("#lib-import-message")).to_have_text(
        "other.json is not a deckcheck deck library file"
    )
    assert violations == []
    context.close()
