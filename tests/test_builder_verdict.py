"""The builder's verdict and paste (issue 22, items 6 and 8): errors, then warnings, then the
format's assumptions folded away; a failed request's message beside the control that made it;
a pasted name with several printings offers a picker of them, and an unknown name the names
the CLI suggests. On the real VISION pool, at both sizes, in Chromium under the CSP."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from starlette.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.test_web import SIZES, expect_legal, open_builder, server_url, shot, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

# one name, six printings that differ in what legality depends on (keywords): N6 has 奇襲 and
# 速攻, the others none (card_pool/vision/cards.csv)
AMBIGUOUS = "リグル・ナイトバグ"
PRINTINGS = ["N1375", "N1630", "N1813", "N479", "N6", "N924"]


def _paste(page: Page, text: str) -> None:
    if not page.locator("#paste").is_visible():
        page.click("#paste-summary")
    page.fill("#paste", text)
    page.click("#load")


def _top(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return float(box["y"])


@pytest.mark.parametrize("size", SIZES)
def test_errors_then_warnings_then_folded_assumptions(  # type: ignore[no-untyped-def]
    browser, server_url: str, size: str
) -> None:
    context, page, violations = open_builder(browser, server_url, size)
    legal = (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8")
    _paste(page, legal)
    expect_legal(page)
    # a legal deck: no error and no warning heading; its assumptions folded, counted
    report = page.request.post(server_url + "/validate", data={"deck": legal}).json()
    n = len(report["assumptions"])
    assert n >= 1 and not report["violations"]
    summary = page.locator("#assumptions-summary")
    expect(summary).to_have_text(f"Assumptions ({n})")
    assert page.locator("#assumptions-block").get_attribute("open") is None
    assert not page.locator("#assumptions li").first.is_visible()
    assert not page.locator("#warnings-title").is_visible()
    assert not page.locator("#errors-title").is_visible()
    shot(page, f"22-verdict-legal-{size}")

    # the 符ノ弐 moved from the sideboard into the main deck: sizes are wrong (errors) and it can
    # never be played from there (a warning, vision/spell-break): errors, then warnings, then
    # the assumptions, still folded
    spell = "1 符ノ弐“博麗 霊夢”\n"
    assert spell in legal
    moved = legal.replace(spell, "").replace("[main]\n", "[main]\n" + spell)
    _paste(page, moved)
    expect(page.locator("#verdict")).to_have_text(re.compile("^ILLEGAL"))
    expect(page.locator("#errors-title")).to_be_visible()
    expect(page.locator("#warnings-title")).to_be_visible()
    rules = page.locator("#errors code.rule").all_inner_texts()
    assert "vision/main-size" in rules, rules
    warned = page.locator("#warnings code.rule").all_inner_texts()
    assert warned and all(r not in rules for r in warned), warned
    assert _top(page, "#errors") < _top(page, "#warnings") < _top(page, "#assumptions-block")
    assert page.locator("#assumptions-block").get_attribute("open") is None
    summary.click()  # a player may read them
    expect(page.locator("#assumptions li")).to_have_count(n)
    assert page.locator("#assumptions li").first.is_visible()
    shot(page, f"22-verdict-illegal-{size}")
    assert violations == []
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_failed_request_shows_its_message_beside_its_control(  # type: ignore[no-untyped-def]
    browser, server_url: str, size: str
) -> None:
    context, page, violations = open_builder(browser, server_url, size)
    page.select_option("#format", "vision-standard")
    page.wait_for_selector('label[for="filter-user"]')
    # the search fails: its message follows the filters, not the top of the page
    page.route("**/cards?*", lambda route: route.abort())
    page.fill("#q", "大妖精")
    note = page.locator("#game-filters + .near-message")
    expect(note).to_contain_text("Search failed")
    assert page.locator("#message").is_hidden()
    shot(page, f"22-error-beside-search-{size}")
    page.unroute("**/cards?*")
    page.fill("#q", "大妖精 ")  # the search succeeds: its message goes
    expect(note).to_have_count(0)
    page.wait_for_selector('#results li[data-number="N1374"]')

    # the deck check fails: beside the verdict
    page.route("**/validate", lambda route: route.abort())
    page.locator('#results button[aria-label="Add N1374"]').click()
    expect(page.locator("#verdict + .near-message")).to_contain_text("Could not check the deck")
    page.unroute("**/validate")
    page.locator('#results button[aria-label="Add N1374"]').click()
    expect(page.locator("#verdict")).to_have_text(re.compile("^ILLEGAL"))
    expect(page.locator("#verdict + .near-message")).to_have_count(0)

    # a pasted list the service cannot read: beside the Load button
    page.route("**/resolve", lambda route: route.abort())
    _paste(page, "format: vision-standard\n[main]\n3 大妖精\n")
    beside = page.locator("#load + .near-message")
    expect(beside).to_contain_text("Could not load the deck list")
    load, shown = page.locator("#load").bounding_box(), beside.bounding_box()
    assert load is not None and shown is not None
    assert 0 <= shown["y"] - (load["y"] + load["height"]) < 40  # right under the button
    assert page.locator("#message").is_hidden()
    shot(page, f"22-error-beside-load-{size}")
    assert violations == []
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_pick_a_printing_for_an_ambiguous_name(  # type: ignore[no-untyped-def]
    browser, server_url: str, size: str
) -> None:
    context, page, violations = open_builder(browser, server_url, size)
    _paste(page, f"format: vision-standard\n[main]\n2 {AMBIGUOUS}\n")
    expect(page.locator("#verdict")).to_have_text(re.compile("^ILLEGAL"))
    expect(page.locator("#errors code.rule", has_text="deck/ambiguous-card")).to_have_count(1)
    choices = page.locator("#paste-lines .choices button")
    expect(choices).to_have_count(len(PRINTINGS))
    texts = choices.all_inner_texts()
    assert sorted(t.split()[0] for t in texts) == sorted(PRINTINGS)
    assert len(set(texts)) == len(texts)  # each printing says what tells it apart
    n6 = page.locator('#paste-lines button[aria-label="Use N6 for リグル・ナイトバグ"]')
    assert "奇襲 / 速攻" in n6.inner_text() and "node" in n6.inner_text()
    shot(page, f"22-paste-picker-{size}")
    n6.click()
    row = page.locator('#sections li[data-number="N6"]')
    expect(row).to_have_count(1)
    assert row.locator(".count").inner_text() == "2"
    expect(page.locator("#errors code.rule", has_text="deck/ambiguous-card")).to_have_count(0)
    expect(page.locator("#paste-lines")).to_be_hidden()
    shot(page, f"22-paste-picked-{size}")
    assert violations == []
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_an_unknown_name_gets_the_clis_suggestion(  # type: ignore[no-untyped-def]
    browser, server_url: str, size: str
) -> None:
    context, page, violations = open_builder(browser, server_url, size)
    _paste(page, "format: vision-standard\n[main]\n3 レティ\n")
    expect(page.locator("#errors code.rule", has_text="deck/unknown-card")).to_have_count(1)
    suggestion = page.locator("#paste-lines .choices button", has_text="レティ・ホワイトロック")
    expect(suggestion).to_have_count(1)
    shot(page, f"22-paste-suggestion-{size}")
    suggestion.click()
    row = page.locator("#sections li", has_text="レティ・ホワイトロック")
    expect(row).to_have_count(1)
    assert row.locator(".count").inner_text() == "3"
    expect(page.locator("#errors code.rule", has_text="deck/unknown-card")).to_have_count(0)
    # its printings are alike for legality: the lowest number was taken, the others wait
    others = page.locator("#paste-others")
    expect(others).to_be_visible()
    assert others.get_attribute("open") is None
    expect(page.locator("#paste-others-summary")).to_have_text("1 name has other printings")
    shot(page, f"22-paste-suggestion-taken-{size}")
    page.click("#clear")  # the pickers were for lines no longer in the deck
    expect(others).to_be_hidden()
    page.click("#undo")
    expect(row).to_have_count(1)
    assert violations == []
    context.close()


def test_resolve_lists_printings_and_suggestions(web_app) -> None:  # type: ignore[no-untyped-def]
    """What the page reads: per line, the printings of a name and the CLI's suggestions (the
    old fields kept)."""
    deck = f"format: vision-standard\n[main]\n2 {AMBIGUOUS}\n3 レティ\n3 大妖精\n1 N6\n"
    with TestClient(web_app) as http:
        lines = http.post("/resolve", json={"deck": deck}).json()["entries"]
        report = http.post("/validate", json={"deck": deck}).json()
    ambiguous, unknown, alike, numbered = lines
    assert ambiguous["number"] is None and ambiguous["name"] == AMBIGUOUS
    assert sorted(p["number"] for p in ambiguous["printings"]) == sorted(PRINTINGS)
    assert unknown["number"] is None and unknown["suggestions"] == ["レティ・ホワイトロック"]
    assert alike["number"] == "N1374" and len(alike["printings"]) == 6
    assert numbered["number"] == "N6" and numbered["printings"] == numbered["suggestions"] == []
    # the same suggestion the deck check (and the CLI) gives
    fixes = [v["fix"] for v in report["violations"] if v["rule"] == "deck/unknown-card"]
    assert fixes == ["did you mean 'レティ・ホワイトロック'?"]


def test_resolve_gives_each_cards_own_copy_limit(web_app) -> None:  # type: ignore[no-untyped-def]
    """The most copies the format allows of each line's card (an editor offers only those):
    VISION's general 3 (総合ルール §1.2.2.b), 1 for a 「デッキ1枚制限」 printing."""
    with TestClient(web_app) as http:
        deck = "format: vision-standard\n1 PR.008\n3 N1374\n1 nosuchcard\n"
        entries = http.post("/resolve", json={"deck": deck}).json()["entries"]
    assert [e["limit"] for e in entries] == [1, 3, None]


def test_a_cards_own_limit_follows_how_the_copy_check_counts() -> None:
    """A "matching" override limits its cards on top of the general limit (VISION's デッキN枚制限,
    3 at most whatever N); a "same-name" one replaces it (ChaosTCG §6.1: デッキ8枚制限 → 8)."""
    from deckcheck.formats.registry import default_registry
    from deckcheck.models import Card
    from deckcheck.slots import copy_limit

    formats = default_registry()
    vision, chaos = formats.get("vision-standard"), formats.get("chaos-standard")

    def card(game: str, keyword: str) -> Card:
        return Card(game=game, number="X-1", name="x", type="character", keywords=(keyword,))

    assert copy_limit(vision, card("vision", "デッキ5枚制限")) == 3
    assert copy_limit(vision, card("vision", "デッキ1枚制限")) == 1
    assert copy_limit(chaos, card("chaos", "デッキ8枚制限")) == 8
    assert copy_limit(chaos, card("chaos", "枚数制限なし")) is None


@pytest.mark.parametrize("size", SIZES)
def test_a_picked_printing_brings_its_own_facts(  # type: ignore[no-untyped-def]
    browser, server_url: str, size: str
) -> None:
    """A pasted 大妖精 takes N1374 (必要ノード 3); picking N1619 (必要ノード 4) from its other
    printings moves the statistics' node curve with it (it kept N1374's facts)."""
    context, page, violations = open_builder(browser, server_url, size)
    _paste(page, "format: vision-standard\n[main]\n3 大妖精\n")
    node = '#stats-curves figure[data-fact="node"] rect.bar[data-value="{}"]'
    expect(page.locator(node.format(3))).to_have_attribute("data-count", "3")
    page.click("#paste-others-summary")
    page.locator("#paste-printings .choices button", has_text="N1619").click()
    expect(page.locator('#sections li[data-number="N1619"]')).to_have_count(1)
    expect(page.locator(node.format(4))).to_have_attribute("data-count", "3")
    expect(page.locator(node.format(3))).to_have_count(0)
    shot(page, f"22-paste-picked-facts-{size}")
    assert violations == []
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_list_from_memory_names_its_unread_lines_and_fixes_certain_typos(  # type: ignore[no-untyped-def]
    browser, server_url: str, size: str
) -> None:
    """Issue 31: every line the CLI reads is read (×3 ones too, and 狙撃 3), an unreadable line is named
    with what was expected, and "Fix all certain typos" takes each single suggestion."""
    context, page, violations = open_builder(browser, server_url, size)
    pasted = (
        "format: vision-standard\nキャラクター\n3 レティ\n秋静葉 ×3\n×3 マナの生成\n狙撃 3\nおすすめ 12"
    )
    _paste(page, pasted)
    unread = page.locator("#paste-lines li.unread")
    expect(unread).to_have_count(1)
    # 狙撃 3 is read (狙撃 is a card); おすすめ 12 is not a card line (おすすめ is no card)
    expect(unread).to_contain_text("line 7: not a card line: 'おすすめ 12'")
    expect(unread).to_contain_text("'3 秋 静葉' (or '秋 静葉 ×3')")
    expect(page.locator("#sections li", has_text="マナの生成")).to_have_count(1)
    expect(page.locator("#sections li", has_text="狙撃")).to_have_count(1)
    fix = page.locator("#fix-typos")
    expect(fix).to_be_visible()
    fix.click()
    expect(page.locator("#sections li", has_text="レティ・ホワイトロック")).to_have_count(1)
    expect(page.locator("#errors code.rule", has_text="deck/unknown-card")).to_have_count(0)
    expect(fix).to_be_hidden()
    assert violations == []
    context.close()
