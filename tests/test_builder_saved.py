"""The builder's saved-deck panel follows the decks' owners (issue 37, item 6): without a key
it lists public decks only, with one its own too (another key's marked so), and it saves with
the visibility chosen. In Chromium, on a real server."""

from __future__ import annotations

import uuid

import httpx
from playwright.sync_api import expect

from tests.conftest import EXAMPLES
from tests.test_web import open_builder, server_url, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

KEY = "web-key"  # test_web's app accepts it
RAKUEN = (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8")


def _save(server_url: str, name: str, visibility: str) -> str:
    body = {"name": name, "format": "rakuen-standard", "deck": RAKUEN, "visibility": visibility}
    made = httpx.post(
        f"{server_url}/decks", json=body, headers={"Authorization": f"Bearer {KEY}"}, timeout=60
    )
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def test_the_saved_panel_lists_what_the_key_may_see(  # type: ignore[no-untyped-def]
    browser, server_url: str
) -> None:
    tag = uuid.uuid4().hex[:6]
    _save(server_url, f"private {tag}", "private")
    _save(server_url, f"public {tag}", "public")
    context, page, violations = open_builder(browser, server_url, "desktop", "en")
    page.select_option("#format", "rakuen-standard")
    page.click("summary:text('Saved decks (service)')")
    page.click("#list-saved")  # no key: public decks only, none of them this page's
    expect(page.locator("#saved li", has_text=f"public {tag}")).to_have_count(1)
    expect(page.locator("#saved li", has_text=f"public {tag}")).to_contain_text("another key's")
    expect(page.locator("#saved li", has_text=f"private {tag}")).to_have_count(0)

    page.fill("#api-key", KEY)
    page.click("#list-saved")  # with the key: its own decks too, not marked
    mine = page.locator("#saved li", has_text=f"private {tag}")
    expect(mine).to_have_count(1)
    expect(mine).not_to_contain_text("another key's")

    page.fill("#deck-name", f"linked {tag}")
    page.select_option("#visibility", "link")
    page.click("#save")
    expect(page.locator("text=/Saved as [0-9a-f]{32}/")).to_be_visible()
    listed = httpx.get(
        f"{server_url}/decks",
        params={"format": "rakuen-standard"},
        headers={"Authorization": f"Bearer {KEY}"},
        timeout=60,
    ).json()
    linked = [d for d in listed if d["name"] == f"linked {tag}"]
    assert len(linked) == 1 and linked[0]["visibility"] == "link" and linked[0]["yours"]
    assert violations == []
    context.close()
