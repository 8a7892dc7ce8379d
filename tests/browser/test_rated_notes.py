"""What a player is told about ratings and names (issues 22.4 and 22.6): a rematch of a rated
quick race says it is not rated, in the offer and in its waiting room; the lobby's quick race
says a race against a bot is not rated; a guest's leaderboard row whose name an account took
since does not lead to that account's page. Desktop and a 390 px phone."""

import pytest

from tests.browser.support import PHONE, cell, expect, wait_changed, wait_ready
from tests.browser.support.pages import api, play_ranked_win
from tests.browser.support.race import from_address, join, racer, start_race
from tests.browser.support.race import resign as race_resign
from tests.browser.test_quick_match import game_id_of, resign, shoot, sign_up, unique
from tests.support.waiting import wait_until

pytestmark = pytest.mark.browser

WIDE = {"width": 1280, "height": 800}  # the desktop of the aborted race's note


def rated_race(open_page, base_url, **options) -> tuple:
    """Two accounts paired by quick match, the race played (one click) and over: aborted, as
    one click and a resignation is not a game (docs/protocol.md 6.2)."""
    alice, bob = open_page(**options), open_page(**options)
    for number, page in enumerate((alice, bob), start=1):
        from_address(page, f"198.51.100.{40 + number}")
        sign_up(page, base_url, unique(f"notes-{number}"))
    for page in (alice, bob):
        page.click("[data-quick=beginner]")
    for page in (alice, bob):
        page.wait_for_url("**/games/*/", timeout=15_000)
        wait_ready(page)
    game = api(base_url, f"/api/games/{game_id_of(alice)}/")
    assert game["rated"] is True
    x, y = game["start"]
    cell(alice, x, y).click()
    wait_changed(alice, x, y, "hidden")
    resign(alice)
    resign(bob)
    for page in (alice, bob):
        expect(page.locator("#race-results")).to_be_visible()
    return alice, bob, game


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_click_and_a_resignation_says_why_no_rating_moved(open_page, base_url, device):
    options = {"viewport": PHONE, "has_touch": True} if device == "phone" else {"viewport": WIDE}
    alice, bob, game = rated_race(open_page, base_url, **options)
    finished = api(base_url, f"/api/games/{game['id']}/")
    assert (finished["aborted"], finished["aborted_because"]) == (True, "left_early")
    for page in (alice, bob):
        note = page.locator("#results-aborted")
        expect(note).to_be_visible()
        expect(note).to_have_text(
            "No rating or tournament point changed: a racer left before making 3 moves that "
            "changed its board, so this race does not count."
        )
        expect(page.locator("#results-board")).to_contain_text("Aborted: not rated")
        expect(page.locator("#results-board")).not_to_contain_text("· Rated")
        for row in finished["results"]:
            change = page.locator(f'#results-table tr[data-name="{row["name"]}"] td.rating')
            expect(change).to_have_attribute("data-change", "same")
    # The note above the board takes room, not rows: the whole board still shows.
    shown, tall = alice.locator("#board-scroll").evaluate(
        "box => [box.clientHeight, box.scrollHeight]"
    )
    assert tall <= shown, (shown, tall)
    shoot(alice, f"race-aborted-{device}.png")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_rematch_of_a_rated_race_says_it_is_not_rated(open_page, base_url, device):
    options = {"viewport": PHONE, "has_touch": True} if device == "phone" else {}
    alice, bob, game = rated_race(open_page, base_url, **options)
    expect(alice.locator("#rematch-button")).to_have_attribute(
        "title", "Race again on a fresh board of this kind: a rematch is not rated"
    )
    alice.click("#rematch-button")
    alice.wait_for_url(lambda url: f"/games/{game['id']}/" not in url)
    wait_ready(alice)
    note = alice.locator("#lobby-rating")
    expect(note).to_be_visible()
    expect(note).to_have_text("Not rated: only quick races move ratings.")
    assert api(base_url, f"/api/games/{game_id_of(alice)}/")["rated"] is False
    shoot(alice, f"rematch-room-unrated-{device}.png")
    offer = bob.locator("#rematch-text")
    expect(offer).to_contain_text("asked for a rematch (not rated)")
    shoot(bob, f"rematch-offer-unrated-{device}.png")


def test_the_quick_race_says_a_bot_race_is_not_rated(open_page, base_url):
    page = open_page()
    from_address(page, "198.51.100.49")
    sign_up(page, base_url, unique("notes-bot"))
    intro = page.locator("#quick .section-intro")
    expect(intro).to_contain_text("a bot near your level takes the seat")
    expect(page.locator("#quick-bot-unrated")).to_have_text("a race against a bot is not rated")
    shoot(page, "lobby-quick-bot-unrated.png", page.locator("#quick"))


def test_a_bot_race_waiting_room_says_it_is_not_rated(page, base_url):
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner", "bot": "relaxed"})
    page.goto(base_url + game["page"])
    wait_ready(page)
    expect(page.locator("#lobby-rating")).to_have_text(
        "Not rated: a race with a bot in it never is."
    )


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_claimed_guest_row_does_not_link_to_the_accounts_page(
    open_page, base_url, server_database, device
):
    options = {"viewport": PHONE, "has_touch": True} if device == "phone" else {}
    guest = unique(f"claimed-{device}")
    other = unique(f"guest-{device}")
    play_ranked_win(open_page(**options), base_url, server_database, guest)
    play_ranked_win(open_page(**options), base_url, server_database, other)
    account = open_page(**options)
    from_address(account, "198.51.100.60" if device == "phone" else "198.51.100.61")
    sign_up(account, base_url, guest.upper())  # the guest's name, in other letters' case

    page = open_page(**options)
    page.goto(base_url + "/leaderboards/?preset=beginner")
    wait_ready(page)
    claimed = page.locator(f'#leaderboard-table tbody tr[data-name="{guest}"]')
    expect(claimed).to_have_count(1)
    expect(claimed.locator(".player-link")).to_have_count(0)
    expect(claimed.locator(".player-name")).to_have_text(guest)
    free = page.locator(f'#leaderboard-table tbody tr[data-name="{other}"] .player-link')
    expect(free).to_have_attribute("href", f"/players/{other}/")
    shoot(page, f"leaderboard-claimed-guest-{device}.png")


def test_a_rematch_room_that_closed_empty_gives_the_rematch_button_back(open_page, base_url):
    """Issue 22.4: the successor nobody stayed in closes after LOBBY_IDLE_S; the offer on
    the other racer's results goes, and Rematch makes a fresh room rather than the dead one."""
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})
    url = base_url + game["page"]
    alice, bob = racer(open_page, "Alma"), racer(open_page, "Boris")
    for page in (alice, bob):
        join(page, url)
    start_race([alice, bob])
    for page in (alice, bob):
        race_resign(page)
    for page in (alice, bob):
        expect(page.locator("#rematch-button")).to_be_visible()
    alice.click("#rematch-button")
    alice.wait_for_url(lambda url: f"/games/{game['id']}/" not in url)
    successor = game_id_of(alice)
    wait_ready(alice)
    expect(bob.locator("#rematch-offer")).to_be_visible()
    alice.click("#leave-button")  # nobody in it now
    wait_until(
        lambda: api(base_url, f"/api/games/{successor}/")["players"] == [],
        message="Alma to have left the rematch room",
    )

    expect(bob.locator("#rematch-offer")).to_be_hidden(timeout=40_000)  # LOBBY_IDLE_S: 15 s
    expect(bob.locator("#rematch-button")).to_be_visible()
    bob.click("#rematch-button")
    bob.wait_for_url(lambda url: f"/games/{game['id']}/" not in url)
    fresh = game_id_of(bob)
    assert fresh != successor
    wait_ready(bob)
    expect(bob.locator("#connection")).to_have_text("racing as Boris")
