"""Rematch from the results (docs/protocol.md 2.1): a racer who clicks Rematch goes straight into
the
successor race's waiting room; the other is offered it by name and joins from the offer; a
spectator may watch it; both race again on a fresh board of the same kind."""

import pytest

from tests.browser.support import expect, wait_ready
from tests.browser.support.race import (
    api,
    game_id_of,
    join,
    player_ids,
    racer,
    resign,
    shoot,
    start_race,
)

pytestmark = pytest.mark.browser


def test_rematch_takes_both_racers_into_the_next_race(open_page, base_url):
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner", "max_players": 3})
    url = base_url + game["page"]
    alice, bob = racer(open_page, "Alice"), racer(open_page, "Bob")
    for page in (alice, bob):
        join(page, url)
    watcher = open_page()
    watcher.goto(url + "?watch=1")
    wait_ready(watcher)
    start_race([alice, bob])
    for page in (alice, bob):
        expect(page.locator("#rematch-button")).to_be_hidden()  # not before the end
        resign(page)
    for page in (alice, bob):
        expect(page.locator("#results-table")).to_be_visible()
        expect(page.locator("#rematch-button")).to_be_visible()
        expect(page.locator("#rematch-offer")).to_be_hidden()
    expect(watcher.locator("#results-table")).to_be_visible()
    expect(watcher.locator("#rematch-button")).to_be_hidden()  # spectators have no seat

    # Alice asks: her page takes her into the successor's waiting room at once.
    alice.click("#rematch-button")
    old = game["id"]
    alice.wait_for_url(lambda url: "/games/" in url and f"/games/{old}/" not in url)
    successor = game_id_of(alice)
    assert alice.url == f"{base_url}/games/{successor}/"  # as a player, not watching
    wait_ready(alice)
    expect(alice.locator("#race-lobby")).to_be_visible()
    expect(alice.locator("#connection")).to_have_text("racing as Alice")

    # Bob is offered it by name and joins from the offer; the spectator may watch it.
    offer = bob.locator("#rematch-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("Alice asked for a rematch")
    shoot(bob, "results-rematch-offer.png")
    expect(bob.locator("#rematch-button")).to_be_hidden()
    expect(watcher.locator("#rematch-offer")).to_contain_text("Alice asked for a rematch")
    watch = watcher.locator("#rematch-join")
    expect(watch).to_have_text("Watch")
    expect(watch).to_have_attribute("href", f"/games/{successor}/?watch=1")
    join_link = bob.locator("#rematch-join")
    expect(join_link).to_have_text("Join")
    join_link.click()
    bob.wait_for_url(f"{base_url}/games/{successor}/")
    wait_ready(bob)
    expect(bob.locator("#connection")).to_have_text("racing as Bob")
    for page in (alice, bob):
        expect(page.locator("#players li")).to_have_count(2)

    # The successor is the same kind of race on a fresh board, and they race it.
    state = api(base_url, f"/api/games/{successor}/")
    assert (state["mode"], state["preset"], state["max_players"]) == ("race", "beginner", 3)
    assert state["seed_commitment"] != game["seed_commitment"]
    assert set(player_ids(base_url, successor)) == {"Alice", "Bob"}
    start_race([alice, bob])
