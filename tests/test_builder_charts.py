"""Issue 22, items 4 and 5, in a real browser at both sizes: charts that read right (each legend
entry in its line's colour and marker, axis titles, a value on hover and on tap, identical
series drawn once as "play = draw", the legend below the plot) and "Compare copies" that
compares (the format's legal copy counts, a blank or any pool card as the fill, human labels,
each variant's interval). Screenshots of each state go to tests/artifacts/ when DECKCHECK_SHOTS
is set (test_web.artifact)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import EXAMPLES
from tests.test_web import (
    SIZES,
    artifact,
    expect_legal,
    open_builder,
    server_url,
    shot,
    web_app,
)

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

# each legend entry's text, swatch and marker, and its line's stroke, as the browser paints them
LEGEND_AND_LINES = """svg => [...svg.parentNode.querySelectorAll('.legend-item')].map(item => {
  const name = item.dataset.series;
  const line = [...svg.querySelectorAll('polyline.series')].find(p => p.dataset.series === name);
  const marker = item.querySelector('.marker');
  const text = item.querySelector('.legend');
  const box = item.getBoundingClientRect();
  return {name, text: getComputedStyle(text).color,
          swatch: getComputedStyle(item.querySelector('.swatch')).stroke,
          marker: getComputedStyle(marker).fill,
          shape: marker.tagName + (marker.getAttribute('points') || '').split(' ').length,
          line: line ? getComputedStyle(line).stroke : null,
          top: box.top, right: box.right, overflows: text.scrollWidth > text.clientWidth + 1,
          chartBottom: svg.getBoundingClientRect().bottom,
          chartRight: svg.getBoundingClientRect().right};
})"""


def load(page: Page, name: str) -> None:
    """Paste an example and wait for what the paste changes: its format in the select, then
    its own verdict (a deck pasted over a legal one found the old LEGAL, and Plot ran for the
    old deck: issue 38)."""
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    fmt = re.search(r"^format:\s*(\S+)", text, re.M)
    page.locator("#paste").evaluate("el => el.closest('details').open = true")
    page.fill("#paste", text)
    page.click("#load")
    if fmt:
        expect(page.locator("#format")).to_have_value(fmt.group(1))
    expect_legal(page)


def close_up(page: Page, selector: str, name: str) -> None:
    """The chart alone as well: a full page at phone width is too tall to read a chart in."""
    path = artifact(name)
    if path is not None:
        page.locator(selector).screenshot(path=path)


def legend_matches_lines(page: Page, svg: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = page.locator(svg).evaluate(LEGEND_AND_LINES)
    assert items, "no legend"
    for item in items:
        assert item["line"] is not None, item["name"]
        assert item["text"] == item["swatch"] == item["marker"] == item["line"], item
    assert len({i["line"] for i in items}) == len(items)  # a colour each
    assert len({i["shape"] for i in items}) == len(items)  # a marker each
    for item in items:  # below the chart, inside its width, the text wrapped, not cut
        assert item["top"] >= item["chartBottom"] - 0.5, item
        assert item["right"] <= item["chartRight"] + 0.5 and not item["overflows"], item
    return items


@pytest.mark.parametrize("size", SIZES)
def test_the_odds_chart_reads_right(browser: Any, server_url: str, size: str) -> None:
    context, page, violations = open_builder(browser, server_url, size, "en")
    load(page, "vision-standard-legal.deck")  # the first player does not draw: two curves
    page.fill("#want", "type:character>=6")
    page.fill("#turns", "5")
    page.click("#plot")
    page.wait_for_selector('#play-panel .legend-item[data-series="on the draw"]')
    items = legend_matches_lines(page, "#chart")
    assert [i["name"] for i in items] == ["on the play", "on the draw"]
    assert page.locator("#chart .x-title").text_content() == "turn"
    assert page.locator("#chart .y-title").text_content() == "probability"
    assert page.locator("#chart polyline.series").count() == 2
    assert page.locator("#chart .point").count() == 2 * 6  # turns 0..5, a marker each
    readout = page.locator("#play-panel .readout")
    value = r"\d+\.\d%"
    hover(page, "#chart .point >> nth=11")  # a pointer: both values at that turn
    expect(readout).to_have_text(re.compile(rf"^turn 5: on the play {value}; on the draw {value}$"))
    title = page.locator("#chart .point").nth(11).locator("title").text_content() or ""
    assert re.fullmatch(rf"on the draw: turn 5, {value}", title)  # the point's own tooltip
    assert title.rsplit(" ", 1)[1] in readout.inner_text()
    shot(page, f"22-charts-hover-{size}")
    tap(page, "#chart .point >> nth=2")  # a tap (touch has no hover): the values show
    expect(readout).to_have_text(re.compile(rf"^turn 2: on the play {value}; on the draw {value}$"))
    shot(page, f"22-charts-tap-{size}")
    close_up(page, "#play-panel figure", f"22-charts-tap-chart-{size}")

    load(page, "rakuen-standard-legal.deck")  # the first player draws: play and draw are one
    page.fill("#want", "type:member>=8")
    page.click("#plot")
    page.wait_for_selector('#play-panel .legend-item[data-series="play = draw"]')
    assert page.locator("#chart polyline.series").count() == 1
    assert [i["name"] for i in legend_matches_lines(page, "#chart")] == ["play = draw"]
    shot(page, f"22-charts-play-equals-draw-{size}")
    close_up(page, "#play-panel figure", f"22-charts-play-equals-draw-chart-{size}")
    assert violations == []
    context.close()


def test_plot_waits_for_a_deck_being_pasted(browser: Any, server_url: str) -> None:
    """Issue 38: Plot pressed while a pasted deck is still being read asked about the deck
    on its way out (the VISION deck, with the rakuen condition: "Could not compute the
    odds"). The paste's /resolve is held until after the click: the chart is the new deck's."""
    context, page, violations = open_builder(browser, server_url, "desktop", "en")
    load(page, "vision-standard-legal.deck")
    held: list[Any] = []
    page.route("**/resolve", lambda route: held.append(route) if not held else route.continue_())
    page.fill("#paste", (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8"))
    with page.expect_request("**/resolve"):
        page.click("#load")
    page.fill("#want", "type:member>=8")
    page.fill("#turns", "3")
    page.click("#plot")
    page.wait_for_timeout(300)  # room for a Plot that does not wait to ask (none should)
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_function(
        "() => document.querySelector('#play-panel .legend-item') || "
        "document.querySelector('#plot-message')"
    )
    assert page.locator("#plot-message").count() == 0, page.locator("#plot-message").inner_text()
    expect(page.locator('#play-panel .legend-item[data-series="play = draw"]')).to_have_count(1)
    expect(page.locator("#format")).to_have_value("rakuen-standard")
    expect_legal(page)
    assert violations == []
    context.close()


def centre(page: Page, selector: str) -> tuple[float, float]:
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def tap(page: Page, selector: str) -> None:
    """A finger on the point's centre (whichever curve's marker lies on top there)."""
    page.mouse.click(*centre(page, selector))


def hover(page: Page, selector: str) -> None:
    page.mouse.move(*centre(page, selector))


def compare_card(page: Page, name: str) -> str:
    """Pick the main-deck card called ``name`` to compare; its number."""
    value: str = page.locator("#compare-card").evaluate(
        "(el, name) => [...el.options].find(o => o.text.startsWith(name + ' (')).value", name
    )
    page.select_option("#compare-card", value)
    return value


def run_compare(page: Page, done: str) -> None:
    page.click("#compare")
    expect(page.locator("#compare-status")).to_have_text(re.compile(done))


WORDS = {
    "en": {"blank": "blank", "play": "on the play", "draw": "on the draw", "sep": ", ",
           "done": "^Done: 4 of 4 variants played, 300 games each$", "turn": "turn",
           "share": "share of games", "interval": "95% interval"},
    "ja": {"blank": "白紙", "play": "先攻", "draw": "後攻", "sep": "、",
           "done": "^完了", "turn": "ターン", "share": "ゲームの割合", "interval": "95%区間"},
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", SIZES)
def test_compare_copies_plays_every_legal_count_with_a_blank_fill(
    browser: Any, server_url: str, size: str, lang: str
) -> None:
    words = WORDS[lang]
    context, page, violations = open_builder(browser, server_url, size, lang)
    load(page, "vision-standard-legal.deck")
    compare_card(page, "大妖精")
    assert page.locator("#compare-fill").input_value() == "blank"  # the default fill
    page.fill("#compare-games", "300")
    page.fill("#turns", "4")
    run_compare(page, words["done"])
    # VISION's copy limit is 3 (総合ルール §1.2.2.b): 0..3, all legal with blanks keeping 50
    expected = [
        f"{n} × 大妖精 + {3 - n} × {words['blank']}{words['sep']}{words['play']}" for n in range(4)
    ]
    odds = legend_matches_lines(page, "#compare-odds")
    assert [i["name"] for i in odds] == expected
    assert page.locator("#compare-illegal li").count() == 0
    milestones = legend_matches_lines(page, "#compare-milestones")
    # variants whose shares are the same turn by turn are one curve, labelled as one
    assert [part for i in milestones for part in i["name"].split(" = ")] == expected
    # each curve's interval: a shaded band in its colour around it
    lines = page.locator("#compare-milestones polyline.series")
    bands = page.locator("#compare-milestones polygon.band")
    assert bands.count() == lines.count() == len(milestones)
    assert [bands.nth(i).get_attribute("fill") for i in range(bands.count())] == [
        lines.nth(i).get_attribute("stroke") for i in range(lines.count())
    ]
    assert page.locator("#compare-milestones .x-title").text_content() == words["turn"]
    assert page.locator("#compare-milestones .y-title").text_content() == words["share"]
    assert words["interval"] in page.locator("#compare-milestone-note").inner_text()
    panel = page.locator("#compare-panel").inner_text()
    assert not re.search(r"name:|side=|first_character|\bN\d+=", panel), panel
    tap(page, "#compare-milestones .point >> nth=-1")  # turn 4 of the last curve
    readout = page.locator("#compare-panel .readout").last.inner_text()
    assert readout.count("%)") == len(milestones) and "3 × 大妖精" in readout  # with intervals

    shot(page, f"22-compare-blank-{lang}-{size}")
    # a node every turn whatever the copies: the four curves (and intervals) are one, drawn once
    page.select_option("#compare-milestone", "node_1")
    expect(page.locator("#compare-milestones polyline.series")).to_have_count(1)
    merged = legend_matches_lines(page, "#compare-milestones")
    assert [i["name"] for i in merged] == [" = ".join(expected)]
    assert page.locator("#compare-milestones polyline.series").count() == 1
    shot(page, f"22-compare-identical-{lang}-{size}")
    page.select_option("#compare-milestone", "first_character")
    close_up(page, "#compare-panel", f"22-compare-blank-panel-{lang}-{size}")

    # any card of the pool as the fill, on the draw: the labels name it
    page.fill("#compare-fill-q", "マエリベリー・ハーン")
    expect(page.locator("#compare-fill option:checked")).to_have_text(
        re.compile(r"^マエリベリー・ハーン \(N\d+\)$")  # a printing not in the deck
    )
    page.select_option("#compare-side", "draw")
    run_compare(page, words["done"])
    names = [i["name"] for i in legend_matches_lines(page, "#compare-odds")]
    assert names == [
        f"{n} × 大妖精 + {3 - n} × マエリベリー・ハーン{words['sep']}{words['draw']}"
        for n in range(4)
    ]
    shot(page, f"22-compare-pool-fill-{lang}-{size}")
    close_up(page, "#compare-panel", f"22-compare-pool-fill-panel-{lang}-{size}")
    assert violations == []
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_compare_copies_stops_at_the_cards_own_limit(browser: Any, server_url: str, size: str) -> None:
    """A card an override limits below the format's (PR.008 博麗 霊夢: 「デッキ1枚制限」,
    キーワード用語集) is compared at its legal counts only, 0 and 1: it used to get 0..3, two of
    them listed as illegal."""
    context, page, violations = open_builder(browser, server_url, size, "en")
    load(page, "vision-standard-legal.deck")
    page.select_option("#compare-card", "PR.008")
    page.fill("#compare-games", "200")
    page.fill("#turns", "3")
    run_compare(page, "^Done: 2 of 2 variants played, 200 games each$")
    names = [i["name"] for i in legend_matches_lines(page, "#compare-odds")]
    assert names == [f"{n} × 博麗 霊夢 + {1 - n} × blank, on the play" for n in range(2)]
    assert page.locator("#compare-illegal li").count() == 0
    shot(page, f"22-compare-own-limit-{size}")
    assert violations == []
    context.close()
