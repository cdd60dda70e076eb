"""The builder's playtester (issue 32, item 1), in Chromium: a shipped tournament list dealt by
its format, five turns played by hand with the game's per-turn steps applied, an undo and a
restart; the same for ラクエンロジック. The zones and steps come from the game's spec
(``GET /games/{game}/playtest``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from starlette.testclient import TestClient

from deckcheck import plugins
from tests.conftest import EXAMPLES
from tests.test_web import expect_legal, open_builder, server_url, settled, shot, web_app

__all__ = ["server_url", "web_app"]  # the browser tests' fixtures, reused (browser: conftest)

VISION = EXAMPLES / "vision-standard-hangonchou.deck"  # a real tournament list
RAKUEN = EXAMPLES / "rakuen-standard-legal.deck"


def test_every_game_serves_its_table(web_app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(web_app) as http:
        for spec in plugins.specs():
            answer = http.get(f"/games/{spec.id}/playtest")
            if spec.play.playtest is None:  # a plugin game without a table (the Kite test game)
                assert answer.status_code == 404, answer.text
                continue
            table = answer.json()
            names = [z["name"] for z in table["zones"]]
            assert table["deck"] in names and table["hand"] in names
            assert any(s["action"] == "draw" for s in table["steps"])
            assert all(s["rule"] for s in table["steps"])  # every step names its source
        ja = http.get("/games/vision/playtest", headers={"Accept-Language": "ja"}).json()
        assert "ノードエリア" in [z["label"] for z in ja["zones"]]
        missing = http.get("/games/nope/playtest")
        assert missing.status_code == 404 and "nope" in missing.json()["detail"]


def load(page: Page, deck: str) -> None:
    """Paste ``deck`` into a page ``open_builder`` opened (and so has let settle)."""
    if not page.locator("#paste").is_visible():
        page.click("#paste-summary")
    page.fill("#paste", deck)
    page.click("#load")
    expect_legal(page)


def zone(page: Page, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f'.pt-zone[data-zone="{name}"] .pt-card')


def deck_count(page: Page) -> int:
    return int(page.locator("#pt-deck-count").inner_text().split()[0])


def move(page: Page, card, target: str) -> None:  # type: ignore[no-untyped-def]
    card.click()
    page.click(f'#pt-actions button[data-zone="{target}"]')


def deal_with(page: Page, kind_of_card: str) -> None:
    """Deal on the play with the first shuffle number whose opening hand holds such a card (the
    shuffle is the page's seeded one, so the same number deals the same hand)."""
    for seed in range(1, 40):
        page.fill("#pt-seed", str(seed))
        page.click("#pt-deal")
        expect(page.locator("#pt-turn")).to_have_text("Set-up")
        if zone(page, "hand").and_(page.locator(f'[data-type="{kind_of_card}"]')).count():
            return
    raise AssertionError(f"no shuffle up to 40 dealt a {kind_of_card}")


def test_vision_five_turns_undo_restart(browser, server_url: str) -> None:  # type: ignore[no-untyped-def]
    context, page, violations = open_builder(browser, server_url, "desktop", lang="en")
    load(page, VISION.read_text(encoding="utf-8"))
    page.select_option("#pt-side", "play")
    deal_with(page, "character")
    expect(zone(page, "hand")).to_have_count(7)  # the format's opening hand
    expect(zone(page, "side")).to_have_count(10)  # the sideboard, out of the game
    assert deck_count(page) == 43
    expect(page.locator("#pt-mulligan")).to_be_hidden()  # the format: no mulligan
    first_hand = zone(page, "hand").all_inner_texts()
    hand = 7
    for turn in range(1, 6):
        page.click("#pt-pass")
        expect(page.locator("#pt-turn")).to_have_text(f"Turn {turn}")
        hand += 0 if turn == 1 else 1  # no draw on the first player's first turn
        expect(zone(page, "hand")).to_have_count(hand)
        steps = page.locator("#pt-steps li")
        expect(steps.filter(has_text="Draw phase")).to_contain_text(
            "not on the first player's first turn" if turn == 1 else "drew 1 card"
        )
        expect(steps.filter(has_text="pay each 維持コスト")).to_contain_text("yours to follow")
        expect(steps.filter(has_text="your nodes wake")).to_contain_text("card")  # applied
        # the active phase woke the character that attacked, the maintenance phase the nodes
        expect(page.locator(".pt-zone .pt-card.asleep")).to_have_count(0)
        move(page, zone(page, "hand").first, "node")  # set a node
        hand -= 1
        character = zone(page, "hand").and_(page.locator('[data-type="character"]'))
        if turn == 1:
            move(page, character.first, "field")  # play a character
            hand -= 1
        expect(zone(page, "node")).to_have_count(turn)
        zone(page, "node").first.click()  # pay with a node: sleep it
        page.click("#pt-sleep")
        if turn > 1:  # the character attacks: it sleeps (S on the card, from the keyboard)
            zone(page, "field").first.focus()
            page.keyboard.press("s")
        expect(page.locator(".pt-zone .pt-card.asleep")).to_have_count(1 if turn == 1 else 2)
        shot(page, f"32-playtest-vision-turn{turn}")
    assert deck_count(page) == 43 - 4
    # undo: the character's attack, then the node's sleep
    page.click("#pt-undo")
    expect(page.locator(".pt-zone .pt-card.asleep")).to_have_count(1)
    expect(zone(page, "field")).to_have_count(1)
    page.click("#pt-undo")
    expect(page.locator(".pt-zone .pt-card.asleep")).to_have_count(0)
    # a number key moves a card: 4 is the field
    zone(page, "hand").first.focus()
    page.keyboard.press("4")
    expect(zone(page, "field")).to_have_count(2)
    page.click("#pt-restart")  # the same shuffle: the same hand again
    expect(page.locator("#pt-turn")).to_have_text("Set-up")
    assert zone(page, "hand").all_inner_texts() == first_hand
    expect(zone(page, "field")).to_have_count(0)
    page.click("#pt-new")
    expect(zone(page, "hand")).to_have_count(7)
    assert violations == []
    context.close()


def test_rakuen_five_turns_undo_restart(browser, server_url: str) -> None:  # type: ignore[no-untyped-def]
    context, page, violations = open_builder(browser, server_url, "desktop", lang="en")
    load(page, RAKUEN.read_text(encoding="utf-8"))
    page.select_option("#pt-side", "play")
    deal_with(page, "member")
    expect(zone(page, "hand")).to_have_count(5)
    expect(zone(page, "gate")).to_have_count(6)  # the top 6 gates on the circles
    expect(zone(page, "removed")).to_have_count(4)  # the rest removed
    assert deck_count(page) == 45
    # the format's mulligan: chosen cards to the bottom, as many drawn, once
    zone(page, "hand").nth(0).click()
    zone(page, "hand").nth(1).click()
    page.click("#pt-mulligan")
    expect(zone(page, "hand")).to_have_count(5)
    expect(page.locator("#pt-mulligan")).to_be_hidden()
    assert deck_count(page) == 45
    hand = 5
    for turn in range(1, 6):
        page.click("#pt-pass")
        expect(page.locator("#pt-turn")).to_have_text(f"Turn {turn}")
        hand += 2  # two a turn, from the first player's first turn
        expect(zone(page, "hand")).to_have_count(hand)
        expect(zone(page, "stock")).to_have_count(turn)  # then the deck's top card to the stock
        expect(zone(page, "stock").first).to_have_text("face-down card")
        expect(page.locator(".pt-zone .pt-card.asleep")).to_have_count(0)  # stand phase
        if turn <= 4:  # a level card a turn, at most 4
            move(page, zone(page, "hand").first, "level")
            hand -= 1
        members = zone(page, "hand").and_(page.locator('[data-type="member"]'))
        if members.count():
            move(page, members.first, "field")
            hand -= 1
        zone(page, "level").first.click()
        page.click("#pt-sleep")
        expect(page.locator(".pt-zone .pt-card.asleep")).to_have_count(1)
        shot(page, f"32-playtest-rakuen-turn{turn}")
    assert deck_count(page) == 45 - 5 * 3
    before = zone(page, "level").count()
    page.click("#pt-undo")  # the level card's sleep
    expect(page.locator(".pt-zone .pt-card.asleep")).to_have_count(0)
    assert zone(page, "level").count() == before
    page.click("#pt-restart")
    expect(zone(page, "hand")).to_have_count(5)
    expect(zone(page, "stock")).to_have_count(0)
    expect(page.locator("#pt-mulligan")).to_be_visible()
    assert violations == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_playtest_survives_a_reload(browser, server_url: str, lang: str) -> None:  # type: ignore[no-untyped-def]
    context, page, violations = open_builder(browser, server_url, "phone", lang=lang)
    load(page, VISION.read_text(encoding="utf-8"))
    page.fill("#pt-seed", "5")
    page.click("#pt-deal")
    page.click("#pt-pass")
    move(page, zone(page, "hand").first, "node")
    hand = zone(page, "hand").all_inner_texts()
    other = "ja" if lang == "en" else "en"
    page.click(f'#language button[data-lang="{other}"]')
    page.wait_for_url(f"**lang={other}**")
    settled(page)  # the new page: the node count below is read there, not on the old one
    expect(zone(page, "node")).to_have_count(1)
    assert len(zone(page, "hand").all_inner_texts()) == len(hand)
    page.click("#pt-undo")  # the history came back too
    expect(zone(page, "node")).to_have_count(0)
    assert violations == []
    context.close()
