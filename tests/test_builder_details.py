"""Card details (issue 32, item 3), in Chromium: focusing a search row or a deck line shows every
fact the pool holds about its card (the game's own columns labelled as ``GET /games`` labels
them), its other printings and its source note; deck lines show the facts of the game's curve."""

from __future__ import annotations

from playwright.sync_api import expect
from starlette.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.test_web import expect_legal, open_builder, server_url, shot, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)


def test_a_focused_card_shows_everything_the_pool_holds(browser, server_url: str) -> None:  # type: ignore[no-untyped-def]
    context, page, violations = open_builder(browser, server_url, "desktop", lang="en")
    page.select_option("#format", "vision-standard")
    page.fill("#q", "西行妖")
    row = page.locator('#results li[data-number="N48"]')
    row.focus()
    expect(page.locator("#card-title")).to_have_text("西行妖 (N48)")
    card = page.request.get(server_url + "/cards/vision/N48").json()
    columns = {
        c["name"]: c["label"]
        for g in page.request.get(server_url + "/games").json()
        if g["id"] == "vision"
        for c in g["columns"]
    }
    terms = page.locator("#card-facts dt").all_inner_texts()
    values = page.locator("#card-facts dd").all_inner_texts()
    shown = dict(zip(terms, values, strict=True))
    for name in ("attack", "toughness", "graze", "class"):
        assert shown[columns[name]] == str(card[name]), shown
    assert shown["Also written"] == "048, No.048"
    expect(page.locator("#card-source")).to_have_text(f"Source: {card['source']}")

    # a name with several printings lists the others
    page.fill("#q", "博麗 霊夢")
    page.locator('#results li[data-number="N31"]').focus()
    expect(page.locator("#card-title")).to_have_text("博麗 霊夢 (N31)")
    others = page.locator("#card-printings li")
    expect(others.filter(has_text="N317")).to_have_count(1)
    assert not [t for t in others.all_inner_texts() if t.startswith("N31 ")]  # not itself

    # deck lines show the curve's facts; a focused deck line shows its card
    page.click("#paste-summary")
    page.fill("#paste", (EXAMPLES / "vision-standard-legal.deck").read_text(encoding="utf-8"))
    page.click("#load")
    expect_legal(page)
    line = (
        page.locator("#sections li[data-number]")
        .filter(has=page.locator(".curve-facts", has_text="cost"))
        .first
    )
    number = line.get_attribute("data-number")
    facts = page.request.get(server_url + f"/cards/vision/{number}").json()
    expect(line.locator(".curve-facts")).to_contain_text(f"cost {facts['cost']}")
    line.focus()
    expect(page.locator("#card-title")).to_have_text(f"{facts['name']} ({number})")
    shot(page, "32-card-details")
    assert violations == []
    context.close()


def test_search_sorts_card_numbers_as_numbers(web_app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(web_app) as http:
        found = http.get("/cards", params={"game": "vision", "q": "博麗 霊夢", "limit": 50}).json()
    numbers = [c["number"] for c in found if c["number"].startswith("N")]
    assert numbers == sorted(numbers, key=lambda n: int(n[1:])), numbers  # N31 before N178
    assert numbers.index("N31") < numbers.index("N178") < numbers.index("N1130")


def test_a_name_search_finds_spells_by_their_user(web_app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(web_app) as http:
        found = http.get("/cards", params={"game": "vision", "q": "霊夢", "limit": 200}).json()
        spells = http.get(
            "/cards", params={"game": "vision", "user": "霊夢", "type": "spell", "limit": 200}
        ).json()
    numbers = {c["number"] for c in found}
    assert spells and {c["number"] for c in spells} <= numbers  # 霊夢's spells, by 術者
    assert any("霊夢" not in c["name"] for c in found)  # found by 術者, not by name
