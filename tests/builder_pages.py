"""Builder pages handed from one browser test to the next in a pytest worker (issue 35).

Under the full /usr/bin/chromium a new browser context for each test cost ~1.5 CPU-s an opening
on the 2-core VM: two new renderer processes (the context's first about:blank and the page's
site), each starting Blink and Playwright's injected script, plus the context's setup in
Chromium's browser and network processes; the same page navigated again cost a third of that.
Under chromium-headless-shell, which the tests launch now, the two cost about the same
(``benchmarks/page_open_bench.py``), so handing pages on saves little there. ``open_builder``
takes a page a finished test gave back (same browser and context options, any server), when
there is one, and first makes it as a new context would be: the old document gone, no listener
or route of the last test, no other page, no granted permission, online, the size asked for,
the mouse at the corner, and nothing the origin stored (cookies, localStorage, IndexedDB, cache
and service workers, this tab's sessionStorage) nor any cached answer. ``tests/test_builder_pages.py``
checks that reset. A test that fails never gives its page back: the next one starts afresh."""

from __future__ import annotations

import weakref
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

# the storage a browser keeps for an origin, all of it (DevTools protocol, Storage domain)
EVERYTHING = "all"


class Lease:
    """The test's context: every ``BrowserContext`` attribute, but ``close`` gives the page
    back for the next test instead of ending the context."""

    def __init__(self, context: BrowserContext, page: Page, idle: list[Lease]) -> None:
        self.context, self.page, self._idle = context, page, idle
        self.returned = False
        self._cdp: Any = None  # a DevTools session, opened at the first reset (not needed before)
        self._listeners = (_listeners_of(context), _listeners_of(page))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.context, name)

    def close(self) -> None:
        """Give the page back: what the test added to it goes now, the document and the
        stored data when the next test takes it (``reset``)."""
        if self.returned:
            return
        self.returned = True
        if self.page.is_closed():
            self.context.close()
            return
        for extra in self.context.pages:
            if extra is not self.page:
                extra.close()
        _drop_added(self.context, self._listeners[0])
        _drop_added(self.page, self._listeners[1])
        self.page.unroute_all(behavior="ignoreErrors")
        self.context.unroute_all(behavior="ignoreErrors")
        self.context.clear_permissions()
        self.context.set_offline(False)
        # the document ends now, not when the next test takes the page: an idle page of a
        # module whose server has gone would otherwise keep its timers and requests for the
        # rest of the worker's run (the browser lives that long)
        self.page.goto("about:blank")
        self._idle.append(self)

    def reset(self, origin: str, viewport: dict[str, int] | None) -> None:
        """As a new context: the last document ended first (its scripts could still store),
        then whatever the origin stored (this tab's sessionStorage cleared again from the
        origin's own document, below), and the HTTP cache: the next page loads its files from
        the server, as a first visit does."""
        self.returned = False
        if self.page.url != "about:blank":  # ended at close (what it had pending lands first)
            self.page.goto("about:blank")
        self._cdp = self._cdp or self.context.new_cdp_session(self.page)
        self._cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": EVERYTHING})
        # The clear above can return before the tab's sessionStorage is gone: a fresh-clone run
        # read the last test's item on the next page (2026-12-02). A document of the origin
        # (the JSON of /health: no script of its own) clears both storages in the renderer
        # that loads the next page, after whatever the last document sent.
        self.page.goto(origin + "/health")
        self.page.evaluate("() => { sessionStorage.clear(); localStorage.clear(); }")
        self._cdp.send("Network.clearBrowserCache")  # /health's answer too
        self.context.clear_cookies()  # any host's, not only the origin's
        self.page.mouse.move(0, 0)  # no hover left on what the next page draws there
        if viewport is not None:
            self.page.set_viewport_size(viewport)  # type: ignore[arg-type]


def _listeners_of(emitter: Any) -> dict[str, list[Any]]:
    """The listeners Playwright itself put on ``emitter`` (a page or context): kept on return."""
    impl = emitter._impl_obj
    return {name: list(impl.raw_listeners(name)) for name in impl.event_names()}


def _drop_added(emitter: Any, before: dict[str, list[Any]]) -> None:
    """Remove the listeners a test added (``page.on``), through Playwright's own
    ``remove_listener``, which also stops the events it no longer needs."""
    impl = emitter._impl_obj
    for name in list(impl.event_names()):
        for listener in impl.raw_listeners(name):
            if listener not in before.get(name, []):
                impl.remove_listener(name, listener)


_IDLE: weakref.WeakKeyDictionary[Browser, dict[str, list[Lease]]] = weakref.WeakKeyDictionary()


def take(browser: Browser, server_url: str, **context_args: Any) -> Lease:
    """A page for a test: one given back under the same options, reset, else a new context's."""
    # downloads are accepted unless a test says otherwise (Playwright's default): one page
    # serves tests that name it and tests that do not
    context_args = {"accept_downloads": True, **context_args}
    # the server is not part of the key: a page of another module's server (the browser lives
    # for the whole worker) is reset for this one's origin like any other
    key = repr(sorted(context_args.items()))
    idle = _IDLE.setdefault(browser, {}).setdefault(key, [])
    while idle:
        lease = idle.pop()
        if not lease.page.is_closed():
            lease.reset(server_url, context_args.get("viewport"))
            return lease
    context = browser.new_context(**context_args)
    return Lease(context, context.new_page(), idle)
