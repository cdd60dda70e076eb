"""The web deck builder: templates through httpx, and the page in a real headless Chromium
(Debian's /usr/bin/chromium, driven by Playwright; no browser download). Screenshots of each
state go to tests/artifacts/ when DECKCHECK_SHOTS is set (``shot``)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import uvicorn
from playwright.sync_api import ConsoleMessage, Page, expect
from starlette.testclient import TestClient

from deckcheck.service.app import create_app
from deckcheck.service.routers import web
from deckcheck.service.settings import Settings
from deckcheck.web import BUNDLE, ENTRY, STATIC, banner, entry_script
from tests import builder_pages
from tests.conftest import HANG, ROOT

# as the pages' default timeout (ms): only against a hang; a loaded 2-core machine is slow, and
# odds and goldfish run in worker processes at nice 10
WAIT_MS = HANG * 1000
expect.set_options(timeout=WAIT_MS)

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


@pytest.fixture(scope="module")
def web_app(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    db = tmp_path_factory.mktemp("web") / "pool.sqlite3"
    return create_app(Settings(db=db, api_keys=("web-key",)))


def reached(read: Callable[[str], str]) -> set[str]:
    """The modules the entry module imports, and theirs (``read``: a module's text by name)."""
    seen: set[str] = set()
    todo = [ENTRY]
    while todo:
        name = todo.pop()
        seen.add(name)
        todo += [
            m
            for m in re.findall(r'^import [^;]*? from "\./([\w-]+\.js)";', read(name), re.M)
            if m not in seen
        ]
    return seen


def test_page_is_server_rendered_with_labels(web_app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(web_app) as http:
        page = http.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        html = page.text
        for fmt in (
            "chaos-standard",
            "chaos-neo-standard",
            "rakuen-standard",
            "vision-standard",
            "iris-standard",
        ):
            assert f'<option value="{fmt}"' in html
        ids = set(re.findall(r'<(?:input|select|textarea)[^>]*\bid="([^"]+)"', html))
        labelled = set(re.findall(r'<label for="([^"]+)"', html))
        assert ids and ids <= labelled  # every control has a label
        assert 'name="viewport"' in html
        # one script: the bundle of the modules (make builds it before the tests), else the
        # entry module; every module the entry reaches is served as JavaScript (a module
        # script of another type is refused, nosniff or not), and is in the bundle
        entry = entry_script()
        assert re.findall(r"<script\b[^>]*\bsrc=[^>]*>", html) == [
            f'<script type="module" src="{entry}">'
        ]

        def served(name: str) -> str:
            answer = http.get(f"/static/{name}")
            assert answer.status_code == 200, name
            assert "javascript" in answer.headers["content-type"], name
            return answer.text

        seen = reached(served)
        assert len(seen) > 10
        bundle = http.get(entry)
        assert bundle.status_code == 200 and "javascript" in bundle.headers["content-type"]
        if entry != f"/static/{ENTRY}":
            assert bundle.text.startswith(banner() + "\n")
            bundled = re.findall(r"^// deckcheck/web/static/([\w-]+\.js)$", bundle.text, re.M)
            assert set(bundled) == seen
        assert http.get("/static/builder.css").status_code == 200
        assert "/" not in http.get("/openapi.json").json()["paths"]  # the page is not API


@pytest.fixture(scope="module")
def server_url(web_app) -> Iterator[str]:  # type: ignore[no-untyped-def]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(web_app, host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + HANG  # a loaded machine may take seconds to start it
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=HANG)




LEGAL_RAKUEN = {
    **{f"SAMPLE-R-{i:03}": 4 for i in range(1, 10)},
    "SAMPLE-R-T01": 3,
    "SAMPLE-R-T02": 3,
    "SAMPLE-R-P01": 4,
    "SAMPLE-R-P02": 4,
    "SAMPLE-R-G01": 2,
    "SAMPLE-R-G02": 2,
    "SAMPLE-R-G03": 2,
    "SAMPLE-R-G04": 2,
    "SAMPLE-R-G05": 1,
    "SAMPLE-R-G06": 1,
}


def artifact(name: str) -> str | None:
    """Where the picture ``name`` of a state goes (tests/artifacts/, ignored by git), or None:
    pictures for a person to look at are taken only when DECKCHECK_SHOTS is set (not "0"). No
    test reads them, and taken at every step they were an eighth of the browser tests' time
    (42 s of 358 s, 0.3 s each: issue 35). The README's pictures (docs/screens/) are
    test_builder_screens.py's, taken by every run."""
    if os.environ.get("DECKCHECK_SHOTS", "0") == "0":
        return None
    ARTIFACTS.mkdir(exist_ok=True)
    return str(ARTIFACTS / f"{name}.png")


def shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    """The whole page, as ``artifact`` says."""
    path = artifact(name)
    if path is not None:
        page.screenshot(path=path, full_page=True)


# The two sizes the builder is held to (issue 22): a laptop and a phone.
def expect_legal(page: Page) -> None:
    """The deck now shown is legal: its own check has answered. The page greys the verdict
    (class "checking") from a change until that change's check answers, so waiting for the
    class waits for this deck, never for the LEGAL of the deck before (issue 38)."""
    expect(page.locator("#verdict")).to_have_class("legal")  # in any language


SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 360, "height": 740}}


def _page_asset(url: str) -> bool:
    """The page's own files (the page, scripts, styles, icon): a failure to load one is a bug.
    A failed API call is not: the page shows the service's message beside the control."""
    path = urlsplit(url).path
    return path in ("/", "/favicon.ico") or path.startswith("/static/")


def _watch(page: Page) -> list[str]:
    """Everything the page's console reports as an error (Content Security Policy refusals
    among them) and its uncaught errors; also a page file (favicon included) that fails to
    load. The page must work under the service's real CSP, which the browser tests keep on."""
    found: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        where = str((message.location or {}).get("url", ""))
        if message.text.startswith("Failed to load resource") and not _page_asset(where):
            return
        found.append(f"{message.text} ({where})" if where else message.text)

    page.on("console", console)
    page.on("pageerror", lambda e: found.append(str(e)))
    page.on(
        "response",
        lambda r: found.append(f"{r.status} {r.url}")
        if r.status >= 400 and _page_asset(r.url)
        else None,
    )
    return found


def open_builder(
    browser: Any, server_url: str, size: str, lang: str | None = None, **context_args: Any
) -> tuple[Any, Page, list[str]]:
    """A browser context at ``size`` (``SIZES``) on the builder page, loaded (in ``lang``,
    else the browser's): the context, the page, and what ``_watch`` sees on it. The context is
    the page a finished test gave back, reset as a new one would be (tests/builder_pages.py);
    its ``close`` gives it back in turn."""
    context = builder_pages.take(browser, server_url, viewport=SIZES[size], **context_args)
    page = context.page
    violations = _watch(page)
    page.set_default_timeout(WAIT_MS)
    page.goto(server_url + ("/" if lang is None else f"/?lang={lang}"))
    settled(page)
    return context, page, violations


def settled(page: Page) -> None:
    """The page has started: its first format and its game's filters are in and its first
    search has answered (the pager says so; the page settled in its language first, since a
    page reloading itself in another one starts nothing). Not "networkidle": that waits 0.5 s
    of quiet after the last request, a second of every page opened (issue 35)."""
    expect(page.locator("#page-info")).not_to_be_empty()


def test_build_check_sample_plot_and_reload(browser, server_url: str) -> None:  # type: ignore[no-untyped-def]
    context, page, violations = open_builder(browser, server_url, "desktop")
    page.select_option("#format", "rakuen-standard")
    page.fill("#q", "SAMPLE-R")  # search by number prefix, as you type
    page.wait_for_selector('#results button[aria-label="Add SAMPLE-R-G06"]')
    for number, count in LEGAL_RAKUEN.items():
        add = page.locator(f'#results button[aria-label="Add {number}"]')
        for _ in range(count):
            add.click()
    expect_legal(page)
    assert page.locator('.total[data-section="main"]').inner_text() == "50/50"
    assert page.locator('.total[data-section="gate"]').inner_text() == "10/10"
    shot(page, "1-legal-rakuen")

    page.locator('#results button[aria-label="Add SAMPLE-R-P03"]').click()  # a ninth paradox
    page.wait_for_selector("#errors code.rule:text('rakuen/paradox-count')")
    assert page.locator("#verdict").inner_text().startswith("ILLEGAL")
    assert page.locator("#sections li.offending").count() >= 3  # the paradox lines light up
    shot(page, "2-ninth-paradox")

    page.click("#deal")
    expect(page.locator("#hand li")).to_have_count(5)
    assert "gates laid out: " in page.locator("#hand-note").inner_text()  # the spec's label
    shot(page, "3-sample-hand")

    page.fill("#want", "type:paradox>=1")
    page.click("#plot")
    # the first player draws in this format: play and draw are one curve, labelled as one
    page.wait_for_selector('#chart polyline[data-series="play = draw"]')
    assert page.locator("#chart polyline").count() == 1
    shot(page, "4-odds")
    # with conditions written, a sample hand says whether it meets them (as hand --want does)
    page.fill("#want", "type:paradox>=6")  # more than a hand of 5 holds: never met
    page.click("#deal")
    expect(page.locator("#hand-note")).to_contain_text("✗ misses the conditions")
    page.fill("#want", "type:paradox<=5")  # always met
    page.click("#deal")
    expect(page.locator("#hand-note")).to_contain_text("✓ meets the conditions")

    page.reload()
    expect(page.locator("#verdict")).to_have_text(re.compile("^ILLEGAL"))
    assert page.locator('.total[data-section="main"]').inner_text() == "51/50"
    assert page.locator("#format").input_value() == "rakuen-standard"
    shot(page, "5-after-reload")

    # the keyboard alone: focus a deck line and press "-" to take the ninth paradox out
    line = page.locator('#sections li[data-number="SAMPLE-R-P03"]')
    line.focus()
    page.keyboard.press("-")
    expect_legal(page)
    assert violations == []
    context.close()


def test_phone_width_and_failures_keep_the_deck(browser, server_url: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    violations = _watch(page)
    page.set_default_timeout(WAIT_MS)
    page.goto(server_url + "/")
    page.select_option("#format", "iris-standard")
    page.fill("#q", "見本の騎士")
    page.locator('#results button[aria-label="Add SAMPLE-I-U01"]').click()
    expect(page.locator("#verdict")).to_have_text(re.compile("^ILLEGAL"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width  # nothing wider than a phone
    shot(page, "6-phone")
    # a request that fails shows a readable message and keeps the deck
    page.route("**/odds", lambda route: route.abort())
    page.fill("#want", "type:unit>=1")
    page.click("#plot")
    # beside the button that asked (issue 22, item 6), not at the top of the page
    expect(page.locator("#plot-message")).to_contain_text("cannot be reached")
    assert page.locator("#message").is_hidden()
    assert page.locator('#sections li[data-number="SAMPLE-I-U01"]').count() == 1
    shot(page, "7-failure-message")
    assert violations == []
    context.close()


def _open_paste(page: Page) -> None:
    """Open the paste panel once the page has settled: the page may reload itself in the
    browser's language first (i18n.js settleLanguage), and a click on the old page's
    summary was lost with it (the fill then waited for a textarea that never showed)."""
    settled(page)
    summary = page.locator("summary", has_text="Paste a deck list")
    if not page.locator("#paste").is_visible():
        summary.click()
    expect(page.locator("#paste")).to_be_visible()


@pytest.mark.parametrize(
    "fmt",
    ["chaos-standard", "chaos-neo-standard", "rakuen-standard", "vision-standard", "iris-standard"],
)
def test_every_format_loads_checks_and_exports(browser, server_url: str, fmt: str) -> None:  # type: ignore[no-untyped-def]
    import json

    example = Path(__file__).resolve().parent.parent / "examples" / f"{fmt}-legal.deck"
    context, page, violations = open_builder(browser, server_url, "phone", accept_downloads=True)
    _open_paste(page)
    page.fill("#paste", example.read_text(encoding="utf-8"))
    page.click("#load")
    expect_legal(page)
    assert page.locator("#format").input_value() == fmt
    with page.expect_download() as done:
        page.click("#export-json")
    exported = json.loads(Path(done.value.path()).read_text(encoding="utf-8"))
    assert exported["format"] == fmt and sum(e["count"] for e in exported["main"]) == 50
    with page.expect_download() as done:
        page.click("#export-csv")
    assert Path(done.value.path()).read_text(encoding="utf-8").startswith(f"# format: {fmt}")
    page.click("#deal")
    # opening hand: 7 in VISION (a fan source, the format's opening_hand), 5 elsewhere
    expect(page.locator("#hand li")).to_have_count(7 if fmt == "vision-standard" else 5)
    shot(page, f"8-{fmt}")
    assert violations == []
    context.close()


def test_the_csv_export_escapes_formula_cells_and_reads_back(browser, server_url: str) -> None:  # type: ignore[no-untyped-def]
    """Issue 24, item 14: the builder's CSV export wrote =HYPERLINK(…), +cmd|… and @SUM cells
    as they were; they get the OWASP single quote, and the page reads its own CSV back."""
    import csv
    import io

    hostile = ['=HYPERLINK("http://example.invalid/","x")', "+cmd|' /C calc'!A0", "@SUM(1+1)"]
    example = Path(__file__).resolve().parent.parent / "examples" / "rakuen-standard-legal.deck"
    text = example.read_text(encoding="utf-8") + "".join(f"1 {ref}\n" for ref in hostile)
    context, page, violations = open_builder(browser, server_url, "desktop", accept_downloads=True)

    def load_and_export(deck: str) -> str:
        page.click("#clear")
        expect(page.locator("#sections li")).to_have_count(0)
        if not page.locator("#paste").is_visible():
            _open_paste(page)
        page.fill("#paste", deck)
        page.click("#load")
        for ref in hostile:  # shown as written, not with the quote the CSV gave it
            expect(page.locator("#sections li .name").get_by_text(ref, exact=True)).to_have_count(1)
        with page.expect_download() as done:
            page.click("#export-csv")
        return Path(done.value.path()).read_text(encoding="utf-8")

    first = load_and_export(text)
    rows = [r for r in csv.reader(io.StringIO(first)) if r and not r[0].startswith("#")]
    cells = [c for r in rows for c in r]
    assert not [c for c in cells if c.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert {"'" + ref for ref in hostile} <= {r[3] for r in rows}
    assert load_and_export(first) == first  # our own CSV back in: the same deck, escaped once
    assert violations == []
    context.close()


def test_security_headers_and_local_docs(web_app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(web_app) as http:
        for path in ("/", "/static/builder.js", "/docs", "/health"):
            headers = http.get(path).headers
            csp = headers["content-security-policy"]
            assert "script-src 'self';" in csp and "frame-ancestors 'none'" in csp
            assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"
        page = http.get("/docs").text
        assert "cdn" not in page.lower() and "<script>" not in page
        assert http.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
        schema = http.get("/openapi.json").json()
        assert schema["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
        assert schema["paths"]["/decks/{deck_id}"]["put"]["security"] == [{"HTTPBearer": []}]


def test_the_page_and_the_docs_have_an_icon(web_app) -> None:  # type: ignore[no-untyped-def]
    """A browser asks for the page's icon, or /favicon.ico where a page names none (the API
    docs): a 404 there is a console error on every page."""
    with TestClient(web_app) as http:
        icon = re.search(r'<link rel="icon" href="([^"]+)"', http.get("/").text)
        assert icon is not None
        answer = http.get(icon.group(1))
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
        assert http.get("/favicon.ico").content == answer.content


def test_docs_can_be_switched_off(tmp_path: Path) -> None:
    app = create_app(Settings(db=tmp_path / "p.sqlite3", docs=False))
    with TestClient(app) as http:
        assert http.get("/docs").status_code == 404


ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"


@pytest.mark.skipif(not ESBUILD.exists(), reason="no node_modules/.bin/esbuild: run make (npm ci)")
def test_make_builds_a_bundle_the_page_serves_only_while_it_is_current(tmp_path: Path) -> None:
    """The Makefile's rule, into a copy of the page's scripts: its bundle is served; once a
    script changes (or with no bundle) the page loads the modules themselves, never a bundle of
    other sources."""
    static = tmp_path / "static"
    static.mkdir()
    for path in STATIC.glob("*.js"):
        (static / path.name).write_bytes(path.read_bytes())
    assert entry_script(static) == f"/static/{ENTRY}"  # no bundle yet
    target = static / BUNDLE
    made = subprocess.run(
        ["make", "--no-print-directory", "-o", "node_modules/.stamp", "-o", ".venv/.installed",
         f"BUNDLE={target}", str(target)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert entry_script(static) == f"/static/{BUNDLE.as_posix()}"
    assert target.read_text(encoding="utf-8").count("\n// deckcheck/web/static/") > 10
    edited = static / "dom.js"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n// edited\n", encoding="utf-8")
    assert entry_script(static) == f"/static/{ENTRY}"


@pytest.mark.parametrize("entry", ["served", "modules"])
def test_builder_works_under_the_csp(  # type: ignore[no-untyped-def]
    browser, server_url: str, entry: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page as served (its bundle after make) and as its modules (no current bundle)."""
    script = entry_script() if entry == "served" else f"/static/{ENTRY}"
    monkeypatch.setattr(web, "entry_script", lambda: script)
    context = builder_pages.take(browser, server_url, viewport=SIZES["desktop"])
    page = context.page
    page.set_default_timeout(WAIT_MS)
    violations = _watch(page)
    scripts: list[str] = []
    page.on(
        "request",
        lambda r: scripts.append(urlsplit(r.url).path) if r.resource_type == "script" else None,
    )
    response = page.goto(server_url + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.select_option("#format", "rakuen-standard")
    page.fill("#q", "SAMPLE-R")
    # a locator, not an element handle: the results re-render while the search settles, and a
    # locator finds the button again where a handle would be detached
    page.locator('#results button[aria-label="Add SAMPLE-R-001"]').click()
    page.wait_for_selector('.total[data-section="main"]:text("1/50")')
    page.wait_for_selector("#verdict:text-matches('^ILLEGAL')")  # no eval: the CSP is on
    assert violations == []
    if script == f"/static/{ENTRY}":  # each module a request of its own
        modules = reached(lambda name: (STATIC / name).read_text(encoding="utf-8"))
        assert sorted(scripts) == sorted(f"/static/{name}" for name in modules)
    else:
        assert scripts == [script]
    context.close()


def _real_cards() -> list[tuple[str, str]]:
    """(number, what a player types) for real VISION cards across the pool: every 150th card,
    by name when the name is all a player knows, and by number."""
    import csv

    path = Path(__file__).resolve().parent.parent / "card_pool" / "vision" / "cards.csv"
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    picked = rows[::150]
    return [(r["number"], r["name"] if i % 2 else r["number"]) for i, r in enumerate(picked)]


def test_vision_search_finds_cards_paged_and_follows_the_game(browser, server_url: str) -> None:  # type: ignore[no-untyped-def]
    context, page, violations = open_builder(browser, server_url, "desktop")
    page.select_option("#format", "vision-standard")
    page.wait_for_selector('label[for="filter-user"]')
    labels = page.locator("#game-filters label").all_text_contents()  # "More filters" too
    assert "User (術者)" in labels and "Class (種族)" in labels and "Keyword" in labels
    assert "Set" in labels and any(t.startswith("Node") for t in labels)
    assert not any("Title" in t or "Level" in t for t in labels)  # not a VISION filter
    # every sampled card is found by its number or its name; how fast (the goal is 200 ms a
    # search) is benchmarks/web_bench.py's figure, not a limit here (issue 20, item 6)
    for number, typed in _real_cards():
        page.fill("#q", "")
        page.fill("#q", typed)
        page.wait_for_selector(f'#results li[data-number="{number}"]')
    # printings of one name are told apart by their facts
    page.fill("#q", "博麗 霊夢")
    promo = page.locator('#results li[data-number="PR.008"] .meta')
    assert "デッキ1枚制限" in promo.inner_text() and "node 5" in promo.inner_text()
    assert "set NO1, ST4" in promo.inner_text()
    shot(page, "9-vision-printings")
    # filters of the game, and pages
    page.fill("#q", "")
    page.click("#more-filters-summary")  # 種族 is not a common filter: it is folded away
    page.fill("#filter-class", "人間")
    page.fill("#filter-max_node", "2")
    expect(page.locator("#page-info")).to_have_text(re.compile("^1–30"))
    first = page.locator("#results li").first.get_attribute("data-number")
    page.click("#next")
    expect(page.locator("#page-info")).to_have_text(re.compile("^31–"))
    # the page's numbers change before its list is drawn again: wait for the list
    expect(page.locator("#results li").first).not_to_have_attribute("data-number", first or "")
    assert all("node" in t for t in page.locator("#results li .meta").all_inner_texts())
    page.click("#prev")
    expect(page.locator("#page-info")).to_have_text(re.compile("^1–30"))
    page.select_option("#format", "chaos-standard")  # another game: its own filters
    page.wait_for_selector('label[for="filter-title"]')
    assert page.locator("#filter-user").count() == 0
    assert violations == []
    context.close()


def test_games_lists_each_games_filters_and_the_page_names_no_game(web_app) -> None:  # type: ignore[no-untyped-def]
    from deckcheck import plugins

    with TestClient(web_app) as http:
        listed = {g["id"]: g for g in http.get("/games").json()}
        assert set(listed) == set(plugins.ids())
        params = {f["param"] for f in listed["vision"]["filters"]}
        assert {"type", "package", "max_node", "max_cost", "user", "class", "keyword"} <= params
        assert {f["param"] for f in listed["chaos"]["filters"]} >= {"title", "max_level"}
        for game in listed.values():  # every listed filter is one /cards accepts
            for f in game["filters"]:
                value = next(iter(game["card_types"])) if f["param"] == "type" else "1"
                asked = http.get("/cards", params={f["param"]: value, "limit": 1})
                assert asked.status_code == 200, (f, asked.text)
    static = Path(__file__).resolve().parent.parent / "deckcheck/web/static"
    for path in sorted(static.glob("*.js")):  # the page's modules
        script = path.read_text(encoding="utf-8")
        assert not any(f'"{g}"' in script or f"'{g}'" in script for g in plugins.ids()), path.name
        # what a deal sets aside is the spec's data, rendered by its label (no game's roles here)
        assert not re.search(r"partner|gate|main.unit", script, re.IGNORECASE), path.name


def test_compare_copies_draws_a_curve_per_legal_variant(browser, server_url: str) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import EXAMPLES

    # a page given back by a finished test, loaded below with this test's listeners on
    context = builder_pages.take(browser, server_url, viewport=SIZES["desktop"])  # CSP on
    page = context.page
    violations = _watch(page)
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Security Policy" in m.text else None)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status == 404 else None)
    page.goto(server_url + "/")
    page.click("summary:text('Paste a deck list')")
    page.fill("#paste", (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8"))
    page.click("#load")
    page.wait_for_selector("#verdict:text-is('LEGAL')")
    page.select_option("#compare-card", "SAMPLE-R-007")
    page.select_option("#compare-fill", "SAMPLE-R-T01")
    page.fill("#compare-games", "500")
    page.fill("#turns", "5")
    page.click("#compare")
    page.wait_for_selector("#compare-status:text-matches('^Done')")
    # the format's copy limit is 4: 0-4 copies; 0, 1 and 2 would need 7, 6 and 5 of the fill
    # card: listed, not drawn
    assert page.locator("#compare-illegal li").count() == 3
    odds = page.locator("#compare-odds polyline")
    name, fill = "碧の合理体 見本ユグド", "見本戦術 運命の一手"
    assert [odds.nth(i).get_attribute("data-series") for i in range(2)] == [
        f"3 × {name} + 4 × {fill}, on the play",
        f"4 × {name} + 3 × {fill}, on the play",
    ]
    assert page.locator("#compare-milestones polyline").count() == 2
    assert page.locator("#compare-milestone option").count() >= 1
    shot(page, "9-compare-copies")
    page.select_option("#compare-fill", "")  # the least-wanted card keeps the size instead
    page.click("#compare")
    page.wait_for_selector("#compare-odds polyline[data-series*='見本戦術 逆転の閃き']")
    page.select_option("#compare-fill", "blank")  # blanks: every count from 0 to 4 is legal
    page.click("#compare")
    page.wait_for_selector(
        "#compare-odds polyline[data-series^='0 × '][data-series*='4 × blank']", state="attached"
    )  # a flat line at 0% has no height: attached, not visible
    assert page.locator("#compare-odds polyline").count() == 5
    assert page.locator("#compare-illegal li").count() == 0
    assert errors == [] and [u for u in failed if "favicon" not in u] == []
    assert violations == []
    context.close()
