"""Helpers for the browser tests: a real Daphne server, a headless Chromium and board access.

Shared by conftest.py and screenshots.py, so the screenshots show exactly what the tests drive.
"""

from __future__ import annotations

import mimetypes
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from games.engine import Board
from tests.support.servers import Daphne, migrated_sqlite_template

try:
    from playwright.sync_api import expect
except ImportError:  # needs_browser skips (or fails) every browser test with the reason
    expect = None

REPO_ROOT = Path(__file__).resolve().parents[3]
STATIC = REPO_ROOT / "frontend" / "static"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# What a POST to the API must say of its body (docs/protocol.md 3, v1.2: else 415).
JSON_HEADERS = {"Content-Type": "application/json"}
BOARD_STATES_JS = """() => [...document.querySelectorAll('#board .cell')]
    .map(cell => [Number(cell.dataset.x), Number(cell.dataset.y), cell.dataset.state])"""

State = dict[tuple[int, int], str]


# A test clicks like a program: the screen of games that count would hold every account's win
# under review, off the leaderboards and daily boards the pages show. The fair-play tests run a
# server of their own with the screen as configured by default (test_fair_play.py).
LENIENT_SCREEN = {
    "MINERACE_FAIRPLAY_PACE_BEGINNER": "inf",
    "MINERACE_FAIRPLAY_PACE_INTERMEDIATE": "inf",
    "MINERACE_FAIRPLAY_PACE_EXPERT": "inf",
    "MINERACE_FAIRPLAY_REACTION_MS": "0",
    "MINERACE_FAIRPLAY_METRONOME_SHORT": "0",
    "MINERACE_FAIRPLAY_METRONOME_LONG": "0",
    "MINERACE_FAIRPLAY_RECORD_ENTRIES": "1000000000",
}


@contextmanager
def daphne_server(
    workdir: Path, *, lenient_screen: bool = True, settings: dict[str, str] | None = None
) -> Iterator[str]:
    """Put a fresh migrated SQLite file in `workdir` (a copy of the template), serve the
    project with Daphne, yield its URL; `settings` (environment variables) go last."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # The tests click as fast as the server answers; the per-connection rate limit is not
        # what they check.
        "MINERACE_WS_RATE_PER_S": "1000",
        "MINERACE_WS_RATE_BURST": "1000",
        "MINERACE_CREATE_RATE_PER_MIN": "1000",
        "MINERACE_CREATE_BURST": "1000",
        "MINERACE_LOBBIES_PER_ADDRESS": "1000",
        # Most tests sign their accounts up from 127.0.0.1 (test_signup_limit.py sets its own).
        "MINERACE_SIGNUPS_PER_HOUR": "1000000",
        "MINERACE_SIGNUPS_PER_DAY": "1000000",
        "MINERACE_HELLO_BURST": "1000",
        "MINERACE_PLAYER_MOVE_RATE_PER_S": "1000",
        "MINERACE_PLAYER_MOVE_BURST": "1000",
        # Races: the countdown is short, so the tests can compare pages without waiting.
        "MINERACE_COUNTDOWN_MS": "1000",
        # The tests stand where a proxy would: a request's X-Forwarded-For is its client's
        # address, so accounts can come from addresses of their own, or share one (friends on
        # one network, docs/protocol.md 6.2). Without the header, the address is 127.0.0.1.
        "MINERACE_TRUSTED_PROXIES": "127.0.0.1",
        # A matched player who says hello this late leaves its race unrated (docs/protocol.md 6.2):
        # a browser on a busy machine may take longer than the 10 s a client needs.
        "MINERACE_MATCH_HELLO_GRACE_S": "120",
        **(LENIENT_SCREEN if lenient_screen else {}),
        **(settings or {}),
    }
    env.pop("REDIS_URL", None)  # one process: the in-memory channel layer is enough
    shutil.copyfile(migrated_sqlite_template(), workdir / "db.sqlite3")
    daphne = Daphne(env, workdir / "daphne.log", health_path="/").start()
    try:
        yield daphne.url
    finally:
        daphne.stop()


# ---- the page ------------------------------------------------------------------------------


def page_sleep(page) -> Callable[[float], None]:
    """A pause for the shared wait_until that lets a page's handlers run (routes, exposed
    functions, console messages): Playwright's sync API runs them only while it is called."""
    return lambda seconds: page.wait_for_timeout(seconds * 1000)


def cell(page, x: int, y: int):
    return page.locator(f'#board .cell[data-x="{x}"][data-y="{y}"]')


def board_states(page) -> State:
    """Every cell's data-state, read from the DOM in one call."""
    return {(x, y): state for x, y, state in page.evaluate(BOARD_STATES_JS)}


def wait_ready(page) -> None:
    page.wait_for_selector("body[data-ready='1']")


def wait_changed(page, x: int, y: int, old: str) -> str:
    """Wait until cell (x, y) is no longer `old`; return its new state."""
    page.wait_for_function(
        """([x, y, old]) => {
            const cell = document.querySelector(`#board .cell[data-x="${x}"][data-y="${y}"]`);
            return cell && cell.dataset.state !== old;
        }""",
        arg=[x, y, old],
    )
    return cell(page, x, y).get_attribute("data-state")


def open_and_play_on(page, x: int, y: int) -> None:
    """Open (x, y), then flag and unflag a cell it left hidden: 3 moves that changed the board,
    so a resignation after them no longer aborts a rated race (docs/protocol.md 6.2)."""
    cell(page, x, y).click()
    wait_changed(page, x, y, "hidden")
    hidden = page.locator('#board .cell[data-state="hidden"]').first
    hx, hy = int(hidden.get_attribute("data-x")), int(hidden.get_attribute("data-y"))
    for before in ("hidden", "flag"):
        cell(page, hx, hy).click(button="right")
        wait_changed(page, hx, hy, before)


def start_custom_game(page, base_url: str, width: int, height: int, mines: int, seed: str) -> None:
    """Create a solo game through the lobby's custom form and wait for its page."""
    page.goto(base_url + "/")
    page.click("#custom summary")
    form = page.locator("#custom-form")
    form.locator("[name=width]").fill(str(width))
    form.locator("[name=height]").fill(str(height))
    form.locator("[name=mines]").fill(str(mines))
    form.locator("[name=seed]").fill(seed)
    form.locator("[type=submit]").click()
    page.wait_for_url("**/games/*/")
    wait_ready(page)


def hidden_safe_cells(board: Board, states: State) -> list[tuple[int, int]]:
    return sorted(
        (x, y)
        for (x, y), state in states.items()
        if state == "hidden" and not board.is_mine(board.index(x, y))
    )


def first_hidden_mine(board: Board, states: State) -> tuple[int, int]:
    return next(board.xy(i) for i in sorted(board.mines) if states[board.xy(i)] == "hidden")


def click_until_won(page, board: Board) -> int:
    """Left-click every safe cell still hidden until the game is won; return the clicks."""
    clicks = 0
    while cells := hidden_safe_cells(board, board_states(page)):
        x, y = cells[0]
        cell(page, x, y).click()
        clicks += 1
        wait_changed(page, x, y, "hidden")
    page.wait_for_selector("#result[data-outcome='won']")
    return clicks


def serve_static(route) -> None:
    """Answer a page's requests from the static folder, a blank page for any other path: the
    page's modules tested on their own, with no server (page.route(f"{origin}/**", ...))."""
    path = urlsplit(route.request.url).path
    if not path.startswith("/static/"):
        route.fulfill(status=200, content_type="text/html", body="<!doctype html><title>t</title>")
        return
    file = STATIC / path.removeprefix("/static/")
    if not file.is_file():
        route.fulfill(status=404, body="")
        return
    content_type = "text/javascript" if file.suffix == ".js" else mimetypes.guess_type(file)[0]
    route.fulfill(status=200, content_type=content_type, body=file.read_bytes())
