"""The builder's deck panel (issue 22, items 1, 2, 7 and 9), on the real VISION pool: a card
goes to the section the format places it in (a 符ノ弐 to the sideboard) and any line moves to
another section; the statistics count what the deck holds; Clear can be undone; Share puts
the deck in a link that opens it elsewhere; exports carry names and are named after the deck.
Every flow at both sizes, with a screenshot of each state and no console error."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from starlette.testclient import TestClient

from tests.conftest import EXAMPLES, SHIPPED
from tests.test_web import (
    SIZES,
    WAIT_MS,
    _watch,
    expect_legal,
    open_builder,
    server_url,
    shot,
    web_app,
)

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

POOL = Path(__file__).resolve().parent.parent / "card_pool" / "vision" / "cards.csv"
LEGAL = EXAMPLES / "vision-standard-legal.deck"
SECOND = "符ノ弐“博麗 霊夢”"  # 弐符: it waits in the sideboard (keyword glossary 「壱符」「弐符」)
SECOND_NUMBER = "N187"


def _pool() -> dict[str, dict[str, str]]:
    with POOL.open(encoding="utf-8") as f:
        return {r["number"]: r for r in csv.DictReader(ln for ln in f if not ln.startswith("#"))}


def _resolved(web_app: Any, text: str) -> list[dict[str, Any]]:
    with TestClient(web_app) as http:
        answer = http.post("/resolve", json={"deck": text, "format": None})
        assert answer.status_code == 200, answer.text
        return list(answer.json()["entries"])


def _validate(web_app: Any, text: str) -> dict[str, Any]:
    """The service's verdict on a deck list (POST /validate, as the CLI's validate reads it)."""
    with TestClient(web_app) as http:
        answer = http.post("/validate", json={"deck": text})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())


def _without_second() -> str:
    """The legal example without its 符ノ弐 (the sideboard then holds 9)."""
    lines = LEGAL.read_text(encoding="utf-8").splitlines()
    return "\n".join(ln for ln in lines if SECOND not in ln) + "\n"


def _paste_vision(page: Page, text: str) -> None:
    if not page.locator("#paste").is_visible():
        page.locator("#paste-summary").click()
    page.fill("#paste", text)
    page.click("#load")
    expect(page.locator("#format")).to_have_value("vision-standard")


def _legal_page(
    browser: Any, server_url: str, size: str, permissions: tuple[str, ...] = ()
) -> tuple[Any, Page, list[str]]:
    """A new browser context whose page holds the legal VISION example: the context, the
    page, and the console errors and refusals seen on it."""
    context, page, violations = open_builder(browser, server_url, size, accept_downloads=True)
    if permissions:
        context.grant_permissions(list(permissions), origin=server_url)
    _paste_vision(page, LEGAL.read_text(encoding="utf-8"))
    expect_legal(page)
    return context, page, violations


# each deck line's section, number and shown count, read in one call (three calls a line, to
# a deck of 30 lines, were 2 s of each test: issue 35)
LINES = """lines => lines.map(li => [li.dataset.section || "", li.dataset.number || "",
                                li.querySelector(".count").innerText])"""


def _deck(page: Page) -> Counter[tuple[str, str]]:
    """(section, number) → copies, as the deck panel shows them."""
    out: Counter[tuple[str, str]] = Counter()
    for section, number, count in page.locator("#sections li[data-number]").evaluate_all(LINES):
        out[(section, number)] += int(count)
    return out


def _fits(page: Page, size: str) -> None:
    """Nothing wider than the window (a phone scrolls down, never sideways)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], width


def _total(page: Page, section: str) -> str:
    return page.locator(f'.total[data-section="{section}"]').inner_text()


@pytest.mark.parametrize("size", SIZES)
def test_a_second_spell_goes_to_the_sideboard_and_lines_move(browser, server_url: str, size: str) -> None:  # type: ignore[no-untyped-def]
    context, page, violations = open_builder(browser, server_url, size)
    _paste_vision(page, _without_second())
    expect(page.locator("#verdict")).to_have_text("ILLEGAL — 1 error")  # a sideboard of 9
    assert _total(page, "side") == "9/10"
    shot(page, f"22-sections-nine-{size}")
    # added from the search, the 符ノ弐 lands in the sideboard by itself: the deck is legal
    page.fill("#q", SECOND)
    page.locator(f'#results button[aria-label="Add {SECOND_NUMBER}"]').click()
    expect_legal(page)
    assert _total(page, "main") == "50/50" and _total(page, "side") == "10/10"
    assert _deck(page)[("side", SECOND_NUMBER)] == 1
    assert _deck(page)[("main", SECOND_NUMBER)] == 0
    shot(page, f"22-sections-legal-{size}")
    # a button moves one 大妖精 to the sideboard: 49 and 11, illegal
    line = page.locator('#sections li[data-section="main"][data-number="N1374"]')
    line.locator('button.move[data-to="side"]').click()
    expect(page.locator('.total[data-section="side"]')).to_have_text("11/10")
    assert _total(page, "main") == "49/50"
    assert _deck(page)[("main", "N1374")] == 2 and _deck(page)[("side", "N1374")] == 1
    expect(page.locator("#verdict")).to_have_text("ILLEGAL — 2 errors")
    assert "off" in (page.locator('.total[data-section="side"]').get_attribute("class") or "")
    _fits(page, size)
    shot(page, f"22-sections-moved-{size}")
    # the keyboard: "m" on the sideboard line moves it back; legal again
    page.locator('#sections li[data-section="side"][data-number="N1374"]').focus()
    page.keyboard.press("m")
    expect_legal(page)
    assert _deck(page)[("main", "N1374")] == 3 and ("side", "N1374") not in _deck(page)
    focused = page.evaluate("document.activeElement.dataset.section")
    assert focused == "main"  # the focus follows the card
    shot(page, f"22-sections-moved-back-{size}")
    assert violations == []
    context.close()


def _expected_stats(web_app: Any, section: str) -> tuple[int, Counter[str], dict[str, Counter[int]]]:
    pool = _pool()
    total, types = 0, Counter[str]()
    curves: dict[str, Counter[int]] = {"node": Counter(), "cost": Counter()}
    for e in _resolved(web_app, LEGAL.read_text(encoding="utf-8")):
        if e["section"] != section:
            continue
        row = pool[e["number"]]
        total += e["count"]
        types[row["type"]] += e["count"]
        for fact, counts in curves.items():
            if row[fact]:
                counts[int(row[fact])] += e["count"]
    return total, types, curves


def _shown_curve(page: Page, fact: str) -> Counter[int]:
    bars = page.locator(f'#stats-curves figure[data-fact="{fact}"] rect.bar').evaluate_all(
        "bars => bars.map(b => [b.dataset.value || '0', b.dataset.count || '0'])"
    )
    out: Counter[int] = Counter()
    for value, count in bars:
        if int(count):
            out[int(value)] = int(count)
    return out


def _check_stats(page: Page, web_app: Any, section: str) -> None:
    total, types, curves = _expected_stats(web_app, section)
    expect(page.locator("#stats-total")).to_have_text(f"{total} cards")
    shown = {
        key: int(count)
        for key, count in page.locator("#stats-types li").evaluate_all(
            "items => items.map(li => [li.dataset.key, li.querySelector('.count').innerText])"
        )
    }
    assert shown == dict(types)
    for fact, counts in curves.items():
        expect(page.locator(f'#stats-curves figure[data-fact="{fact}"] rect.bar').first).to_be_attached()
        assert _shown_curve(page, fact) == counts, fact


@pytest.mark.parametrize("size", SIZES)
def test_statistics_group_and_undo_a_clear(browser, server_url: str, web_app, size: str) -> None:  # type: ignore[no-untyped-def]
    context, page, violations = _legal_page(browser, server_url, size)
    # the deck's numbers: types, and the game's curve (必要ノード and コスト, GET /games)
    labels = page.locator("#stats-curves figcaption").all_inner_texts()
    assert any(t.startswith("Copies by node") for t in labels), labels
    assert any(t.startswith("Copies by cost") for t in labels), labels
    _check_stats(page, web_app, "main")
    _fits(page, size)
    shot(page, f"22-stats-main-{size}")
    page.select_option("#stats-section", "side")
    _check_stats(page, web_app, "side")
    shot(page, f"22-stats-side-{size}")
    # grouped by type: one heading a type, with its copies
    page.check("#group-by-type")
    _, types, _ = _expected_stats(web_app, "main")
    headings = page.locator("#sections .section").first.locator("h4.group").all_inner_texts()
    assert sorted(headings) == sorted(f"{t} ({n})" for t, n in types.items())
    shot(page, f"22-grouped-{size}")
    page.uncheck("#group-by-type")
    before = _deck(page)
    # Clear, then Undo: the same deck, legal again
    page.click("#clear")
    expect(page.locator("#sections li[data-number]")).to_have_count(0)
    expect(page.locator("#undo-bar")).to_be_visible()
    expect(page.locator("#undo-text")).to_have_text(f"Deck cleared ({sum(before.values())} cards).")
    shot(page, f"22-cleared-{size}")
    page.click("#undo")
    expect_legal(page)
    assert _deck(page) == before
    expect(page.locator("#undo-bar")).to_be_hidden()
    shot(page, f"22-undone-{size}")
    # an edit after a Clear ends the offer (Undo would throw the new card away)
    page.click("#clear")
    expect(page.locator("#undo-bar")).to_be_visible()
    page.fill("#q", "N1374")
    page.locator('#results button[aria-label="Add N1374"]').click()
    expect(page.locator('#sections li[data-number="N1374"]')).to_have_count(1)
    assert page.locator("#undo-bar").is_hidden()  # at once: the same edit drew the line
    assert _deck(page) == Counter({("main", "N1374"): 1})
    assert violations == []
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_undo_a_paste_over_a_deck(browser, server_url: str, size: str) -> None:  # type: ignore[no-untyped-def]
    """A list pasted over a deck of another game replaces it, format and all; Undo gives the
    old deck back, in its own format."""
    context, page, violations = _legal_page(browser, server_url, size)
    page.fill("#deck-name", "霊夢デッキ")
    before = _deck(page)
    page.fill("#paste", (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8"))
    page.click("#load")
    expect(page.locator("#format")).to_have_value("rakuen-standard")
    expect(page.locator("#undo-text")).to_have_text(
        f"Deck replaced (the old one had {sum(before.values())} cards)."
    )
    expect_legal(page)
    assert _deck(page) != before
    shot(page, f"22-pasted-over-{size}")
    page.click("#undo")
    expect(page.locator("#format")).to_have_value("vision-standard")
    # the old deck's lines, its sideboard's too: both decks are legal, so the verdict alone
    # does not say that the undo has ended (the format's sections come with its GET)
    expect(page.locator('#sections li[data-section="side"]')).to_have_count(
        sum(1 for section, _number in before if section == "side")
    )
    expect(page.locator("#sections li[data-number]")).to_have_count(len(before))
    expect_legal(page)
    assert _deck(page) == before
    assert page.locator("#deck-name").input_value() == "霊夢デッキ"
    expect(page.locator("#undo-bar")).to_be_hidden()
    assert violations == []
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_share_a_link_and_export_with_names(browser, server_url: str, web_app, size: str) -> None:  # type: ignore[no-untyped-def]
    clipboard = ("clipboard-read", "clipboard-write")
    context, page, violations = _legal_page(browser, server_url, size, clipboard)
    page.fill("#deck-name", "霊夢 fairies")
    before = _deck(page)
    page.click("#share")
    expect(page.locator("#share-box")).to_be_visible()
    link = page.locator("#share-link").input_value()
    assert "#deck=" in link and page.evaluate("location.hash").startswith("#deck=")
    assert page.evaluate("navigator.clipboard.readText()") == link
    _fits(page, size)
    shot(page, f"22-share-{size}")
    # the link in a new page (nothing kept there): the same deck, its format, its name
    other = browser.new_context(viewport=SIZES[size])
    opened = other.new_page()
    seen = _watch(opened)
    opened.set_default_timeout(WAIT_MS)
    opened.goto(link)
    expect_legal(opened)
    expect(opened.locator("#format")).to_have_value("vision-standard")
    assert _deck(opened) == before
    assert opened.locator("#deck-name").input_value() == "霊夢 fairies"
    assert "#" not in opened.url  # the deck is kept by the page; a reload keeps later edits
    shot(opened, f"22-shared-opened-{size}")
    assert seen == []
    other.close()
    # the text export: names beside numbers, named after the deck and format, and it reads back
    with page.expect_download() as done:
        page.click("#export-text")
    assert done.value.suggested_filename == "霊夢-fairies-vision-standard.deck"
    text = Path(done.value.path()).read_text(encoding="utf-8")
    assert "3 N1374  # 大妖精" in text.splitlines()
    report = _validate(web_app, text)
    assert report["legal"], report["violations"]
    with page.expect_download() as done:
        page.click("#export-csv")
    assert done.value.suggested_filename == "霊夢-fairies-vision-standard.csv"
    # Copy: the same text on the clipboard
    page.click("#copy")
    expect(page.locator("#copy-note")).to_have_text("Deck list copied to the clipboard.")
    assert page.evaluate("navigator.clipboard.readText()") == text
    shot(page, f"22-copied-{size}")
    assert violations == []
    context.close()


def test_an_export_with_name_comments_reads_as_the_deck(web_app) -> None:  # type: ignore[no-untyped-def]
    """`3 N1374  # 大妖精`: deckcheck reads the number and skips the comment, for every card of
    the legal example (names with spaces, quotes and brackets among them)."""
    entries = _resolved(web_app, LEGAL.read_text(encoding="utf-8"))
    plain, named = ["format: vision-standard"], ["format: vision-standard"]
    for section in ("main", "side"):
        plain.append(f"[{section}]")
        named.append(f"[{section}]")
        for e in (e for e in entries if e["section"] == section):
            plain.append(f"{e['count']} {e['number']}")
            named.append(f"{e['count']} {e['number']}  # {e['name']}")
    assert any("“" in ln for ln in named) and any("「" in ln for ln in named)
    plain_text, named_text = "\n".join(plain) + "\n", "\n".join(named) + "\n"
    named_report = _validate(web_app, named_text)
    assert named_report["legal"]
    assert named_report["violations"] == _validate(web_app, plain_text)["violations"]
    with TestClient(web_app) as http:
        got = http.post("/resolve", json={"deck": named_text, "format": None}).json()
    assert [(e["section"], e["number"], e["count"]) for e in got["entries"]] == [
        (e["section"], e["number"], e["count"]) for e in entries
    ]


def test_the_format_places_second_spells_and_the_game_names_its_curve(web_app) -> None:  # type: ignore[no-untyped-def]
    """The builder's data: where a card of a keyword is added (the format's spell_break table),
    and which facts make each game's curve (its spec)."""
    with TestClient(web_app) as http:
        placement = http.get("/formats/vision-standard").json()["placement"]
        assert [(p["keyword"], p["section"]) for p in placement] == [("弐符", "side")]
        assert http.get("/formats/chaos-standard").json()["placement"] == []
        curves = {g["id"]: [c["name"] for c in g["curve"]] for g in http.get("/games").json()}
        assert {g: c for g, c in curves.items() if g in SHIPPED} == {
            "vision": ["node", "cost"],
            "rakuen": ["level"],
            "chaos": ["level"],
            "iris": ["cost"],
        }
        ja = http.get("/games", headers={"Accept-Language": "ja"}).json()
        vision = next(g for g in ja if g["id"] == "vision")
        assert [c["label"] for c in vision["curve"]] == ["必要ノード", "コスト"]


@pytest.mark.parametrize("size", SIZES)
def test_cards_go_where_their_type_belongs_in_other_games(browser, server_url: str, size: str) -> None:  # type: ignore[no-untyped-def]
    """ChaosTCG 総合ルール 2016-05-17 §6.1: an extra card only in the extra deck; ラクエンロジック
    ルールブック Ver1.0 ch.1 §4: a gate card only in the gate deck. Added from the search, each
    goes there, and offers no move to a section its type may not be in."""
    context, page, violations = open_builder(browser, server_url, size)
    for fmt, card, section, other in [
        ("chaos-standard", "SAMPLE-C-X01", "extra", "SAMPLE-C-001"),
        ("rakuen-standard", "SAMPLE-R-G01", "gate", "SAMPLE-R-001"),
    ]:
        page.select_option("#format", fmt)
        for number in (card, other):
            page.fill("#q", number)
            page.locator(f'#results button[aria-label="Add {number}"]').click()
        expect(page.locator(f'#sections li[data-section="{section}"][data-number="{card}"]')).to_have_count(1)
        expect(page.locator(f'#sections li[data-section="main"][data-number="{other}"]')).to_have_count(1)
        assert page.locator("#sections button.move").count() == 0  # nowhere else to go
        _fits(page, size)
        shot(page, f"22-sections-{fmt}-{size}")
    assert violations == []
    context.close()
