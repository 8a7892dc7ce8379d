"""The decided duel in the browser (docs/protocol.md 2.2, issue 22.1): the winner, on a laptop, sees
its result, its rating change and the ways on the moment it wins, while the other racer, on a
390 px phone, is told it has lost and may play on or leave; game_over later keeps the ranks.
And the words agree with the ranking when nobody won (issue 22.6)."""

import re
import sqlite3
from contextlib import closing

import pytest

from games.engine import generate_board
from tests.browser.support import PHONE, board_states, cell, expect, wait_changed, wait_ready
from tests.browser.support.race import (
    api,
    hand_token,
    join,
    player_ids,
    quick_match,
    racer,
    resign,
    shoot,
    sign_up,
    start_race,
    unique,
)

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
CHANGE = re.compile(r"^1000 → (\d+)\?? \(([+\u2212])(\d+)\)$")  # "?": provisional


def secret_board(server_database, game_id: str):
    """The race's board, from the server's own database (no client can know it)."""
    with closing(sqlite3.connect(server_database)) as db:
        seed, width, height, mines, sx, sy = db.execute(
            "SELECT seed, width, height, mines, safe_x, safe_y FROM games_game WHERE id = ?",
            (game_id,),
        ).fetchone()
    return generate_board(width, height, mines, seed, (sx, sy))


def open_matched(page, base_url: str, frame: dict) -> None:
    game = frame["game"]
    hand_token(page, game["id"], frame["token"])
    page.goto(base_url + game["page"])
    wait_ready(page)
    expect(page.locator("body")).to_have_attribute("data-phase", "running")


def clear_board(page, board) -> None:
    """Click every safe cell still hidden, one at a time, until none is left."""
    while True:
        states = board_states(page)
        hidden = [board.xy(i) for i in range(board.size)
                  if not board.is_mine(i) and states[board.xy(i)] == "hidden"]  # fmt: skip
        if not hidden:
            return
        x, y = hidden[0]
        cell(page, x, y).click()
        wait_changed(page, x, y, "hidden")


def test_the_winner_of_a_rated_duel_sees_the_verdict_while_the_other_plays_on(
    open_page, base_url, server_database
):
    alice = open_page(viewport=DESKTOP)
    bob = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    alice_name, bob_name = unique("alice"), unique("bob")
    sign_up(alice, base_url, alice_name)
    sign_up(bob, base_url, bob_name)
    frames = quick_match(base_url, [alice, bob])
    open_matched(alice, base_url, frames[0])
    open_matched(bob, base_url, frames[1])
    game = frames[0]["game"]
    board = secret_board(server_database, game["id"])
    x, y = game["start"]
    cell(bob, x, y).tap()  # bob opens the start cell, then stops to think
    wait_changed(bob, x, y, "hidden")

    clear_board(alice, board)

    # Alice, the moment she wins: the final ranking, her rating change, the ways on.
    results = alice.locator("#race-results")
    expect(results).to_be_visible()
    expect(alice.locator("#results-title")).to_have_text("You won the race!")
    mine = alice.locator(f'#results-table tr[data-name="{alice_name}"]')
    expect(mine).to_have_attribute("data-rank", "1")
    expect(mine.locator("td.rating .rating-change")).to_have_text(CHANGE)
    assert CHANGE.match(mine.locator("td.rating .rating-change").inner_text()).group(2) == "+"
    theirs = alice.locator(f'#results-table tr[data-name="{bob_name}"]')
    expect(theirs).to_have_attribute("data-rank", "2")
    expect(theirs.locator(".status")).to_have_text("still playing")
    expect(alice.locator("#results-decided")).to_contain_text(f"{bob_name} may still play on")
    expect(alice.locator("#new-race")).to_be_visible()
    rematch = alice.locator("#rematch-button")
    expect(rematch).to_be_visible()
    expect(rematch).to_be_disabled()
    expect(alice.locator("#seed-check")).to_be_hidden()  # the seed comes with game_over
    expect(alice.locator("#race-status")).to_have_text(
        f"You won the race! {bob_name} may still play on."
    )
    # The rating is already applied: the API says so while the race still runs.
    state = api(base_url, f"/api/games/{game['id']}/")
    assert (
        state["status"] == "running"
        and state["winner"] == player_ids(base_url, game["id"])[alice_name]
    )
    shoot(alice, "decided-winner-desktop.png")

    # Bob, on the phone: he has lost, and may play on or leave; his board stays his.
    expect(bob.locator("#race-status")).to_have_text(
        f"You have lost: {alice_name} won the race, and you placed #2 of 2. "
        "You may play on or leave."
    )
    expect(bob.locator("#race-results")).to_be_hidden()
    expect(bob.locator("#resign-button")).to_have_text("Leave")  # his place is final
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(bob, "decided-still-playing-phone.png")
    states = board_states(bob)
    more = next(board.xy(i) for i in range(board.size)
                if not board.is_mine(i) and states[board.xy(i)] == "hidden")  # fmt: skip
    cell(bob, *more).tap()  # he plays on: the move is his as ever
    wait_changed(bob, *more, "hidden")

    resign(bob)
    for page in (alice, bob):
        expect(page.locator("#seed-check")).to_be_visible()  # game_over
        expect(page.locator(f'#results-table tr[data-name="{alice_name}"]')).to_have_attribute(
            "data-rank", "1"
        )
        expect(page.locator("#rematch-button")).to_be_enabled()
    expect(alice.locator("#results-title")).to_have_text("You won the race!")
    expect(bob.locator("#results-title")).to_have_text(
        f"{alice_name} won the race · you placed #2 of 2"
    )
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(bob, "decided-over-phone.png")


def test_a_race_nobody_won_is_worded_as_its_ranking_says(open_page, base_url):
    """Issue 22.6: Ann hit a mine with more cells open than Ben, who then hit one too. Ann read
    "You finished #1 of 2" and the page "nobody finished"; now every line says the same."""
    seed = unique("nobody")
    game = api(base_url, "/api/games/",
               {"mode": "race", "preset": "beginner", "seed": seed, "max_players": 2})  # fmt: skip
    url = base_url + game["page"]
    ann, ben = racer(open_page, "Ann"), racer(open_page, "Ben")
    for page in (ann, ben):
        join(page, url)
    start_race([ann, ben])
    state = api(base_url, f"/api/games/{game['id']}/")
    board = generate_board(9, 9, 10, seed, tuple(state["start"]))
    mine = board.xy(min(board.mines))
    cell(ann, *state["start"]).click()
    wait_changed(ann, *state["start"], "hidden")
    cell(ann, *mine).click()
    expect(ann.locator("#race-status")).to_contain_text("You hit a mine")  # ben may pass her
    cell(ben, *mine).click()

    nobody = "Nobody won the race · you placed"
    expect(ann.locator("#results-title")).to_have_text(f"{nobody} first of 2")
    expect(ben.locator("#results-title")).to_have_text(f"{nobody} #2 of 2")
    watcher = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    watcher.goto(url)  # the race is over: a visitor watches it
    expect(watcher.locator("#race-over-outcome")).to_contain_text(
        "Nobody won the race: all 2 racers lost or ran out of time, and Ann placed first."
    )
    wait_ready(watcher)
    expect(watcher.locator("#results-title")).to_have_text("Nobody won the race · Ann placed first")
    shoot(ann, "nobody-won-desktop.png")
    shoot(watcher, "nobody-won-phone.png")


def test_the_racer_left_alone_by_a_resignation_has_won_at_once(open_page, base_url):
    """Issue 22.1: after the opponent resigned, the race stayed "Race on!" until the whole
    board was cleared."""
    game = api(base_url, "/api/games/",
               {"mode": "race", "preset": "beginner", "max_players": 2})  # fmt: skip
    url = base_url + game["page"]
    ann = racer(open_page, "Ann")
    ben = racer(open_page, "Ben")
    ben.set_viewport_size(PHONE)
    for page in (ann, ben):
        join(page, url)
    start_race([ann, ben])
    resign(ben)
    expect(ann.locator("#race-status")).to_have_text(
        "You have won the race: every other racer is out. Clear the board for your time, or leave."
    )
    expect(ann.locator("#resign-button")).to_have_text("Leave")
    expect(ben.locator("#results-title")).to_have_text("Ann won the race · you placed #2 of 2")
    expect(ben.locator("#rematch-button")).to_be_disabled()  # until Ann stops
    shoot(ben, "decided-by-resigning-phone.png")
    resign(ann)
    expect(ann.locator("#results-title")).to_have_text("You won the race!")
    expect(ben.locator("#rematch-button")).to_be_enabled()
