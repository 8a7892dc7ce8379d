"""Minerace TV (docs/protocol.md 4, v1.3): /tv/ watches the featured race and says whom, the
lobby's panel names it, a player page links its player's running race, and a few seconds after
the race ends /tv/ follows the next featured one. At 1280 px and on a 390 px phone."""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from contextlib import closing

import pytest

from tests.browser.support import JSON_HEADERS, PHONE, expect, wait_ready
from tests.browser.support.daily import shoot
from tests.browser.support.race import api, join, player_ids, racer, resign, start_race

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}


def account(base_url: str, name: str, address: str) -> None:
    """An account made as a program makes one (docs/protocol.md 3), from its own address."""
    body = json.dumps({"username": name, "password": "tv-test-pass-1"}).encode()
    headers = {**JSON_HEADERS, "X-Forwarded-For": address}
    request = urllib.request.Request(base_url + "/api/accounts/", data=body, headers=headers)
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 201


def featured_by_rating(database, game_id: str, player_id: str, name: str, rating: int) -> None:
    """Make a race rated and one racer the account `name`, rated `rating`: above any other
    test's race."""
    with closing(sqlite3.connect(database, timeout=30)) as db, db:
        db.execute("UPDATE games_game SET rated = 1 WHERE id = ?", (game_id,))
        user = db.execute("SELECT id FROM auth_user WHERE username = ?", (name,)).fetchone()[0]
        db.execute(
            "INSERT INTO ratings_rating (user_id, preset, variant, mu, sigma, display, games,"
            " frozen, updated_at) VALUES (?, 'beginner', 'classic', 25, 5, ?, 3, 0,"
            " datetime('now'))",
            (user, rating),
        )
        db.execute("UPDATE games_player SET user_id = ? WHERE id = ?", (user, player_id))


def running_race(open_page, base_url, server_database, names, account_name, rating):
    """A race of guests running in their pages, one of them now an account rated `rating`."""
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})
    pages = [racer(open_page, name) for name in names]
    for page in pages:
        join(page, f"{base_url}/games/{game['id']}/")
    start_race(pages)
    ids = player_ids(base_url, game["id"])
    account(base_url, account_name, f"10.33.0.{rating % 250}")
    featured_by_rating(server_database, game["id"], ids[names[0]], account_name, rating)
    return game["id"], pages


def test_tv_follows_the_featured_race_and_the_next_one(open_page, base_url, server_database):
    first, racers = running_race(
        open_page, base_url, server_database, ("Tia", "Ugo"), "tvstar", 2999
    )
    tv = open_page(viewport=DESKTOP)
    tv.goto(f"{base_url}/tv/")
    wait_ready(tv)
    expect(tv.locator("body")).to_have_attribute("data-game-id", first)
    expect(tv.locator("#connection")).to_have_text("spectating")
    expect(tv.locator("#tv-who")).to_contain_text("Tia (2999) vs Ugo")
    expect(tv.locator("#tv-why")).to_have_text("the rated race with the highest mean rating")
    expect(tv.locator(".common-ground")).to_be_visible()
    shoot(tv, "tv-1280.png")

    phone = open_page(viewport=PHONE)  # the lobby's panel names the same race
    phone.goto(f"{base_url}/")
    expect(phone.locator("#tv-panel")).to_have_attribute("data-game", first)
    expect(phone.locator("#tv-panel-who")).to_contain_text("Tia (2999) vs Ugo")
    expect(phone.locator("#tv-panel-watch")).to_have_attribute("href", "/tv/")
    phone.locator("#tv-panel").scroll_into_view_if_needed()
    shoot(phone, "tv-panel-390.png")
    phone.goto(f"{base_url}/players/tvstar/")  # Tia's page links the race she is in
    expect(phone.locator("#player-racing-link")).to_have_attribute(
        "href", f"/games/{first}/?watch=1"
    )

    # The next race starts; the first ends: a few seconds later TV shows the next one.
    second, others = running_race(
        open_page, base_url, server_database, ("Vic", "Wes"), "tvnext", 2990
    )
    for page in racers:
        resign(page)
    expect(tv.locator("#tv-next")).to_contain_text("next race")
    expect(tv.locator("body")).to_have_attribute("data-game-id", second, timeout=30_000)
    wait_ready(tv)
    expect(tv.locator("#tv-who")).to_contain_text("Vic (2990) vs Wes")
    tv.set_viewport_size(PHONE)
    shoot(tv, "tv-390.png")
    for page in others:
        resign(page)
