"""A builder page given back by one test starts the next as a new context would
(tests/builder_pages.py): whatever the last test stored, routed, listened to, opened or was
granted is gone, and the page loads afresh from the server."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from deckcheck.web import entry_script
from tests.test_web import open_builder, server_url, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

STORE_EVERYWHERE = """async () => {
  localStorage.setItem("left", "1");
  sessionStorage.setItem("left", "1");
  document.cookie = "left=1; max-age=3600";
  await new Promise((done, failed) => {
    const open = indexedDB.open("left-behind", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("s");
    open.onsuccess = () => { open.result.close(); done(); };
    open.onerror = failed;
  });
  await caches.open("left-behind");
}"""

WHAT_IS_STORED = """async () => ({
  local: localStorage.getItem("left"),
  session: sessionStorage.getItem("left"),
  cookie: document.cookie.includes("left="),
  databases: (await indexedDB.databases()).map((d) => d.name).filter((n) => n === "left-behind"),
  caches: await caches.keys(),
})"""


def test_a_page_given_back_starts_the_next_test_clean(browser: Any, server_url: str) -> None:
    context, page, violations = open_builder(browser, server_url, "desktop", lang="en")
    page.evaluate(STORE_EVERYWHERE)
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))
    page.route("**/cards*", lambda route: route.abort())
    context.grant_permissions(["clipboard-read"])
    extra = context.new_page()
    context.set_offline(True)
    assert violations == []
    context.close()

    again, page2, violations2 = open_builder(browser, server_url, "desktop", lang="en")
    assert page2 is page and extra.is_closed()  # the same page; the test's other one closed
    assert len(again.pages) == 1
    # loaded afresh: the page's own files came from the server again, not the cache
    assert (
        page2.evaluate(
            "performance.getEntriesByType('resource')"
            f".filter((e) => e.name.endsWith('{entry_script()}') && e.transferSize > 0).length"
        )
        == 1
    )
    assert page2.evaluate(WHAT_IS_STORED) == {
        "local": None,
        "session": None,
        "cookie": False,
        "databases": [],
        "caches": [],
    }
    # the old route and listener are gone: the first search answered, and nothing was counted
    expect(page2.locator("#results li").first).to_be_attached()
    assert seen == []
    state = page2.evaluate(
        "navigator.permissions.query({name: 'clipboard-read'}).then((p) => p.state)"
    )
    assert state == "prompt"
    assert page2.evaluate("navigator.onLine") is True
    assert violations2 == []
    again.close()
