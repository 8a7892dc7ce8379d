"""Screenshots of races, called by screenshots.py: the lobby with open races, a waiting room,
the countdown, a racer's page and the spectator's wall of boards mid-race (three racers on
expert), the results, and a racer's and a spectator's page on a 390 px phone.
"""

import json
import urllib.request
from pathlib import Path

from games.engine import Board, generate_board, start_cell
from tests.browser.support import (
    JSON_HEADERS,
    LAPTOP,
    PHONE,
    board_states,
    cell,
    first_hidden_mine,
    hidden_safe_cells,
    wait_changed,
    wait_ready,
)

SEED = "screenshot-race"


def create_race(base_url: str, body: dict) -> dict:
    request = urllib.request.Request(
        base_url + "/api/games/",
        data=json.dumps({"mode": "race", **body}).encode(),
        headers=JSON_HEADERS,
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def racer(browser, name: str, **options):
    """A page in its own browser profile, with `name` as the stored nickname."""
    context = browser.new_context(**{"viewport": LAPTOP, **options})
    context.add_init_script(f"localStorage.setItem('minerace.nickname', {json.dumps(name)})")
    return context.new_page()


def join(page, base_url: str, game: dict, watch: bool = False) -> None:
    page.goto(base_url + game["page"] + ("?watch=1" if watch else ""))
    wait_ready(page)


def press(page, x: int, y: int) -> None:
    """Reveal (x, y) with the mouse, or a tap on a touch page."""
    target = cell(page, x, y)
    if page.viewport_size["width"] < 600:
        target.tap()
    else:
        target.click()
    wait_changed(page, x, y, "hidden")


def reveal_some(page, board: Board, count: int) -> None:
    for _ in range(count):
        cells = hidden_safe_cells(board, board_states(page))
        if not cells:
            return
        press(page, *cells[len(cells) // 2])


def race_screenshots(browser, base_url: str, out: Path) -> None:
    # The lobby: two races waiting for players.
    for preset, names in (("expert", ["Ada"]), ("beginner", ["Grace", "Linus"])):
        game = create_race(base_url, {"preset": preset, "max_players": 4})
        for name in names:
            join(racer(browser, name), base_url, game)
    lobby = racer(browser, "Margaret")
    lobby.goto(base_url + "/")
    lobby.wait_for_selector("#open-races li >> nth=1")
    lobby.evaluate("document.getElementById('race').scrollIntoView({block: 'end'})")
    lobby.screenshot(path=out / "race-lobby.png")

    # An expert race: Alice and Bob on laptops, Carol on a phone, and a spectator.
    game = create_race(base_url, {"preset": "expert", "seed": SEED})
    start = start_cell(30, 16, SEED)
    board = generate_board(30, 16, 99, SEED, start)
    alice, bob = racer(browser, "Alice"), racer(browser, "Bob")
    carol = racer(browser, "Carol", viewport=PHONE, is_mobile=True, has_touch=True)
    watcher = racer(browser, "Watcher")
    pocket = racer(browser, "Pocket", viewport=PHONE, is_mobile=True, has_touch=True)
    for page in (alice, bob, carol):
        join(page, base_url, game)
    join(watcher, base_url, game, watch=True)
    join(pocket, base_url, game, watch=True)
    bob.click("#ready-button")
    alice.wait_for_selector("#players [data-ready='1']")
    alice.screenshot(path=out / "race-waiting.png")
    watcher.screenshot(path=out / "race-spectator-lobby.png")
    carol.screenshot(path=out / "race-phone-lobby.png", full_page=True)

    alice.click("#ready-button")
    carol.locator("#ready-button").tap()
    alice.wait_for_selector("#countdown:not([hidden])")
    alice.screenshot(path=out / "race-countdown.png")
    for page in (alice, bob, carol, watcher, pocket):
        page.wait_for_selector("body[data-phase='running']")

    for page, count in ((alice, 14), (bob, 8), (carol, 4)):
        press(page, *start)
        reveal_some(page, board, count)
    watcher.wait_for_timeout(400)  # the progress bars glide to their width
    alice.screenshot(path=out / "race-running.png")
    watcher.screenshot(path=out / "race-spectator.png")
    carol.screenshot(path=out / "race-phone-running.png")
    pocket.screenshot(path=out / "race-phone-spectator.png", full_page=True)

    # The end: Bob steps on a mine, Carol resigns, Alice clears the board.
    cell(bob, *first_hidden_mine(board, board_states(bob))).click()
    bob.wait_for_selector("#face[data-face='dead']")
    carol.locator("#resign-button").tap()
    carol.locator("#resign-yes").tap()
    while cells := hidden_safe_cells(board, board_states(alice)):
        press(alice, *cells[0])
    for page in (alice, carol, watcher):
        page.wait_for_selector("#results-table tbody tr >> nth=2")
        page.wait_for_selector("#seed-check[data-verified]")
    alice.wait_for_timeout(300)
    alice.screenshot(path=out / "race-results.png")
    watcher.screenshot(path=out / "race-spectator-results.png")
    carol.screenshot(path=out / "race-phone-results.png", full_page=True)
