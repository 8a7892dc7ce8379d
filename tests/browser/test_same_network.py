"""Friends on one network (docs/protocol.md 6.2, v1.3): two accounts in two browsers behind one
public address race rated in quick match and in an arena; one account seeking in two windows
is not counted as its own opponent, and the panel says why. A laptop at 1280 px and a 390 px
phone, side by side."""

import re
import sqlite3
from contextlib import ExitStack, closing

import pytest

from tests.browser.support import PHONE, expect, wait_ready
from tests.browser.support.pages import Racer
from tests.browser.support.race import api, from_address, shoot, sign_up, unique
from tests.browser.test_quick_match import game_id_of
from tests.browser.test_tournaments import RACE_URL, running_arena

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
ONE_ADDRESS = "203.0.113.77"


def two_friends(open_page, base_url) -> tuple:
    """A laptop and a phone, two accounts, one public address."""
    laptop = open_page(viewport=DESKTOP)
    phone = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    for page, name in ((laptop, unique("lap")), (phone, unique("fon"))):
        from_address(page, ONE_ADDRESS)
        sign_up(page, base_url, name)
    return laptop, phone


def test_two_accounts_of_one_address_race_rated_in_quick_match(open_page, base_url):
    laptop, phone = two_friends(open_page, base_url)
    laptop.click("[data-quick=intermediate]")
    expect(laptop.locator("#quick-waiting")).to_have_text("1 searching: just you so far")
    expect(laptop.locator("#quick-note")).to_be_hidden()
    phone.click("[data-quick=intermediate]")
    for page in (laptop, phone):
        page.wait_for_url("**/games/*/", timeout=15_000)
        wait_ready(page)
    assert game_id_of(laptop) == game_id_of(phone)
    game = api(base_url, f"/api/games/{game_id_of(laptop)}/")
    assert game["rated"] is True and not any(p["bot"] for p in game["players"])
    for page in (laptop, phone):
        expect(page.locator("#connection")).to_have_text(re.compile("^racing as "))
        expect(page.locator("#unrated-note")).to_be_hidden()  # rated: nothing to excuse
    shoot(laptop, "same-network-quick-1280.png")
    shoot(phone, "same-network-quick-390.png")


def test_two_accounts_of_one_address_are_paired_in_an_arena(open_page, base_url, server_database):
    tournament_id = running_arena(server_database, unique("Friends Arena"))
    laptop, phone = two_friends(open_page, base_url)
    for page in (laptop, phone):
        page.goto(f"{base_url}/tournaments/{tournament_id}/")
        page.click("#join-button")
    for page in (laptop, phone):
        page.wait_for_url(RACE_URL, timeout=15_000)
        expect(page.locator("#tournament-bar")).to_be_visible()
    game = api(base_url, f"/api/games/{game_id_of(laptop)}/")
    assert game_id_of(phone) == game["id"] and game["rated"] is True
    shoot(phone, "same-network-arena-390.png")


def test_one_account_in_two_windows_is_not_its_own_opponent(open_page, base_url):
    laptop = open_page(viewport=DESKTOP)
    from_address(laptop, ONE_ADDRESS)
    sign_up(laptop, base_url, unique("twice"))
    other = laptop.context.new_page()  # the same browser, the same account: a second window
    other.set_viewport_size(PHONE)
    from_address(other, ONE_ADDRESS)
    other.goto(base_url + "/")
    laptop.click("[data-quick=expert]")
    expect(laptop.locator("#quick-waiting")).to_have_attribute("data-waiting", "1")
    other.click("[data-quick=expert]")
    for page in (laptop, other):
        expect(page.locator("#quick-waiting")).to_have_text("1 searching: just you so far")
        expect(page.locator("#quick-note")).to_have_text(
            re.compile("^Your account is seeking in another window too")
        )
    other.locator("#quick-search").scroll_into_view_if_needed()
    shoot(other, "same-account-note-390.png")
    shoot(laptop, "same-account-note-1280.png")
    other.click("#quick-cancel")
    expect(laptop.locator("#quick-note")).to_be_hidden(timeout=5000)
    laptop.click("#quick-cancel")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_race_played_unrated_says_why_before_it_starts(
    open_page, base_url, server_database, viewport
):
    """A pair past its day's rated races (docs/protocol.md 6.2): the server writes
    `unrated_because` on the race; its page says so in words from the waiting room on."""
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})
    with closing(sqlite3.connect(server_database)) as connection, connection:
        connection.execute(
            "UPDATE games_game SET unrated_because = 'pair_daily_cap' WHERE id = ?", (game["id"],)
        )
    assert api(base_url, f"/api/games/{game['id']}/")["unrated_because"] == "pair_daily_cap"
    page = open_page(viewport=viewport)
    page.add_init_script("localStorage.setItem('minerace.nickname', 'friend')")
    page.goto(base_url + game["page"])
    wait_ready(page)
    expect(page.locator("body")).to_have_attribute("data-phase", "lobby")
    said = re.compile("^Not rated: these two accounts have had today's rated")
    expect(page.locator("#lobby-rating")).to_have_text(said)  # the waiting room says it
    shoot(page, f"unrated-lobby-{viewport['width']}.png")
    with ExitStack() as stack:
        rival = Racer(stack, base_url, game["id"], unique("rival"))
        rival.request({"type": "ready"}, "ready")
        page.click("#ready-button")
        # From the countdown on, the line above the board says it.
        expect(page.locator("body")).to_have_attribute(
            "data-phase", re.compile("countdown|running")
        )
        note = page.locator("#unrated-note")
        expect(note).to_be_visible()
        expect(note).to_have_text(said)
        box, board = note.bounding_box(), page.locator("#board-scroll").bounding_box()
        assert box["y"] + box["height"] <= board["y"]  # read before the board, on any screen
        expect(page.locator("body")).to_have_attribute("data-phase", "running")
        expect(page.locator("#countdown")).to_be_hidden()  # "Go!" out of the way, for the shot
        shoot(page, f"unrated-note-{viewport['width']}.png")
