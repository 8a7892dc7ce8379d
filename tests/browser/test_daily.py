"""The daily challenge pages (issue 14.6) in Chromium: an established account's first run of the
day counts and reaches today's leaderboard, its next is practice, a new account practises, a
guest is sent to log in for today's board (docs/protocol.md 6.2),
the run's page marks its public start cell, and a past day shows its leaderboards, its seeds
checked against their commitments, and replays that open."""

import re

import pytest

from tests.browser.support import PHONE, cell, click_until_won, expect, wait_changed, wait_ready
from tests.browser.support.daily import (
    end_the_day,
    establish,
    open_daily,
    play_run,
    run_board,
    run_row,
    shoot,
    start_run,
    today,
)
from tests.browser.support.race import game_id_of, sign_up, unique

# The test and its server each read the UTC day: midnight must not fall between.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("clear_of_midnight")]

PRESETS = ("beginner", "intermediate", "expert")
DESKTOP = {"width": 1200, "height": 900}


def card(page, preset: str = "beginner"):
    return page.locator(f'.daily-board[data-preset="{preset}"]')


def play_from_card(page, preset: str = "beginner") -> str:
    """Press a board's Play button; wait for the run's game page; return the game id."""
    card(page, preset).locator(".play-button").click()
    page.wait_for_url("**/games/*/")
    wait_ready(page)
    return game_id_of(page)


def assert_start_marked(page, start: list[int]) -> None:
    """The run's page, before the first click: the public start cell, and only it, marked."""
    marked = page.locator('#board .cell[data-start="1"]')
    expect(marked).to_have_count(1)
    assert [int(marked.get_attribute("data-x")), int(marked.get_attribute("data-y"))] == start
    expect(marked).to_have_attribute("aria-label", re.compile("start cell"))


def test_an_accounts_first_run_counts_and_its_next_is_practice(
    open_page, base_url, server_database
):
    page = open_page(viewport=DESKTOP)
    name = unique("daily")
    sign_up(page, base_url, name)
    establish(server_database, name)
    expect(page.locator('.page-nav a[href="/daily/"]')).to_have_text("Daily")
    page.click('.page-nav a[href="/daily/"]')
    wait_ready(page)
    expect(page.locator('.page-nav a[href="/daily/"]')).to_have_attribute("aria-current", "page")

    # Today's three boards, each with its commitment, and the time left in the day.
    overview = page.request.get(base_url + "/api/daily/").json()
    boards = {board["preset"]: board for board in overview["boards"]}
    for preset in PRESETS:
        commitment = card(page, preset).locator(".commitment-short")
        expect(commitment).to_have_text(boards[preset]["seed_commitment"][:12] + "…")
        expect(commitment).to_have_attribute("title", boards[preset]["seed_commitment"])
        expect(card(page, preset).locator(".run-kind")).to_have_attribute("data-kind", "counted")
    expect(page.locator("#daily-time-left")).to_have_text(re.compile(r"^\d+ (h|min|s)\b"))
    expect(card(page).locator(".run-kind")).to_contain_text("Your counted run")
    expect(card(page).locator(".your-run")).to_be_hidden()
    help_box = page.locator("#commitment-help")
    expect(help_box).not_to_have_attribute("open", "")
    card(page).locator(".commitment-what").click()
    expect(help_box).to_have_attribute("open", "")
    expect(help_box).to_contain_text("fixed at 00:00 UTC")
    expect(help_box).to_contain_text(boards["beginner"]["seed_commitment"])

    # The counted run: its page marks the start cell until the first click; won.
    game_id = play_from_card(page)
    start = boards["beginner"]["start"]
    assert_start_marked(page, start)
    shoot(page, "daily-run-start.png")
    assert run_row(server_database, game_id)[0] is True
    board = run_board(server_database, game_id)
    cell(page, *start).click()
    wait_changed(page, *start, "hidden")
    expect(page.locator('#board .cell[data-start="1"]')).to_have_count(0)
    click_until_won(page, board)

    # Back on the daily page: the run is the account's counted one, ranked today.
    open_daily(page, base_url)
    kind = card(page).locator(".run-kind")
    expect(kind).to_have_attribute("data-kind", "practice")
    expect(kind).to_have_text("Practice — only your first run of the day counts.")
    yours = card(page).locator(".your-run")
    expect(yours).to_have_attribute("href", f"/games/{game_id}/")
    expect(yours).to_contain_text(re.compile(r"Your counted run: won in \d+\.\d{3} s, #\d+"))
    expect(card(page, "expert").locator(".run-kind")).to_have_attribute("data-kind", "counted")
    row = page.locator(f'#daily-table tbody tr[data-name="{name}"]')
    expect(row).to_have_attribute("data-game", game_id)
    expect(row).to_have_class(re.compile(r"\byou\b"))
    assert int(row.get_attribute("data-rank")) >= 1
    expect(row.locator("td.result")).to_have_text("Won")
    page.click("#daily-tab-intermediate")
    expect(page.locator("#daily-table")).to_have_attribute("data-preset", "intermediate")
    page.click("#daily-tab-beginner")
    expect(row).to_be_visible()
    shoot(page, "daily-desktop.png")
    page.set_viewport_size(PHONE)
    shoot(page, "daily-phone.png")
    page.set_viewport_size(DESKTOP)

    # Today's day page lists the run without a replay yet, and says why.
    open_daily(page, base_url, f"/daily/{today().isoformat()}/")
    expect(page.locator("#daily-day-state")).to_contain_text("This day is not over")
    section = page.locator('.daily-day-board[data-preset="beginner"]')
    expect(section.locator(f'tbody tr[data-game="{game_id}"]')).to_have_count(1)
    expect(section.locator(".replay-link")).to_have_count(0)

    # A second run: practice, the counted run and the leaderboard unchanged.
    open_daily(page, base_url)
    second = play_from_card(page)
    assert second != game_id
    assert run_row(server_database, second)[0] is False
    assert_start_marked(page, start)
    open_daily(page, base_url)
    expect(card(page).locator(".your-run")).to_have_attribute("href", f"/games/{game_id}/")
    expect(page.locator(f'#daily-table tbody tr[data-name="{name}"]')).to_have_count(1)
    expect(row).to_have_attribute("data-game", game_id)


def test_a_guest_is_sent_to_log_in_and_a_new_account_practises(
    open_page, base_url, server_database
):
    """Today's board is for accounts; a fresh account's runs are practice (docs/protocol.md 6.2)."""
    page = open_page()
    open_daily(page, base_url)
    for preset in PRESETS:
        kind = card(page, preset).locator(".run-kind")
        expect(kind).to_have_attribute("data-kind", "guest")
        expect(kind).to_have_text(
            "Today's board is for accounts: log in to play it. Past days' boards and replays"
            " are open to everyone below."
        )
        expect(card(page, preset).locator(".play-button")).to_be_hidden()
    expect(card(page).locator(".run-kind a")).to_have_attribute(
        "href", "/accounts/login/?next=%2Fdaily%2F"
    )
    page.set_viewport_size(PHONE)
    shoot(page, "daily-guest-phone.png")

    name = unique("newbie")
    sign_up(page, base_url, name)
    open_daily(page, base_url)
    kind = card(page, "intermediate").locator(".run-kind")
    expect(kind).to_have_attribute("data-kind", "not-yet")
    expect(kind).to_contain_text("runs count for accounts made before today with 5 rated races")
    expect(card(page, "intermediate").locator(".play-button")).to_have_text("Play for practice")
    game_id = play_from_card(page, "intermediate")
    counted, user = run_row(server_database, game_id)
    assert counted is False and user is not None
    state = page.request.get(f"{base_url}/api/games/{game_id}/").json()
    assert state["status"] == "lobby" and state["preset"] == "intermediate"
    assert_start_marked(page, state["start"])


def test_a_past_day_shows_its_leaderboards_seeds_and_replays(open_page, base_url, server_database):
    # Yesterday: two accounts' counted runs on each board (the second loses on expert) ...
    ann, bob = unique("ann"), unique("bob")
    racers = {name: open_page(viewport=DESKTOP) for name in (ann, bob)}
    for name, racer in racers.items():
        sign_up(racer, base_url, name)
        establish(server_database, name)
    runs = {}
    for preset in PRESETS:
        for name, racer in racers.items():
            game = start_run(racer, base_url, preset)["game"]
            win = not (name == bob and preset == "expert")
            board = run_board(server_database, game["id"])
            assert play_run(base_url, racer, game, board, win) == ("won" if win else "lost")
            runs[(name, preset)] = game["id"]
    # ... and then midnight comes.
    yesterday = end_the_day(server_database).isoformat()

    page = racers[ann]
    open_daily(page, base_url)
    day = page.locator(f'#daily-archive li[data-day="{yesterday}"]')
    expect(day).to_have_count(1)
    expect(page.locator("#daily-archive li").first).to_have_attribute("data-day", yesterday)
    expect(day.locator('[data-preset="expert"] dd')).to_contain_text(f"{ann} ")
    expect(day.locator('[data-preset="expert"] dd')).to_contain_text("2 players")
    # A new day: fresh boards, and the account's first run counts again.
    expect(card(page).locator(".run-kind")).to_have_attribute("data-kind", "counted")
    shoot(page, "daily-archive.png")

    day.locator(".daily-day-link").click()
    page.wait_for_url(f"**/daily/{yesterday}/")
    wait_ready(page)
    expect(page.locator("#daily-day-state")).to_contain_text("The day is over")
    for preset in PRESETS:
        section = page.locator(f'.daily-day-board[data-preset="{preset}"]')
        expect(section).to_have_attribute("data-state", "over")
        expect(section.locator(".seed-check")).to_have_attribute("data-verified", "yes")
        for name in racers:
            link = section.locator(f'tr[data-name="{name}"] .replay-link')
            expect(link).to_have_attribute("href", f"/games/{runs[(name, preset)]}/replay/")
    expert = page.locator('.daily-day-board[data-preset="expert"]')
    expect(expert.locator(f'tr[data-name="{ann}"]')).to_have_attribute("data-rank", "1")
    expect(expert.locator(f'tr[data-name="{bob}"] td.result')).to_have_text("Lost")
    shoot(page, "daily-day.png")
    page.set_viewport_size(PHONE)
    shoot(page, "daily-day-phone.png")
    page.set_viewport_size(DESKTOP)

    # A replay opens: the run's moves are public now that the day is over.
    beginner = page.locator('.daily-day-board[data-preset="beginner"]')
    beginner.locator(f'tr[data-name="{bob}"] .replay-link').click()
    page.wait_for_url(f"**/games/{runs[(bob, 'beginner')]}/replay/")
    wait_ready(page)
    expect(page.locator("#replay-boards .replay-board")).to_have_count(1)
    scrubber = page.locator("#scrubber")
    scrubber.fill(scrubber.get_attribute("max"))
    expect(page.locator("#replay")).to_have_attribute("data-verified", "1")
    expect(page.locator(".replay-result")).to_contain_text(" s")
    assert racers[bob].request.get(f"{base_url}/api/games/{runs[(bob, 'expert')]}/moves/").ok
