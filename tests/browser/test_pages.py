"""The leaderboards, player, replay and account pages: a ranked win shows up everywhere and
replays to the game's own final board; a race replays mid-way; tabs live in the URL; accounts
sign up, log out and log in."""

import os
import re
import uuid
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from tests.browser.support import LAPTOP, PHONE, board_states, expect, wait_ready
from tests.browser.support.pages import (
    api,
    final_view,
    open_replay,
    play_race,
    play_ranked_win,
    replay_states,
)

pytestmark = pytest.mark.browser

RACE_SEED = "replay-race"


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


def shoot(page, name: str) -> None:
    """A screenshot for a human, when MINERACE_SHOTS names a folder (e.g. /tmp/shots)."""
    folder = os.environ.get("MINERACE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


@pytest.fixture(scope="module")
def race(base_url) -> dict:
    """A finished race of two (one won, one lost), shared by the replay tests."""
    return play_race(base_url, RACE_SEED)


def test_ranked_win_on_leaderboard_player_page_and_replay(page, base_url, server_database):
    name = unique("ace")
    game = play_ranked_win(page, base_url, server_database, name)
    final_board = board_states(page)
    (result,) = game["results"]
    assert result["status"] == "won"
    player_id = result["player"]
    shown_time = f"{result['time_ms'] / 1000:.3f} s"

    # The leaderboard: the name, a guest mark, the time with three decimals, a replay link.
    page.goto(base_url + "/leaderboards/?preset=beginner&period=day&ranking=time")
    wait_ready(page)
    row = page.locator(f'#leaderboard-table tbody tr[data-name="{name}"]')
    expect(row).to_have_count(1)
    expect(row.locator("td.time")).to_have_text(shown_time)
    expect(row.locator("td.bbbv")).to_have_text(str(result["bbbv"]))
    expect(row.locator(".badge-guest")).to_have_text("guest")
    expect(row.locator(".replay-link")).to_have_attribute("href", f"/games/{game['id']}/replay/")
    entries = api(base_url, "/api/leaderboards/beginner/?period=day&ranking=time")["entries"]
    (rank,) = [e["rank"] for e in entries if e["name"] == name]
    assert int(row.get_attribute("data-rank")) == rank
    expect(page.locator("#leaderboard-empty")).to_be_hidden()

    # On a 390 px phone the table fits the screen, its last columns (the time, 3BV/s, the
    # replay) on it, nothing to scroll sideways (issue 22.6).
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    frame = page.locator("#leaderboard-table").locator("xpath=..")
    assert frame.evaluate("s => s.scrollWidth <= s.clientWidth")
    for column in ("td.time", "td.rate", ".replay-link"):
        box = row.locator(column).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], column
    shoot(page, "leaderboard-phone.png")
    page.set_viewport_size(LAPTOP)
    expect(row.locator("td.bbbv")).to_be_visible()

    # The player page, through the name's link: the beginner best and the recent game.
    row.locator(".player-link").click()
    page.wait_for_url(f"**/players/{name}/")
    wait_ready(page)
    expect(page.locator("#player-name")).to_have_text(name)
    expect(page.locator("#player-badge")).to_have_text("guest")
    best = page.locator('.best-card[data-preset="beginner"] .best[data-kind="time"]')
    expect(best.locator(".best-value")).to_have_text(shown_time)
    expect(
        page.locator('.best-card[data-preset="expert"] .best[data-kind="time"]')
    ).to_contain_text("no win yet")
    recent = page.locator(f'#recent-table tbody tr[data-game="{game["id"]}"]')
    expect(recent.locator("td.status")).to_have_text("Won")
    expect(recent.locator("td.clicks")).to_have_text(str(result["clicks"]))

    # The replay, played at 4x to its end, reaches the game page's final board exactly.
    best.locator(".replay-link").click()
    page.wait_for_url(f"**/games/{game['id']}/replay/")
    wait_ready(page)
    board = page.locator(f'#replay-boards .replay-board[data-player="{player_id}"]')
    expect(board).to_have_count(1)
    expect(page.locator("#replay-boards .replay-board")).to_have_count(1)
    assert replay_states(page, player_id) == {xy: "hidden" for xy in final_board}
    page.select_option("#speed", "4")
    page.click("#play-button")
    expect(page.locator("#play-button")).to_have_attribute("aria-pressed", "true")
    page.wait_for_selector("#replay[data-at-end]")
    expect(page.locator("#play-button")).to_have_attribute("aria-pressed", "false")
    assert replay_states(page, player_id) == final_board
    expect(page.locator(f'.clicks[data-player="{player_id}"]')).to_have_text(str(result["clicks"]))
    expect(page.locator("#replay-time")).to_have_text(page.locator("#replay-duration").inner_text())
    expect(page.locator("#replay")).to_have_attribute("data-verified", "1")
    expect(board.locator(".replay-result")).to_contain_text(shown_time)
    expect(page.locator("#game-link")).to_have_attribute("href", f"/games/{game['id']}/")


def test_race_replay_midway_and_end(page, base_url, race):
    results = {row["player"]: row for row in race["results"]}
    winner = next(row["player"] for row in race["results"] if row["status"] == "won")
    loser = next(row["player"] for row in race["results"] if row["status"] == "lost")
    size = (race["width"], race["height"])
    open_replay(page, base_url, race["id"])

    boards = page.locator("#replay-boards .replay-board")
    expect(boards).to_have_count(2)
    assert [boards.nth(i).get_attribute("data-player") for i in range(2)] == [winner, loser]
    duration = int(page.locator("#scrubber").get_attribute("max"))
    assert duration > 0

    # Half-way: the winner has opened some cells and not all; the loser has not blown up yet.
    page.locator("#scrubber").fill(str(duration // 2))
    expect(page.locator("#replay")).to_have_attribute("data-time", str(duration // 2))
    expect(page.locator("#replay-time")).to_have_text(f"{duration // 2 / 1000:.3f} s")
    midway = replay_states(page, winner)
    opened = [xy for xy, state in midway.items() if state.isdigit()]
    hidden = [xy for xy, state in midway.items() if state == "hidden"]
    safe_cells = race["width"] * race["height"] - race["mines"]
    assert 0 < len(opened) < safe_cells
    assert hidden
    assert "exploded" not in replay_states(page, loser).values()
    winner_clicks = int(page.locator(f'.clicks[data-player="{winner}"]').inner_text())
    assert 0 < winner_clicks < results[winner]["clicks"]
    expect(page.locator("#play-button")).to_have_text("Play")
    shoot(page, "replay-midway.png")

    # Scrubbing back to 0 empties the boards again; to the end shows each racer's end.
    page.locator("#scrubber").fill("0")
    assert set(replay_states(page, winner).values()) == {"hidden"}
    page.locator("#scrubber").fill(str(duration))
    expect(page.locator("#replay")).to_have_attribute("data-verified", "1")
    for player_id, known in race["known"].items():
        won = results[player_id]["status"] == "won"
        expected = final_view(known, race["mine_cells"], won, size)
        assert replay_states(page, player_id) == expected
        clicks = page.locator(f'.clicks[data-player="{player_id}"]')
        expect(clicks).to_have_text(str(results[player_id]["clicks"]))
    assert list(replay_states(page, loser).values()).count("exploded") == 1
    expect(page.locator(f'.replay-board[data-player="{loser}"] .replay-result')).to_have_text(
        "Lost"
    )
    expect(page.locator("#play-button")).to_have_text("Replay")
    shoot(page, "replay-end.png")


def test_replay_plays_from_a_scrubbed_moment(page, base_url, race):
    open_replay(page, base_url, race["id"])
    duration = int(page.locator("#scrubber").get_attribute("max"))
    page.locator("#scrubber").fill(str(duration - 300))
    page.select_option("#speed", "0.5")
    page.click("#play-button")
    page.wait_for_function("() => Number(document.querySelector('#replay').dataset.time) > 0")
    page.wait_for_selector("#replay[data-at-end]", timeout=5000)
    expect(page.locator("#play-button")).to_have_text("Replay")
    page.click("#play-button")  # from the end: starts over
    expect(page.locator("#play-button")).to_have_attribute("aria-pressed", "true")
    page.click("#play-button")
    expect(page.locator("#play-button")).to_have_attribute("aria-pressed", "false")
    assert int(page.locator("#replay").get_attribute("data-time")) < duration


def test_replay_of_a_game_not_over_yet_explains_why(page, base_url):
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": "beginner"})
    open_replay(page, base_url, game["id"])
    expect(page.locator("#replay-status")).to_contain_text("still being played")
    expect(page.locator("#replay-controls")).to_be_hidden()
    open_replay(page, base_url, "no-such-game")
    expect(page.locator("#error-title")).to_have_text("No such game")  # test_error_pages.py


def test_leaderboard_tabs_switch_and_live_in_the_url(page, base_url):
    page.goto(base_url + "/leaderboards/")
    wait_ready(page)
    for key, value in (("preset", "beginner"), ("period", "all"), ("ranking", "time")):
        expect(page.locator(f'[data-{key}="{value}"]')).to_have_attribute("aria-selected", "true")

    def query() -> dict:
        return {key: values[0] for key, values in parse_qs(urlparse(page.url).query).items()}

    page.click('[data-preset="expert"]')
    expect(page).to_have_url(re.compile(r"preset=expert"))
    page.click('[data-period="week"]')
    page.click('[data-ranking="bbbv_per_s"]')
    expect(page).to_have_url(re.compile(r"ranking=bbbv_per_s"))
    assert query() == {"preset": "expert", "period": "week", "ranking": "bbbv_per_s"}
    expect(page.locator('[data-preset="expert"]')).to_have_attribute("aria-selected", "true")
    expect(page.locator('[data-preset="beginner"]')).to_have_attribute("aria-selected", "false")
    expect(page.locator('[data-period="week"]')).to_have_attribute("aria-selected", "true")
    expect(page.locator("#leaderboard-table th.sorted")).to_have_text("3BV/s")

    # The table shows what the API answers for that choice; none: the empty state.
    entries = api(base_url, "/api/leaderboards/expert/?period=week&ranking=bbbv_per_s")["entries"]
    expect(page.locator("#leaderboard-table tbody tr[data-rank]")).to_have_count(len(entries))
    if not entries:
        expect(page.locator("#leaderboard-empty")).to_contain_text("No ranked wins on Expert")

    # The URL is enough to come back to the same view; Back returns to the previous one.
    page.reload()
    wait_ready(page)
    expect(page.locator('[data-ranking="bbbv_per_s"]')).to_have_attribute("aria-selected", "true")
    expect(page.locator('[data-period="week"]')).to_have_attribute("aria-selected", "true")
    page.go_back()
    expect(page.locator('[data-ranking="time"]')).to_have_attribute("aria-selected", "true")
    expect(page.locator('[data-period="week"]')).to_have_attribute("aria-selected", "true")


def test_unknown_player_gets_a_friendly_page(page, base_url):
    page.goto(base_url + "/players/nobody%20here/")
    wait_ready(page)
    expect(page.locator("#player-missing")).to_contain_text("No ranked games under that name")
    expect(page.locator("#player-bests")).to_be_hidden()


def test_signup_logout_and_login(page, base_url):
    username = unique("sweeper")
    password = "mine-field-42-Orbit"
    page.goto(base_url + "/accounts/signup/")
    form = page.locator("#signup-form")
    expect(form.locator("#id_password1_helptext")).to_contain_text("at least 8 characters")
    form.locator("[name=username]").fill(username)
    form.locator("[name=password1]").fill("password")
    form.locator("[name=password2]").fill("password")
    form.locator("[type=submit]").click()
    errors = page.locator("#signup-form .errorlist")
    expect(errors).to_contain_text("This password is too common.")
    expect(page.locator("#id_password2")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#signup-form [name=username]")).to_have_value(username)
    shoot(page, "signup.png")

    form.locator("[name=password1]").fill(password)
    form.locator("[name=password2]").fill(password)
    form.locator("[type=submit]").click()
    page.wait_for_url(base_url + "/")
    page.goto(base_url + "/leaderboards/")
    expect(page.locator("#account-box")).to_contain_text(f"Logged in as {username}")
    expect(page.locator("#account-box a", has_text=username)).to_have_attribute(
        "href", f"/players/{username}/"
    )

    page.click("#logout-button")
    page.wait_for_url("**/leaderboards/")
    expect(page.locator("#account-box")).not_to_contain_text("Logged in")

    page.click("#login-link")
    page.wait_for_url(re.compile(r"/accounts/login/\?next=/leaderboards/$"))
    page.fill("#id_username", username)
    page.fill("#id_password", "wrong password")
    page.click("#login-form [type=submit]")
    expect(page.locator("#login-form .form-errors")).to_contain_text("correct username")
    shoot(page, "login.png")
    page.fill("#id_password", password)
    page.click("#login-form [type=submit]")
    page.wait_for_url("**/leaderboards/")
    expect(page.locator("#account-box")).to_contain_text(f"Logged in as {username}")


def sign_up(page, base_url: str, username: str, password: str) -> None:
    page.goto(base_url + "/accounts/signup/")
    form = page.locator("#signup-form")
    form.locator("[name=username]").fill(username)
    form.locator("[name=password1]").fill(password)
    form.locator("[name=password2]").fill(password)
    form.locator("[type=submit]").click()
    page.wait_for_url(base_url + "/")


def test_an_account_wins_verified(page, base_url, server_database):
    username = unique("verified")
    sign_up(page, base_url, username, "mine-field-42-Orbit")
    game = play_ranked_win(page, base_url, server_database, "a guest name the account overrides")
    assert game["results"][0]["name"] == username

    page.goto(base_url + "/leaderboards/?preset=beginner&period=day")
    wait_ready(page)
    row = page.locator(f'#leaderboard-table tbody tr[data-name="{username}"]')
    expect(row.locator(".badge-verified")).to_have_text("✓ verified")
    page.goto(f"{base_url}/players/{username}/")
    wait_ready(page)
    expect(page.locator("#player-badge")).to_have_text("✓ verified")
    expect(page.locator("#player")).to_contain_text("This is your page")
