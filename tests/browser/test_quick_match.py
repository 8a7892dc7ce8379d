"""Quick race from the lobby: two accounts who ask for the same board land in one rated race
that starts by itself; a seeker who cancels (or leaves the page) is out of the queue; a guest
who takes an account's name is told so by the panel; a seeker left alone races a bot."""

import os
import re
import sqlite3
import uuid
from pathlib import Path

import pytest

from tests.browser.support import expect, open_and_play_on, wait_ready
from tests.browser.support.pages import api
from tests.browser.support.race import from_address
from tests.support.waiting import wait_until

pytestmark = pytest.mark.browser

PASSWORD = "mine-field-42-Orbit"


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


def shoot(page, name: str, target=None) -> None:
    """A screenshot for a human, when MINERACE_SHOTS names a folder (e.g. /tmp/shots12)."""
    folder = os.environ.get("MINERACE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        path = str(Path(folder) / name)
        if target is None:
            page.screenshot(path=path, full_page=True)
        else:
            target.screenshot(path=path)


def sign_up(page, base_url: str, username: str) -> None:
    page.goto(base_url + "/accounts/signup/")
    form = page.locator("#signup-form")
    form.locator("[name=username]").fill(username)
    form.locator("[name=password1]").fill(PASSWORD)
    form.locator("[name=password2]").fill(PASSWORD)
    form.locator("[type=submit]").click()
    page.wait_for_url(base_url + "/")


def game_id_of(page) -> str:
    return re.search(r"/games/([A-Za-z0-9_-]+)/", page.url).group(1)


def seekers(database: Path, preset: str) -> list[str]:
    """The names in the server's quick-match queue for a preset, read from its database."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        rows = connection.execute(
            "SELECT name FROM matchmaking_seeker WHERE preset = ? ORDER BY id", (preset,)
        ).fetchall()
    return [name for (name,) in rows]


def wait_for_seekers(database: Path, preset: str, names: list[str]) -> None:
    wait_until(
        lambda: seekers(database, preset) == names,
        message=lambda: f"the queue to be {names} (it is {seekers(database, preset)})",
        timeout=5,
    )


def wait_for_match_passes(database: Path, name: str, passes: int) -> None:
    """Wait until `passes` whole match passes of the server have run. Each pass renews the
    lease of every seeker in the queue, then pairs whoever it can; so once `name`'s lease
    has been renewed `passes + 1` times, `passes` passes have run to their end."""

    def lease() -> str:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
            row = connection.execute(
                "SELECT expires_at FROM matchmaking_seeker WHERE name = ?", (name,)
            ).fetchone()
        assert row is not None, f"{name} left the queue"
        return row[0]

    leases = {lease()}

    def renewed() -> bool:
        leases.add(lease())
        return len(leases) > passes + 1

    wait_until(renewed, message=f"{passes} match passes to renew {name}'s lease", timeout=10)


def resign(page) -> None:
    page.click("#resign-button")
    page.click("#resign-yes")


def test_two_accounts_quick_match_into_one_rated_race(open_page, base_url):
    alice, bob = open_page(), open_page()
    names = {alice: unique("quick-alice"), bob: unique("quick-bob")}
    for number, (page, name) in enumerate(names.items(), start=1):
        from_address(page, f"198.51.100.{number}")  # two people: two addresses
        sign_up(page, base_url, name)
        expect(page.locator("#quick .section-intro")).to_contain_text(f"you race as {name}")
        expect(page.get_by_role("checkbox", name="No guessing")).not_to_be_checked()

    # Alice asks first and waits alone; Bob asks for the same board and they are paired.
    alice.click("[data-quick=beginner]")
    expect(alice.locator("#quick-search")).to_be_visible()
    expect(alice.locator("#quick-search-title")).to_have_text("Looking for an opponent on Beginner")
    expect(alice.locator("#quick-waiting")).to_have_text("1 searching: just you so far")
    expect(alice.locator("[data-quick=beginner]")).to_have_attribute("aria-pressed", "true")
    expect(alice.locator("[data-quick]:disabled")).to_have_count(3)
    bob.click("[data-quick=beginner]")

    for page in (alice, bob):
        page.wait_for_url("**/games/*/", timeout=15_000)
        wait_ready(page)
    game_id = game_id_of(alice)
    assert game_id_of(bob) == game_id

    # Each said hello with the token quick match gave it: a racer, not a spectator, and the
    # race starts by itself (both were made ready by the server).
    for page, name in names.items():
        expect(page.locator("#connection")).to_have_text(f"racing as {name}")
        expect(page.locator("body")).to_have_attribute("data-phase", "running")
        expect(page.locator("#resign-area")).to_be_visible()
    game = api(base_url, f"/api/games/{game_id}/")
    assert (game["preset"], game["rated"], game["no_guess"]) == ("beginner", True, False)
    assert sorted(player["name"] for player in game["players"]) == sorted(names.values())
    assert not any(player["is_bot"] for player in game["players"])

    # Alice opens the start cell and plays 2 more moves (a click and a resignation is not a
    # game, docs/protocol.md 6.2), then both resign: the race is over and rated; the ratings list
    # has both accounts.
    open_and_play_on(alice, *game["start"])
    resign(alice)
    resign(bob)
    for page in (alice, bob):
        expect(page.locator("#race-results")).to_be_visible()
    finished = api(base_url, f"/api/games/{game_id}/")
    assert finished["status"] == "finished"
    assert all(row["rating_after"] is not None for row in finished["results"])
    # Provisional after one race, so off the rating list; in placement on the season's ladder
    # (docs/protocol.md 8), which the Ratings page tells the account.
    table = api(base_url, "/api/ratings/beginner/?variant=classic")
    assert not set(names.values()) & {entry["name"] for entry in table["entries"]}
    alice.goto(base_url + "/ratings/?preset=beginner")
    wait_ready(alice)
    expect(alice.locator(f'#ratings-table tbody tr[data-name="{names[alice]}"]')).to_have_count(0)
    place = alice.locator("#your-place")
    expect(place.locator(".league")).to_have_text("Placement")
    expect(place).to_contain_text("4 more rated races to be placed")


def test_cancel_and_leaving_take_a_seeker_out_of_the_queue(open_page, base_url, server_database):
    first, second = open_page(), open_page()
    first.goto(base_url + "/")
    first.fill("#nickname", "Canceller")
    first.get_by_role("checkbox", name="No guessing").check()
    expect(first.locator("[data-quick] .tag-no-guess:visible")).to_have_count(3)

    first.click("[data-quick=intermediate]")
    search = first.locator("#quick-search")
    expect(search).to_be_visible()
    expect(first.locator("#quick-search-title")).to_have_text(
        "Looking for an opponent on Intermediate, no guessing"
    )
    expect(first.locator("#quick-waiting")).to_have_attribute("data-waiting", "1")
    # The counter runs: m:ss since the click.
    expect(first.locator("#quick-elapsed")).to_have_text("0:00")
    expect(first.locator("#quick-elapsed")).to_have_text(re.compile(r"^0:0[2-9]$"), timeout=5000)
    wait_for_seekers(server_database, "intermediate", ["Canceller"])
    shoot(first, "lobby-quick-searching.png", first.locator("#quick"))
    shoot(first, "lobby-quick-searching-page.png")

    first.click("#quick-cancel")
    expect(search).to_be_hidden()
    expect(first.locator("[data-quick]:enabled")).to_have_count(3)
    expect(first.locator("#quick-error")).to_be_hidden()
    wait_for_seekers(server_database, "intermediate", [])

    # A second seeker of the same board is alone: nobody pairs it with the one who cancelled.
    second.goto(base_url + "/")
    second.fill("#nickname", "Latecomer")
    second.get_by_role("checkbox", name="No guessing").check()
    second.click("[data-quick=intermediate]")
    expect(second.locator("#quick-waiting")).to_have_text("1 searching: just you so far")
    wait_for_seekers(server_database, "intermediate", ["Latecomer"])
    wait_for_match_passes(server_database, "Latecomer", passes=2)
    assert second.url == base_url + "/"
    expect(second.locator("#quick-search")).to_be_visible()
    assert seekers(server_database, "intermediate") == ["Latecomer"]

    # Leaving the page closes the socket, which cancels too.
    second.goto(base_url + "/leaderboards/")
    wait_for_seekers(server_database, "intermediate", [])


def test_a_guest_under_an_accounts_name_is_told_to_choose_another(open_page, base_url):
    owner = unique("owned")
    sign_up(open_page(), base_url, owner)
    guest = open_page()
    guest.goto(base_url + "/")
    expect(guest.locator("#quick .section-intro")).to_contain_text("log in")
    guest.fill("#nickname", owner)
    guest.click("[data-quick=expert]")

    error = guest.locator("#quick-error")
    expect(error).to_have_text(
        "That nickname belongs to an account: choose another one, or log in."
    )
    expect(guest.locator("#quick-search")).to_be_hidden()
    expect(guest.locator("[data-quick]:enabled")).to_have_count(3)
    nickname = guest.locator("#nickname")
    expect(nickname).to_have_attribute("aria-invalid", "true")
    expect(nickname).to_be_focused()

    # Another name clears the mark, and the search goes ahead.
    nickname.fill(unique("free"))
    expect(nickname).not_to_have_attribute("aria-invalid", "true")
    guest.click("[data-quick=expert]")
    expect(guest.locator("#quick-waiting")).to_have_attribute("data-waiting", "1")
    expect(error).to_be_hidden()
    guest.click("#quick-cancel")
    expect(guest.locator("#quick-search")).to_be_hidden()


def test_a_seeker_left_alone_races_a_bot(page, base_url):
    page.goto(base_url + "/")
    page.fill("#nickname", "Loner")
    page.get_by_role("checkbox", name="No guessing").check()
    page.click("[data-quick=beginner]")
    expect(page.locator("#quick-waiting")).to_have_attribute("data-waiting", "1")

    # Nobody else asks for a no-guess beginner: after the server's wait (20 s) a bot takes the
    # seat, and the page goes to that race like to any other, the counter having run on.
    expect(page.locator("#quick-elapsed")).to_have_text(re.compile(r"^0:1\d$"), timeout=15_000)
    page.wait_for_url("**/games/*/", timeout=30_000)
    wait_ready(page)
    expect(page.locator("#connection")).to_have_text("racing as Loner")
    game = api(base_url, f"/api/games/{game_id_of(page)}/")
    assert (game["preset"], game["no_guess"], game["rated"]) == ("beginner", True, False)
    assert [player["is_bot"] for player in game["players"]].count(True) == 1
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
