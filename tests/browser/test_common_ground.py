"""The spectator page of a running race (docs/protocol.md 4, v1.3): the race's common ground as
one board with each racer beside it (progress, 3BV solved, efficiency, live 3BV/s), no cell a
racer still playing has not opened, rated or casual alike; the end turns it into every
racer's board and the replay at once. At 1280 px and on a 390 px phone."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from games.engine import start_cell
from tests.browser.support import PHONE, board_states, cell, expect, wait_changed, wait_ready
from tests.browser.support.daily import shoot
from tests.browser.support.race import api, join, player_ids, racer, resign, start_race

pytestmark = pytest.mark.browser

SEED = "common-ground"
DESKTOP = {"width": 1280, "height": 800}


def make_rated(database, game_id: str) -> None:
    """A quick-match race is rated from its creation; here the test's own race is made so."""
    with closing(sqlite3.connect(database, timeout=30)) as connection, connection:
        connection.execute("UPDATE games_game SET rated = 1 WHERE id = ?", (game_id,))


def opened_in_common(page) -> dict[tuple[int, int], str]:
    cells = page.locator(".common-ground .cell:not([data-state='hidden'])")
    return {
        (x, y): state
        for x, y, state in cells.evaluate_all(
            "cells => cells.map(c => [Number(c.dataset.x), Number(c.dataset.y), c.dataset.state])"
        )
    }


@pytest.mark.parametrize(("rated", "viewport"), [(True, DESKTOP), (False, PHONE)])
def test_the_spectator_sees_the_common_ground_beside_the_racers_then_every_board(
    open_page, base_url, server_database, rated, viewport
):
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner", "seed": SEED})
    if rated:
        make_rated(server_database, game["id"])
    url = f"{base_url}/games/{game['id']}/"
    ann, bob = racer(open_page, "Ann"), racer(open_page, "Bob")
    watcher = open_page(viewport=viewport)
    join(ann, url)
    join(bob, url)
    watcher.goto(url + "?watch=1")
    wait_ready(watcher)
    start_race([ann, bob])
    expect(watcher.locator(".common-ground")).to_be_visible()
    expect(watcher.locator(".common-racers .racer")).to_have_count(2)

    ids = player_ids(base_url, game["id"])
    x, y = start_cell(9, 9, SEED)
    cell(ann, x, y).click()
    assert wait_changed(ann, x, y, "hidden") != "hidden"  # Ann's own board opens
    ann_card = watcher.locator(f'.common-racers .racer[data-player="{ids["Ann"]}"]')
    expect(ann_card.locator(".progress-bar")).not_to_have_attribute("style", "width: 0%;")
    expect(ann_card.locator(".racer-figures")).to_contain_text("3BV 1 · eff 100%")
    assert opened_in_common(watcher) == {}  # Bob has not opened it: no cell of hers

    cell(bob, x, y).click()  # now both have the start opening: it is common ground
    assert wait_changed(bob, x, y, "hidden") != "hidden"
    watcher.wait_for_function(
        "() => document.querySelectorAll('.common-ground .cell:not([data-state=\"hidden\"])')"
        ".length > 1"
    )
    opening = {xy: s for xy, s in board_states(ann).items() if s.isdigit()}
    assert opened_in_common(watcher) == opening
    rate = ann_card.locator(".racer-figures")
    expect(rate).to_contain_text("3BV/s")
    expect(watcher.locator("#spectate-replay")).to_be_hidden()
    watcher.locator(".common-ground").scroll_into_view_if_needed()
    shoot(watcher, f"common-ground-{viewport['width']}.png")

    resign(bob)
    resign(ann)
    expect(watcher.locator("body")).to_have_attribute("data-phase", "finished")
    replay = watcher.locator("#spectate-replay")
    expect(replay).to_be_visible()
    expect(replay).to_have_attribute("href", f"/games/{game['id']}/replay/")
    # Over: the common ground gives way to every racer's own board, at once.
    expect(watcher.locator(".common-ground")).to_have_count(0)
    ann_board = watcher.locator(f'.spectated-board[data-player="{ids["Ann"]}"]')
    expect(ann_board).to_be_visible()
    expect(ann_board.locator(f'.cell[data-x="{x}"][data-y="{y}"]')).to_have_attribute(
        "data-state", "0"
    )
    shoot(watcher, f"common-ground-over-{viewport['width']}.png")
