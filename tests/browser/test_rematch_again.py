"""Rematch when the other seat cannot simply come back (issue 35.3): the house bot accepts at
once, its level the same, so Rematch after a race against a bot is a race against that bot
again; after a quick match whose opponent has left, Rematch offers a new quick match on the same
board instead of an empty room. A laptop at 1280 px and a 390 px phone."""

import re

import pytest

from tests.browser.support import PHONE, expect, wait_ready
from tests.browser.support.race import (
    api,
    game_id_of,
    hand_token,
    quick_match,
    racer,
    resign,
    shoot,
    unique,
)

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])


@SIZES
def test_the_house_bot_accepts_a_rematch_at_once(open_page, base_url, viewport):
    page = racer(lambda: open_page(viewport=viewport), unique("ann"))
    page.goto(base_url + "/")
    page.click("[data-bot=quick]")
    page.wait_for_url("**/games/*/")
    wait_ready(page)
    first = game_id_of(page)
    page.click("#ready-button")
    expect(page.locator("body")).to_have_attribute("data-phase", "running", timeout=15_000)
    resign(page)
    expect(page.locator("body")).to_have_attribute("data-phase", "finished", timeout=60_000)
    page.click("#rematch-button")
    page.wait_for_url(lambda url: "/games/" in url and f"/games/{first}/" not in url)
    wait_ready(page)
    second = api(base_url, f"/api/games/{game_id_of(page)}/")
    bots = [p for p in second["players"] if p["is_bot"]]
    assert [b["name"] for b in bots] == ["Bot 2.8 3BV/s"] and bots[0]["status"] == "ready"
    assert second["max_players"] == 2 and second["rated"] is False
    bot_row = page.locator("#players li", has_text="Bot 2.8 3BV/s")
    expect(bot_row).to_contain_text("ready")
    expect(page.locator("#share-link")).to_be_visible()  # a race like any, but nobody to wait for
    shoot(page, f"bot-rematch-{viewport['width']}.png")
    page.click("#ready-button")  # and it starts as a race against the bot does
    expect(page.locator("body")).to_have_attribute("data-phase", "running", timeout=15_000)


@SIZES
def test_a_quick_match_rematch_whose_opponent_left_offers_a_new_quick_match(
    open_page, base_url, viewport
):
    names = [unique("stay"), unique("gone")]
    frames = quick_match(base_url, names)
    pages = []
    for name, frame in zip(names, frames, strict=True):
        page = racer(lambda: open_page(viewport=viewport), name)
        page.goto(base_url + "/")
        hand_token(page, frame["game"]["id"], frame["token"])
        page.goto(base_url + frame["game"]["page"])
        wait_ready(page)
        pages.append(page)
    stay, gone = pages
    for page in pages:
        expect(page.locator("body")).to_have_attribute("data-phase", "running", timeout=15_000)
    resign(gone)
    resign(stay)
    for page in pages:
        expect(page.locator("body")).to_have_attribute("data-phase", "finished")
    gone.context.close()  # the opponent leaves
    stay.click("#rematch-button")
    offer = stay.locator("#rematch-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("Your opponent has left")
    link = stay.locator("#rematch-join")
    expect(link).to_have_text("Find a new quick match")
    expect(link).to_have_attribute("href", "/?quick=beginner#quick")
    assert f"/games/{frames[0]['game']['id']}/" in stay.url  # not taken into an empty room
    offer.scroll_into_view_if_needed()
    shoot(stay, f"rematch-alone-{viewport['width']}.png")
    link.click()
    stay.wait_for_url(re.compile(r"/#quick$"))
    expect(stay.locator("#quick-search")).to_be_visible()
    expect(stay.locator("#quick-search-title")).to_have_text("Looking for an opponent on Beginner")
    stay.click("#quick-cancel")
