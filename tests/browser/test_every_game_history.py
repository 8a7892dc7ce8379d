"""A newcomer's first evening leaves a trace (issue 35.2): an account that raced the house bot
finds that race on its player page, labelled with what it counted for (nothing: a bot was in
it), and filters its history by kind; the bests and charts say they are ranked games only.
A laptop at 1280 px and a 390 px phone."""

import re
from urllib.parse import quote

import pytest

from tests.browser.support import PHONE, expect, wait_ready
from tests.browser.support.race import from_address, resign, shoot, sign_up, unique

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_race_against_the_bot_is_on_the_new_accounts_page(open_page, base_url, viewport):
    page = open_page(viewport=viewport)
    name = unique("newbie")
    from_address(page, f"198.51.100.{120 + viewport['width'] % 7}")
    sign_up(page, base_url, name)
    page.click("[data-bot=quick]")  # the fast bot: it clears a beginner board in seconds
    page.wait_for_url("**/games/*/")
    wait_ready(page)
    page.click("#ready-button")
    expect(page.locator("body")).to_have_attribute("data-phase", "running", timeout=15_000)
    resign(page)
    expect(page.locator("body")).to_have_attribute("data-phase", "finished", timeout=60_000)

    page.goto(f"{base_url}/players/{quote(name)}/")
    wait_ready(page)
    rows = page.locator("#recent-table tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-kind", "bot")
    expect(rows.first.locator("td.counted")).to_have_text("Race vs bot · not counted")
    expect(rows.first.locator("td.status")).to_have_text(re.compile("Did not finish|DNF", re.I))
    expect(page.locator("#summary-games")).to_have_text("1")
    expect(page.locator("#bests-title")).to_contain_text("ranked games")
    expect(page.locator("#trend-title")).to_contain_text("ranked wins")
    page.locator("#player-history").scroll_into_view_if_needed()
    shoot(page, f"every-game-history-{viewport['width']}.png")

    # Filtered: the ranked games (none yet), then the races against a bot; kept in the URL.
    page.select_option("#filter-kind", "ranked")
    expect(page.locator("#history-empty")).to_be_visible()
    expect(page).to_have_url(re.compile(r"\?kind=ranked$"))
    page.select_option("#filter-kind", "bot")
    expect(rows).to_have_count(1)
    page.reload()
    wait_ready(page)
    expect(page.locator("#filter-kind")).to_have_value("bot")
    expect(rows).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
