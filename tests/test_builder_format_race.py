"""A format chosen while the page's first format still loads wins (issue 38).

The page asks for its first format at start-up; a user (or a test) who picks another format
before that answer arrives used to get the later game's filters overwritten by the start-up
format's when its answer came last: a fresh-clone run waited 600 s for the chosen game's filter
field, whose label it had already seen. Here the start-up format's answer is held until the
chosen format is in place, then let through."""

from __future__ import annotations

from playwright.sync_api import Browser, Route

from tests.test_web import WAIT_MS, _watch, server_url, web_app  # noqa: F401  (fixtures)

# the type menu's types, sorted: the format whose rules the page holds lists its own
TYPE_MENU = (
    "[...document.querySelectorAll('#type option')].map((o) => o.value).filter(Boolean).sort()"
)


def test_a_late_answer_for_the_start_up_format_does_not_replace_the_chosen_one(
    browser: Browser,
    server_url: str,  # noqa: F811
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    violations = _watch(page)
    page.set_default_timeout(WAIT_MS)
    held: list[Route] = []

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)  # answered below, after the user's choice

    page.route("**/formats/*", hold_the_first)
    with page.expect_request("**/formats/*") as first:
        page.goto(server_url + "/")
    start_up = first.value.url.rsplit("/", 1)[-1]
    # a format of another game than the start-up one's: its search filters differ
    game_of = {f["id"]: f["game"] for f in page.request.get(server_url + "/formats").json()}
    offered = page.locator("#format option").evaluate_all("os => os.map((o) => o.value)")
    chosen = next(
        f for f in reversed(offered) if game_of.get(f, game_of[start_up]) != game_of[start_up]
    )
    # the chosen format's card types, which its type menu lists once its rules are in
    rules = page.request.get(f"{server_url}/formats/{chosen}").json()
    types = sorted({t for s in rules["sections"] for t in s["types"]["allowed"]})
    page.select_option("#format", chosen)
    # the chosen game's filters drawn: they come after its format (the game's entry of GET
    # /games is awaited in between), so the format alone is too early to read them
    page.wait_for_function(
        f"types => JSON.stringify({TYPE_MENU}) === JSON.stringify(types)"
        " && document.querySelector('#game-filters input') !== null",
        arg=types,
    )
    filters = page.locator("#game-filters").inner_html()
    assert 'id="filter-' in filters
    with page.expect_response(first.value.url) as late:
        held[0].continue_()
    late.value.finished()
    # the start-up choice's continuation runs after its answer's body is read: a few turns of
    # the page's event loop, which this lets pass before reading the page again
    page.evaluate("() => new Promise((done) => setTimeout(done, 300))")
    assert page.locator("#format").input_value() == chosen
    assert page.evaluate(f"() => {TYPE_MENU}") == types  # the chosen format's rules stand
    assert page.locator("#game-filters").inner_html() == filters
    assert violations == []
    context.close()
