"""Ratings in the browser (docs/protocol.md 5): two accounts paired by quick match race a rated
race, whose results show each account's rating change; a rated race against a guest shows the
guest none; the player page shows the current rating (provisional) and its history as an SVG
chart with one point per rated race, and as a table."""

import json
import re

import pytest
from websockets.sync.client import connect

from tests.browser.support import cell, expect, open_and_play_on, wait_changed, wait_ready
from tests.browser.support.race import (
    api,
    hand_token,
    quick_match,
    resign,
    shoot,
    sign_up,
    unique,
)

pytestmark = pytest.mark.browser

CHANGE = re.compile(r"^(\d+) → (\d+)(\??) \(([+\u2212±])(\d+)\)$")


def open_rated_race(page, base_url: str, frame: dict) -> dict:
    """Open a matched race's page with its token; wait until it runs. Returns its state."""
    game = frame["game"]
    hand_token(page, game["id"], frame["token"])
    page.goto(base_url + game["page"])
    wait_ready(page)
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    return game


def wait_until_running(socket) -> None:
    """Read a racer's frames until its race runs (its welcome may find it counting down)."""
    while True:
        frame = json.loads(socket.recv(timeout=10))
        assert frame["type"] != "error", frame
        if frame["type"] == "started":
            return
        if frame["type"] == "welcome" and frame["game"]["status"] == "running":
            return


def check_change(row, result: dict) -> None:
    """The row's rating cell says result's rating_before → rating_after (with "?" while
    provisional) with the difference, and the league after the race (docs/protocol.md 8)."""
    text = row.locator("td.rating .rating-change").inner_text()
    before, after, provisional, sign, delta = CHANGE.match(text).groups()
    assert (int(before), int(after)) == (result["rating_before"], result["rating_after"])
    assert (provisional == "?") is result["provisional"]
    assert row.locator("td.rating").get_attribute("data-league") == result["league"]
    signed = {"+": 1, "\u2212": -1, "±": 0}[sign] * int(delta)
    assert signed == result["rating_after"] - result["rating_before"]


def test_rated_races_show_rating_changes_and_the_player_page_charts_them(open_page, base_url):
    alice, bob = open_page(), open_page()
    alice_name, bob_name = unique("alice"), unique("bob")
    sign_up(alice, base_url, alice_name)
    sign_up(bob, base_url, bob_name)

    # Quick match pairs the two accounts in a rated race; Alice opens the start cell, Bob
    # plays 3 moves that change his board (fewer, and his resignation would abort the race,
    # docs/protocol.md 6.2) and resigns (the race is decided: Alice first, 2.2), then Alice leaves.
    frames = quick_match(base_url, [alice, bob])
    game = open_rated_race(alice, base_url, frames[0])
    open_rated_race(bob, base_url, frames[1])
    assert game["rated"] and game["id"] == frames[1]["game"]["id"]
    x, y = game["start"]
    cell(alice, x, y).click()
    wait_changed(alice, x, y, "hidden")
    open_and_play_on(bob, x, y)
    resign(bob)
    resign(alice)
    for page in (alice, bob):
        expect(page.locator("#results-table")).to_be_visible()
        expect(page.locator("#seed-check")).to_be_visible()  # game_over, not only decided

    state = api(base_url, f"/api/games/{game['id']}/")
    results = {result["name"]: result for result in state["results"]}
    assert results[alice_name]["rank"] == 1
    for page in (alice, bob):
        expect(page.locator("#rating-head")).to_be_visible()
        expect(page.locator("#results-board")).to_contain_text("Rated")
        for name, result in results.items():
            row = page.locator(f'#results-table tr[data-name="{name}"]')
            expect(row.locator("td.rating")).to_contain_text("→")
            check_change(row, result)
    # A newcomer's first race of the season: placement, said above the table too.
    assert results[alice_name]["league"] == "placement"
    expect(alice.locator("#results-league .league")).to_have_text("Placement")
    expect(alice.locator("#rematch-button")).to_be_visible()
    shoot(alice, "results-rating-changes.png")
    first_rating = results[alice_name]["rating_after"]

    # A second rated race, against a guest: the guest's row has no rating change.
    frames = quick_match(base_url, [alice, "Guesty"])
    game = open_rated_race(alice, base_url, frames[0])
    x, y = game["start"]
    cell(alice, x, y).click()  # a race nobody played is not rated (docs/protocol.md 6.2)
    wait_changed(alice, x, y, "hidden")
    guest_url = base_url.replace("http", "ws", 1) + game["ws"]
    with connect(guest_url, origin=base_url, proxy=None) as guest:
        guest.send(json.dumps({"type": "hello", "role": "player", "token": frames[1]["token"]}))
        wait_until_running(guest)
        for number in (2, 3, 4):  # flag, unflag, flag: 3 moves that changed its board
            guest.send(json.dumps({"type": "flag", "x": 0, "y": 0, "id": number}))
        guest.send(json.dumps({"type": "resign", "id": 5}))
        while json.loads(guest.recv(timeout=10)).get("re") != 5:  # its resignation is in
            pass
        resign(alice)
        expect(alice.locator("#results-table")).to_be_visible()
    state = api(base_url, f"/api/games/{game['id']}/")
    results = {result["name"]: result for result in state["results"]}
    assert results["Guesty"]["rating_before"] is None
    guest_cell = alice.locator('#results-table tr[data-name="Guesty"] td.rating')
    expect(guest_cell).to_have_text("\N{EN DASH}")
    expect(guest_cell).to_have_attribute("title", "Guests are not rated")
    check_change(alice.locator(f'#results-table tr[data-name="{alice_name}"]'), results[alice_name])
    assert results[alice_name]["rating_before"] == first_rating
    last_rating = results[alice_name]["rating_after"]

    # Alice's page: her beginner rating, provisional, and its history charted point by point.
    alice.goto(f"{base_url}/players/{alice_name}/")
    wait_ready(alice)
    player = api(base_url, f"/api/players/{alice_name}/")
    (rating,) = player["ratings"]
    assert [entry["rating"] for entry in rating["history"]] == [first_rating, last_rating]
    card = alice.locator('.rating-card[data-preset="beginner"][data-variant="classic"]')
    expect(card).to_be_visible()
    expect(card.locator(".rating-value")).to_have_text(f"{last_rating}? (provisional)")
    expect(card.locator(".rating-card-head .league")).to_have_text("Placement")
    expect(card.locator(".provisional")).to_be_visible()
    expect(card.locator(".rating-games")).to_have_text("2 rated races")
    chart = card.locator("svg.rating-chart")
    expect(chart).to_have_attribute("role", "img")
    expect(chart.locator("title").first).to_contain_text("Beginner")
    expect(chart.locator("desc")).to_contain_text(f"from {first_rating} to {last_rating}")
    expect(chart.locator("circle.point")).to_have_count(len(rating["history"]))
    rows = card.locator("table.rating-history tbody tr")
    expect(rows).to_have_count(2)
    card.locator(".rating-table summary").click()  # the chart's numbers, as a table
    expect(rows.first).to_be_visible()
    expect(rows.last.locator("td.rating")).to_have_text(str(last_rating))
    shoot(alice, "player-ratings-chart.png")

    # Bob's page has his one race: a single point.
    alice.goto(f"{base_url}/players/{bob_name}/")
    wait_ready(alice)
    expect(alice.locator("#rating-cards svg.rating-chart circle.point")).to_have_count(1)
