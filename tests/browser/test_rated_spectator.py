"""A rated race's spectator page (docs/protocol.md 4, v1.2): no cell of any racer until the end, a
note that says why, the racers' progress meanwhile, and the boards and the replay the moment
the race is over."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from games.engine import start_cell
from tests.browser.support import board_states, cell, expect, wait_changed, wait_ready
from tests.browser.support.race import api, join, player_ids, racer, resign, start_race

pytestmark = pytest.mark.browser

SEED = "rated-watch"


def make_rated(database, game_id: str) -> None:
    """A quick-match race is rated from its creation; here the test's own race is made so."""
    with closing(sqlite3.connect(database, timeout=30)) as connection, connection:
        connection.execute("UPDATE games_game SET rated = 1 WHERE id = ?", (game_id,))


def spectated_cells(page, player_id: str) -> dict[tuple[int, int], str]:
    cells = page.locator(f'.spectated-board[data-player="{player_id}"] .cell')
    return {
        (x, y): state
        for x, y, state in cells.evaluate_all(
            "cells => cells.map(c => [Number(c.dataset.x), Number(c.dataset.y), c.dataset.state])"
        )
    }


def test_a_rated_races_spectator_sees_progress_then_the_boards_and_the_replay(
    open_page, base_url, server_database
):
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner", "seed": SEED})
    make_rated(server_database, game["id"])
    url = f"{base_url}/games/{game['id']}/"
    ann, bob, watcher = racer(open_page, "Ann"), racer(open_page, "Bob"), open_page()
    join(ann, url)
    join(bob, url)
    watcher.goto(url + "?watch=1")
    wait_ready(watcher)
    expect(watcher.locator("#rated-note")).to_be_visible()
    expect(watcher.locator("#rated-note")).to_contain_text("the boards open when it is over")
    expect(watcher.locator("#delay-note")).to_be_hidden()
    start_race([ann, bob])

    ids = player_ids(base_url, game["id"])
    x, y = start_cell(9, 9, SEED)
    cell(ann, x, y).click()
    assert wait_changed(ann, x, y, "hidden") != "hidden"  # Ann's own board opens
    ann_row = watcher.locator(f'.spectated-board[data-player="{ids["Ann"]}"]')
    expect(ann_row.locator(".progress-bar")).not_to_have_attribute("style", "width: 0%;")
    assert set(spectated_cells(watcher, ids["Ann"]).values()) == {"hidden"}  # no cell of hers
    expect(watcher.locator("#spectate-replay")).to_be_hidden()

    resign(bob)
    resign(ann)
    expect(watcher.locator("body")).to_have_attribute("data-phase", "finished")
    expect(watcher.locator("#rated-note")).to_be_hidden()
    replay = watcher.locator("#spectate-replay")
    expect(replay).to_be_visible()
    expect(replay).to_have_attribute("href", f"/games/{game['id']}/replay/")
    # Once over the game is public: the spectator's boards are the racers' own.
    watcher.wait_for_function(
        """([id, x, y]) => {
            const c = document.querySelector(
                `.spectated-board[data-player="${id}"] .cell[data-x="${x}"][data-y="${y}"]`);
            return c && c.dataset.state !== "hidden";
        }""",
        arg=[ids["Ann"], x, y],
    )
    ann_states = board_states(ann)
    opened = {xy: state for xy, state in ann_states.items() if state.isdigit()}
    assert opened and {xy: spectated_cells(watcher, ids["Ann"])[xy] for xy in opened} == opened
