"""Screenshots of no-guess boards and the loss analysis, called by screenshots.py: the lobby
with the "No guessing" toggle on and a no-guess race listed, a no-guess expert race in progress
(two racers) and its results with every racer's analysis, a mistake explained on the result
screen, and a replay's timeline marked with a survived forced guess and the fatal click.
"""

from pathlib import Path

from games.engine import generate_board, start_cell
from games.engine.noguess import board_seed, ng1_attempt
from tests.browser.support import (
    board_states,
    cell,
    hidden_safe_cells,
    wait_changed,
    wait_ready,
)
from tests.browser.support.analysis import (
    CENTRE,
    FORCED_SEED,
    MISTAKE_SEED,
    least_likely_mine,
    page_solution,
    seeded_beginner,
    xy,
)
from tests.browser.support.pages import api
from tests.browser.support.race_shots import create_race, join, racer

EXPERT = (30, 16, 99)
RACE_SEED = "screenshot-no-guess"


def reveal(page, x: int, y: int) -> None:
    cell(page, x, y).click()
    wait_changed(page, x, y, "hidden")


def reveal_proven(page, count: int) -> None:
    """Open `count` cells that the page's board proves safe, nearest the top left first."""
    for _ in range(count):
        proven = sorted(page_solution(page, *EXPERT).safe)
        if not proven:
            return
        reveal(page, *xy(proven[0], EXPERT[0]))


def open_seeded(page, base_url: str, seed: str) -> None:
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": "beginner", "seed": seed})
    page.goto(base_url + game["page"])
    wait_ready(page)
    reveal(page, *CENTRE)


def no_guess_screenshots(browser, base_url: str, out: Path) -> None:
    # (a) The lobby: the toggle on (remembered), its mark on the presets, a no-guess race listed.
    host = racer(browser, "Ada")
    listed = create_race(base_url, {"preset": "expert", "no_guess": True, "max_players": 4})
    join(host, base_url, listed)
    lobby = racer(browser, "Margaret")
    lobby.goto(base_url + "/")
    lobby.get_by_role("checkbox", name="No guessing").check()
    lobby.wait_for_selector(f'#open-races [data-game="{listed["id"]}"]')
    lobby.screenshot(path=out / "no-guess-lobby.png", full_page=True)

    # (b) A no-guess expert race of two, in progress, as Alice sees it.
    game = create_race(base_url, {"preset": "expert", "seed": RACE_SEED, "no_guess": True})
    start = start_cell(30, 16, RACE_SEED)
    alice, bob = racer(browser, "Alice"), racer(browser, "Bob")
    for page in (alice, bob):
        join(page, base_url, game)
        page.click("#ready-button")
    for page in (alice, bob):
        page.wait_for_selector("body[data-phase='running']")
    for page, count in ((alice, 30), (bob, 12)):
        reveal(page, *start)
        reveal_proven(page, count)
    alice.wait_for_timeout(400)  # the progress bars glide to their width
    alice.screenshot(path=out / "no-guess-race.png")

    # Its end: Bob steps on a mine with cells proven safe around him, Alice resigns.
    attempt = ng1_attempt(*EXPERT, RACE_SEED, start)
    board = generate_board(*EXPERT, board_seed(RACE_SEED, attempt), start)
    cell(bob, *least_likely_mine(board, bob)).click()
    alice.click("#resign-button")
    alice.click("#resign-yes")
    for page in (alice, bob):
        page.wait_for_selector("#results-table td.analysis[data-state='ready']")
    # A tall window rather than a full-page shot, whose resizing would refit the board.
    bob.set_viewport_size({"width": 1366, "height": 1300})
    bob.wait_for_timeout(400)
    bob.screenshot(path=out / "no-guess-race-results.png")

    # (c) A mistake on the result screen: the safe cell outlined, the odds of the click.
    page = racer(browser, "Sweeper")
    open_seeded(page, base_url, MISTAKE_SEED)
    beginner_board, _ = seeded_beginner(MISTAKE_SEED)
    cell(page, *least_likely_mine(beginner_board, page)).click()
    page.wait_for_selector("#result-analysis[data-state='ready']")
    page.wait_for_timeout(500)  # the panel scrolls into view smoothly
    page.screenshot(path=out / "loss-analysis.png")

    # (d) The replay of a forced guess survived, then a mine: marks on the timeline.
    forced_board, _ = seeded_beginner(FORCED_SEED)
    open_seeded(page, base_url, FORCED_SEED)
    reveal(page, *hidden_safe_cells(forced_board, board_states(page))[0])
    page.wait_for_timeout(700)  # some time between the marks
    cell(page, *least_likely_mine(forced_board, page)).click()
    page.wait_for_selector("#result[data-outcome='lost']")
    page.click("#result-replay")
    wait_ready(page)
    page.wait_for_selector("#replay[data-analysis='1']")
    page.locator("#timeline-marks .timeline-mark").last.click()
    page.locator("#timeline-marks .timeline-mark").last.hover()
    page.wait_for_timeout(300)
    page.screenshot(path=out / "replay-marks.png")
