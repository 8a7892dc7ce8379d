"""Screenshots of the front end for a human to look at:
`python -m tests.browser.support.screenshots`.

Starts its own Daphne on a throwaway database and writes PNGs to /tmp/shots/ (or argv[1]):
the lobby (also with a form error), a won and a lost expert game and a 100x100 board on a
1366x768 laptop, and the lobby and an intermediate game (playing, lost) on a 390 px phone;
then the races (race_shots.py) and the no-guess boards with the loss analysis
(no_guess_shots.py). `... screenshots /tmp/shots race` takes the races only, `... no_guess` the
no-guess pages only.
"""

import json
import sys
import tempfile
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from games.engine import generate_board
from tests.browser.support import (
    CHROMIUM_ARGS,
    JSON_HEADERS,
    LAPTOP,
    PHONE,
    board_states,
    cell,
    click_until_won,
    daphne_server,
    first_hidden_mine,
    hidden_safe_cells,
    wait_changed,
    wait_ready,
)
from tests.browser.support.no_guess_shots import no_guess_screenshots
from tests.browser.support.race_shots import race_screenshots
from tests.support.requirements import CHROMIUM


def open_new_game(page, base_url: str, body: dict) -> None:
    request = urllib.request.Request(
        base_url + "/api/games/",
        data=json.dumps(body).encode(),
        method="POST",
        headers=JSON_HEADERS,
    )
    with urllib.request.urlopen(request) as answer:
        game = json.load(answer)
    page.goto(base_url + game["page"])
    wait_ready(page)


def seeded_expert(page, base_url: str, seed: str):
    """An expert game with a known seed, opened at its centre; returns its board."""
    open_new_game(page, base_url, {"mode": "solo", "preset": "expert", "seed": seed})
    cell(page, 15, 8).click()
    wait_changed(page, 15, 8, "hidden")
    return generate_board(30, 16, 99, seed, (15, 8))


def main(out: Path, only: str | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as workdir,
        daphne_server(Path(workdir)) as base_url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        if only is None:
            solo_screenshots(browser, base_url, out)
        if only in (None, "race"):
            race_screenshots(browser, base_url, out)
        if only in (None, "no_guess"):
            no_guess_screenshots(browser, base_url, out)
        browser.close()
    print(f"screenshots in {out}")


def solo_screenshots(browser, base_url: str, out: Path) -> None:
    """The solo game's pages: lobby, expert games, a 100x100 board, a phone."""
    laptop = browser.new_page(viewport=LAPTOP)
    laptop.goto(base_url + "/")
    laptop.click("#custom summary")
    laptop.screenshot(path=out / "lobby.png")
    laptop.fill("#custom-form [name=width]", "3")
    laptop.click("#custom-form [type=submit]")
    laptop.wait_for_selector("#custom-error:not([hidden])")
    laptop.screenshot(path=out / "lobby-error.png")

    board = seeded_expert(laptop, base_url, "screenshot-win")
    laptop.screenshot(path=out / "expert-playing.png")
    click_until_won(laptop, board)
    laptop.screenshot(path=out / "expert-won.png")

    board = seeded_expert(laptop, base_url, "screenshot-loss")
    states = board_states(laptop)
    for x, y in hidden_safe_cells(board, states)[:3]:
        cell(laptop, x, y).click(button="right")
    mine = first_hidden_mine(board, states)
    cell(laptop, *mine).click()
    laptop.wait_for_selector("#result[data-outcome='lost']")
    laptop.screenshot(path=out / "expert-lost.png")

    open_new_game(laptop, base_url, {"mode": "solo", "width": 100, "height": 100, "mines": 1000})
    cell(laptop, 50, 50).click()
    wait_changed(laptop, 50, 50, "hidden")
    laptop.screenshot(path=out / "custom-100x100.png")

    phone = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(base_url + "/")
    phone.screenshot(path=out / "phone-lobby.png", full_page=True)
    body = {"mode": "solo", "preset": "intermediate", "seed": "screenshot-phone"}
    open_new_game(phone, base_url, body)
    phone.locator('#board .cell[data-x="8"][data-y="8"]').tap()
    wait_changed(phone, 8, 8, "hidden")
    phone.screenshot(path=out / "phone-intermediate.png")
    board = generate_board(16, 16, 40, "screenshot-phone", (8, 8))
    states = board_states(phone)
    mine = first_hidden_mine(board, states)
    cell(phone, *mine).tap()
    phone.wait_for_selector("#result[data-outcome='lost']")
    phone.wait_for_timeout(500)  # the panel scrolls into view smoothly
    phone.screenshot(path=out / "phone-lost.png")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/shots"), *sys.argv[2:3])
