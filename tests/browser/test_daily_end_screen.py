"""The daily challenge's end screen (issue 22.2), on a laptop and a 390 px phone: a won run draws
its correct flags as flags (a run keeps its mines secret until the day is over, so game_over
names none), and the run reopened afterwards says what waits for the day's end (the analysis,
the seed, the replay) instead of waiting forever, shows the finished board to its account
rather than "cannot join", and calls a counted run counted, not unranked."""

import re

import pytest

from tests.browser.support import PHONE, board_states, cell, expect, wait_changed, wait_ready
from tests.browser.support.daily import establish, open_daily, run_board, shoot, today
from tests.browser.support.race import game_id_of, sign_up, unique

# The test and its server each read the UTC day: midnight must not fall between.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("clear_of_midnight")]

DESKTOP = {"width": 1200, "height": 900}


def play_beginner_run(page, base_url: str, database) -> tuple[str, int]:
    """Play today's beginner board from the daily page: its start cell, a flag on every mine,
    then every safe cell; return the game id and the number of flags."""
    open_daily(page, base_url)
    page.locator('.daily-board[data-preset="beginner"] .play-button').click()
    page.wait_for_url("**/games/*/")
    wait_ready(page)
    game_id = game_id_of(page)
    board = run_board(database, game_id)
    start = page.locator('#board .cell[data-start="1"]')
    x, y = int(start.get_attribute("data-x")), int(start.get_attribute("data-y"))
    cell(page, x, y).click()
    wait_changed(page, x, y, "hidden")
    mines = [board.xy(index) for index in sorted(board.mines)]
    for x, y in mines:
        cell(page, x, y).click(button="right")
        assert wait_changed(page, x, y, "hidden") == "flag"
    for index in range(board.width * board.height):
        xy = board.xy(index)
        if not board.is_mine(index) and board_states(page)[xy] == "hidden":
            cell(page, *xy).click()
            wait_changed(page, *xy, "hidden")
    expect(page.locator("#result")).to_have_attribute("data-outcome", "won")
    return game_id, len(mines)


def assert_flags_kept(page, flags: int) -> None:
    states = list(board_states(page).values())
    assert states.count("wrongflag") == 0
    assert states.count("flag") == flags


def assert_held_until_the_day_ends(page) -> None:
    """The finished run's screen: what opens at midnight says so; nothing waits forever."""
    analysis = page.locator("#result-analysis")
    expect(analysis).to_have_attribute("data-state", "held")
    expect(analysis).to_contain_text(re.compile(r"when the day is over.*00:00 UTC"))
    expect(page.locator("#result-seed")).to_contain_text("disclosed when the day is over")
    expect(page.locator("#game-info")).not_to_contain_text("unranked")
    expect(page.locator("#result-export")).to_have_count(0)  # its file waits for midnight too


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_won_counted_run_keeps_its_flags_and_says_what_waits_for_midnight(
    open_page, base_url, server_database, viewport
):
    page = open_page(viewport=viewport)
    name = unique("dailyend")
    sign_up(page, base_url, name)
    establish(server_database, name)
    game_id, flags = play_beginner_run(page, base_url, server_database)
    assert_flags_kept(page, flags)
    assert_held_until_the_day_ends(page)
    expect(page.locator("#game-info")).to_contain_text("counted run")
    tag = "desktop" if viewport is DESKTOP else "phone"
    shoot(page, f"daily-won-{tag}.png")

    # Reopened in the same browser: the same screen, the flags kept.
    page.reload()
    wait_ready(page)
    expect(page.locator("#result")).to_have_attribute("data-outcome", "won")
    assert_flags_kept(page, flags)
    assert_held_until_the_day_ends(page)
    expect(page.locator("#message")).to_be_hidden()

    # Reopened on another device of the account (no resume token): the finished board, not
    # a refusal over an empty one.
    other = open_page(viewport=viewport)
    other.context.add_cookies(page.context.cookies())
    other.goto(f"{base_url}/games/{game_id}/")
    wait_ready(other)
    expect(other.locator("#connection")).not_to_have_text("cannot join")
    expect(other.locator("#message")).to_be_hidden()
    expect(other.locator("#result")).to_have_attribute("data-outcome", "won")
    expect(other.locator("#result-title")).to_have_text("You won!")
    expect(other.locator("#connection")).to_have_text("your run")
    assert_flags_kept(other, flags)
    assert_held_until_the_day_ends(other)
    shoot(other, f"daily-reopened-{tag}.png")

    # Anyone else (a guest here) sees the result and when the run can be watched.
    guest = open_page(viewport=viewport)
    guest.goto(f"{base_url}/games/{game_id}/")
    wait_ready(guest)
    expect(guest.locator("#connection")).to_have_text("watch after 00:00 UTC")
    expect(guest.locator("#race-note")).to_contain_text("can be watched when the day is over")
    assert set(board_states(guest).values()) == {"hidden"}  # its board is not to be had yet
    expect(guest.locator("#result-title")).to_have_text(f"{name} won")
    assert_held_until_the_day_ends(guest)
    shoot(guest, f"daily-someone-elses-run-{tag}.png")

    # The replay says when its log opens: at the end of the day, not "when the game is over".
    page.locator("#result-replay").click()
    page.wait_for_url(f"**/games/{game_id}/replay/")
    wait_ready(page)
    expect(page.locator("#replay-status")).to_contain_text("replay open when the day is over")
    expect(page.locator("body")).not_to_contain_text("when the game is over")
    expect(page.locator("#replay-info")).to_contain_text("counted run")
    shoot(page, f"daily-replay-held-{tag}.png")


def test_a_new_accounts_practice_run_keeps_its_flags(open_page, base_url, server_database):
    """A practice run keeps the board's secrets too: its flags stay flags, and its header says
    practice."""
    page = open_page(viewport=PHONE)
    sign_up(page, base_url, unique("practice"))
    _game_id, flags = play_beginner_run(page, base_url, server_database)
    assert_flags_kept(page, flags)
    assert_held_until_the_day_ends(page)
    expect(page.locator("#game-info")).to_contain_text("practice")
    assert today()
