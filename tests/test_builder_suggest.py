"""The builder's "Suggest changes" panel (issue 36, item 3): the tune job's best variants for
the page's conditions, one applied to the deck, and Undo taking it back. On the real VISION
pool, at both sizes, with a screenshot and no console error."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.test_builder_deck import _deck, _fits, _paste_vision, _total
from tests.test_tune import CHARACTERS, OTHERS
from tests.test_web import SIZES, expect_legal, open_builder, server_url, shot, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

DECK = "\n".join(
    ["format: vision-standard", "[main]"]
    + [f"2 {ref}" for ref in CHARACTERS]
    + [f"3 {ref}" for ref in OTHERS]
)


@pytest.mark.parametrize("size", SIZES)
def test_suggest_apply_and_undo(browser, server_url: str, size: str) -> None:  # type: ignore[no-untyped-def]
    context, page, violations = open_builder(browser, server_url, size)
    _paste_vision(page, DECK + "\n")
    expect_legal(page)
    before = _deck(page)
    page.fill("#want", "type:キャラクター>=1")
    page.fill("#turns", "0")
    page.select_option("#suggest-max", "4")
    page.click("#suggest")
    first = page.locator("#suggest-list li").first
    # 12 characters in 50, 7 cards: 1 - C(38,7)/C(50,7) = 87.4%; the deck as it is: 73.0%
    expect(first).to_contain_text("87.4%")
    expect(page.locator("#suggest-status")).to_contain_text("73.0%")
    for name in ("大妖精", "マエリベリー・ハーン", "宇佐見 蓮子", "ルーミア"):
        expect(first).to_contain_text(f"+1 {name}")
    shot(page, f"36-suggested-{size}")
    _fits(page, size)
    first.get_by_role("button").click()
    expect_legal(page)
    after = _deck(page)
    assert all(after[("main", n)] == 3 for n in CHARACTERS)
    assert sum(after.values()) == sum(before.values()) == 50
    assert sum(before[("main", n)] - after[("main", n)] for n in OTHERS) == 4
    assert _total(page, "main").startswith("50")
    expect(page.locator("#undo-text")).to_contain_text("+1 大妖精")
    page.click("#undo")
    expect(page.locator("#sections li[data-number]")).to_have_count(len(before))
    expect_legal(page)
    assert _deck(page) == before
    assert violations == []
    context.close()
