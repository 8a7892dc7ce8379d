"""No-guess boards in the browser: the lobby's toggle (remembered, sent for presets only, shown
on listed races), a no-guess beginner won from the page by deduction alone, the "No guessing"
badge and the analysis of a no-guess race, and the leaderboards' Classic / No guessing switch."""

import json
import re
import uuid
from urllib.parse import parse_qs, urlparse

import pytest

from games.engine import generate_board, start_cell
from games.engine.noguess import board_seed, ng1_attempt
from tests.browser.support import (
    cell,
    expect,
    start_custom_game,
    wait_changed,
    wait_ready,
)
from tests.browser.support.analysis import (
    chance_text,
    least_likely_mine,
    page_solution,
    win_by_deduction,
)
from tests.browser.support.pages import api, play_ranked_win

pytestmark = pytest.mark.browser

WIDTH, HEIGHT, MINES = 9, 9, 10


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


def game_id_of(page) -> str:
    return re.search(r"/games/([A-Za-z0-9_-]+)/", page.url).group(1)


def named_page(open_page, name: str):
    page = open_page()
    page.add_init_script(f"localStorage.setItem('minerace.nickname', {json.dumps(name)})")
    return page


def test_toggle_starts_a_no_guess_beginner_won_by_deduction_alone(page, base_url):
    page.goto(base_url + "/")
    toggle = page.get_by_role("checkbox", name="No guessing")
    expect(toggle).not_to_be_checked()
    expect(toggle).to_have_attribute("aria-describedby", "no-guess-hint")
    expect(page.locator("#no-guess-hint")).to_contain_text("Every cell can be deduced: no 50/50s")
    expect(page.locator(".preset .tag-no-guess").first).to_be_hidden()
    expect(page.locator("#race-no-guess-note")).to_be_hidden()

    # Checked, it shows on every preset button and in the race form, and is remembered.
    toggle.check()
    expect(page.locator(".preset .tag-no-guess:visible")).to_have_count(3)
    expect(page.locator("#race-no-guess-note")).to_contain_text("No guessing is on")
    page.select_option("#race-preset", "custom")
    expect(page.locator("#race-no-guess-note")).to_contain_text("for the preset boards only")
    page.reload()
    expect(page.get_by_role("checkbox", name="No guessing")).to_be_checked()
    expect(page.locator(".preset .tag-no-guess:visible")).to_have_count(3)

    page.fill("#nickname", "Deducer")
    page.click("[data-preset=beginner]")
    page.wait_for_url("**/games/*/")
    wait_ready(page)
    game_id = game_id_of(page)
    expect(page.locator("#no-guess-badge")).to_be_visible()
    expect(page.locator("#no-guess-badge")).to_have_text("No guessing")
    game = api(base_url, f"/api/games/{game_id}/")
    assert (game["preset"], game["no_guess"], game["ranked"]) == ("beginner", True, True)

    # The first click opens a region; from then on only cells the solver proves safe from what
    # the page shows are clicked, and there is always one, up to the win.
    cell(page, 4, 4).click()
    wait_changed(page, 4, 4, "hidden")
    clicks = 1 + win_by_deduction(page, WIDTH, HEIGHT, MINES)
    expect(page.locator("#result")).to_have_attribute("data-outcome", "won")
    expect(page.locator("#result-title")).to_have_text("You won!")
    expect(page.locator("#result-clicks")).to_have_text(str(clicks))
    analysis = page.locator("#result-analysis")
    expect(analysis).to_have_attribute("data-state", "ready")
    expect(page.locator("#result-guesses")).to_have_text("Forced guesses: 0 faced, 0 survived.")
    expect(page.locator("#result-fatal")).to_be_hidden()

    finished = api(base_url, f"/api/games/{game_id}/")
    assert finished["status"] == "finished" and finished["no_guess"] is True
    assert isinstance(finished["ng_attempt"], int)
    assert finished["results"][0]["status"] == "won"

    # "New game" repeats the settings: another no-guess beginner.
    page.click("#new-game")
    page.wait_for_url(lambda url: game_id not in url and "/games/" in url)
    wait_ready(page)
    expect(page.locator("#no-guess-badge")).to_be_visible()
    assert api(base_url, f"/api/games/{game_id_of(page)}/")["no_guess"] is True


def test_custom_boards_stay_classic_and_no_guess_races_are_tagged(open_page, base_url):
    page = open_page()
    page.goto(base_url + "/")
    page.get_by_role("checkbox", name="No guessing").check()

    # A custom board never asks for no_guess (the server would refuse it).
    start_custom_game(page, base_url, 9, 9, 10, "custom-with-toggle")
    assert api(base_url, f"/api/games/{game_id_of(page)}/")["no_guess"] is False
    expect(page.locator("#no-guess-badge")).to_be_hidden()

    # A race on a preset is a no-guess race: its page has the badge, the lobby lists it tagged.
    page.goto(base_url + "/")
    page.fill("#nickname", "Host")
    page.select_option("#race-preset", "beginner")
    page.click("#race-form [type=submit]")
    page.wait_for_url("**/games/*/")
    wait_ready(page)
    race_id = game_id_of(page)
    assert api(base_url, f"/api/games/{race_id}/")["no_guess"] is True
    expect(page.locator("#no-guess-badge")).to_be_visible()
    classic = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})

    guest = open_page()
    guest.goto(base_url + "/")
    listed = guest.locator(f'#open-races [data-game="{race_id}"]')
    expect(listed.locator(".tag-no-guess")).to_be_visible()
    expect(listed.locator(".tag-no-guess")).to_have_text("No guessing")
    expect(listed.locator(".join")).to_have_attribute("aria-label", re.compile("no guessing"))
    other = guest.locator(f'#open-races [data-game="{classic["id"]}"]')
    expect(other).to_be_visible()
    expect(other.locator(".tag-no-guess")).to_be_hidden()


def test_no_guess_race_shows_every_racers_analysis(open_page, base_url):
    seed = "no-guess-race"
    start = start_cell(WIDTH, HEIGHT, seed)
    attempt = ng1_attempt(WIDTH, HEIGHT, MINES, seed, start)
    board = generate_board(WIDTH, HEIGHT, MINES, board_seed(seed, attempt), start)
    game = api(
        base_url,
        "/api/games/",
        {"mode": "race", "preset": "beginner", "seed": seed, "no_guess": True},
    )
    alice, bob = named_page(open_page, "Alice"), named_page(open_page, "Bob")
    for page in (alice, bob):
        page.goto(base_url + game["page"])
        wait_ready(page)
        expect(page.locator("#no-guess-badge")).to_be_visible()
    for page in (alice, bob):
        page.click("#ready-button")
    for page in (alice, bob):
        expect(page.locator("body")).to_have_attribute("data-phase", "running")

    # Alice opens the start cell, then steps on a mine although a cell was proven safe.
    cell(alice, *start).click()
    wait_changed(alice, *start, "hidden")
    proven = page_solution(alice, WIDTH, HEIGHT, MINES).safe
    assert proven, "a no-guess board always proves a cell safe after its opening"
    mine = least_likely_mine(board, alice)
    probability = page_solution(alice, WIDTH, HEIGHT, MINES).probability(mine[1] * WIDTH + mine[0])
    cell(alice, *mine).click()
    expect(alice.locator("#face")).to_have_attribute("data-face", "dead")
    # Bob opens the start cell and resigns: the race is over.
    cell(bob, *start).click()
    wait_changed(bob, *start, "hidden")
    bob.click("#resign-button")
    bob.click("#resign-yes")
    expect(bob.locator("#race-results")).to_be_visible()  # the resign has ended the race

    analysis = api(base_url, f"/api/games/{game['id']}/analysis/")
    reviews = {review["name"]: review for review in analysis["players"]}
    fatal = reviews["Alice"]["fatal"]
    assert fatal["kind"] == "mistake" and fatal["cell"] == list(mine)
    safe_x, safe_y = fatal["safe_cell"]
    assert safe_y * WIDTH + safe_x in proven
    alice_id, bob_id = reviews["Alice"]["player"], reviews["Bob"]["player"]

    for page in (alice, bob):
        expect(page.locator("#race-results")).to_be_visible()
        expect(page.locator("body")).not_to_contain_text("{#")  # no template comment leaks
        expect(page.locator("#results-board")).to_contain_text("No guessing")
        alice_row = page.locator(f'#results-table tr[data-player="{alice_id}"] td.analysis')
        expect(alice_row).to_have_attribute("data-state", "ready")
        expect(alice_row.locator(".fatal-kind")).to_have_attribute("data-kind", "mistake")
        short = fatal["odds"] if probability.denominator <= 100 else None
        expect(alice_row.locator(".fatal-kind")).to_have_text(
            f"Mistake · {short or chance_text(fatal, probability).split()[1]} chance of a mine"
        )
        expect(alice_row.locator(".guess-count")).to_have_text("no forced guess")
        bob_row = page.locator(f'#results-table tr[data-player="{bob_id}"] td.analysis')
        expect(bob_row.locator(".guess-count")).to_have_text("no forced guess")
        expect(bob_row.locator(".fatal-kind")).to_have_count(0)

    # Each racer reads its own analysis in words; Alice sees the cell she could have opened.
    expect(alice.locator("#race-analysis-fatal")).to_have_text(
        f"Mistake: the cell at column {safe_x + 1}, row {safe_y + 1} was safe for certain; "
        f"the cell you clicked had {chance_text(fatal, probability)} chance of a mine."
    )
    expect(alice.locator("#race-analysis-guesses")).to_have_text(
        "Forced guesses: 0 faced, 0 survived."
    )
    highlighted = alice.locator("#board .cell.safe-hint")
    expect(highlighted).to_have_count(1)
    assert (highlighted.get_attribute("data-x"), highlighted.get_attribute("data-y")) == (
        str(safe_x),
        str(safe_y),
    )
    expect(bob.locator("#race-analysis-fatal")).to_be_hidden()
    expect(bob.locator("#race-analysis-guesses")).to_have_text(
        "Forced guesses: 0 faced, 0 survived."
    )
    expect(bob.locator("#board .cell.safe-hint")).to_have_count(0)


def test_leaderboards_switch_between_classic_and_no_guess(open_page, base_url, server_database):
    classic_name, no_guess_name = unique("classic"), unique("nog")
    play_ranked_win(open_page(), base_url, server_database, classic_name)
    page = named_page(open_page, no_guess_name)
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": "beginner", "no_guess": True})
    page.goto(base_url + game["page"])
    wait_ready(page)
    cell(page, 4, 4).click()
    wait_changed(page, 4, 4, "hidden")
    win_by_deduction(page, WIDTH, HEIGHT, MINES)
    expect(page.locator("#result")).to_have_attribute("data-outcome", "won")

    def names() -> set[str]:
        rows = page.locator("#leaderboard-table tbody tr[data-name]")
        return set(rows.evaluate_all("rows => rows.map(row => row.dataset.name)"))

    def query() -> dict:
        return {key: values[0] for key, values in parse_qs(urlparse(page.url).query).items()}

    page.goto(base_url + "/leaderboards/?preset=beginner&period=day")
    wait_ready(page)
    classic = {
        e["name"] for e in api(base_url, "/api/leaderboards/beginner/?period=day")["entries"]
    }
    no_guess = {
        e["name"]
        for e in api(base_url, "/api/leaderboards/beginner/?period=day&variant=no_guess")["entries"]
    }
    assert classic_name in classic and no_guess_name not in classic
    assert no_guess_name in no_guess and classic_name not in no_guess
    expect(page.locator('[data-variant="classic"]')).to_have_attribute("aria-selected", "true")
    expect(page.locator("#leaderboard-table")).to_have_attribute("data-loaded-variant", "classic")
    assert names() == classic

    page.click('[data-variant="no_guess"]')
    expect(page).to_have_url(re.compile(r"variant=no_guess"))
    expect(page.locator("#leaderboard-table")).to_have_attribute("data-loaded-variant", "no_guess")
    expect(page.locator('[data-variant="no_guess"]')).to_have_attribute("aria-selected", "true")
    expect(page.locator(f'#leaderboard-table tr[data-name="{no_guess_name}"]')).to_be_visible()
    assert names() == no_guess
    assert query() == {
        "preset": "beginner",
        "variant": "no_guess",
        "period": "day",
        "ranking": "time",
    }
    expect(page.locator("#leaderboard-caption")).to_have_text(
        "Beginner, no guessing, today, by time"
    )

    # The link alone brings the no-guess view back; Classic leaves `variant` out of the URL.
    page.reload()
    wait_ready(page)
    expect(page.locator('[data-variant="no_guess"]')).to_have_attribute("aria-selected", "true")
    expect(page.locator(f'#leaderboard-table tr[data-name="{no_guess_name}"]')).to_be_visible()
    page.click('[data-variant="classic"]')
    expect(page.locator(f'#leaderboard-table tr[data-name="{classic_name}"]')).to_be_visible()
    assert "variant" not in query()
    assert names() == classic

    # The player page keeps the no-guess bests apart from the classic ones.
    page.goto(f"{base_url}/players/{no_guess_name}/")
    wait_ready(page)
    no_guess_best = page.locator(
        '#player-no-guess-bests .best-card[data-preset="beginner"] .best[data-kind="time"]'
    )
    expect(page.locator("#player-no-guess-bests")).to_be_visible()
    expect(no_guess_best.locator(".best-value")).to_have_text(re.compile(r"^\d+\.\d{3} s$"))
    classic_best = page.locator(
        '#best-cards .best-card[data-preset="beginner"] .best[data-kind="time"]'
    )
    expect(classic_best).to_have_class(re.compile(r"\bnone\b"))
    expect(page.locator('#recent-table tr[data-variant="no_guess"] .tag-no-guess')).to_have_text(
        "No guessing"
    )
    page.goto(f"{base_url}/players/{classic_name}/")
    wait_ready(page)
    expect(page.locator("#player-bests")).to_be_visible()
    expect(page.locator("#player-no-guess-bests")).to_be_hidden()
