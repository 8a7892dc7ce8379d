"""Coming back to a game: reload (resume by token), a dropped socket, a second browser."""

import re

import pytest

from games.engine import generate_board
from tests.browser.support import (
    board_states,
    cell,
    expect,
    hidden_safe_cells,
    start_custom_game,
    wait_changed,
    wait_ready,
)

pytestmark = pytest.mark.browser

SEED = "browser-resume"


def open_and_play(page, base_url):
    """A 9x9 game with one opening and one flag; returns its board."""
    start_custom_game(page, base_url, 9, 9, 10, SEED)
    cell(page, 4, 4).click()
    wait_changed(page, 4, 4, "hidden")
    board = generate_board(9, 9, 10, SEED, (4, 4))
    x, y = hidden_safe_cells(board, board_states(page))[0]
    cell(page, x, y).click(button="right")
    wait_changed(page, x, y, "hidden")
    return board


def test_reload_keeps_the_board(page, base_url):
    board = open_and_play(page, base_url)
    before = board_states(page)
    assert sum(s not in ("hidden", "flag") for s in before.values()) > 1

    page.reload()
    wait_ready(page)
    assert board_states(page) == before
    expect(page.locator("#connection")).to_have_text(re.compile("^playing as guest-"))
    expect(page.locator("#mines-left")).to_have_text("009")
    expect(page.locator("#timer")).not_to_have_text("000", timeout=3000)
    # Still this browser's game: a move goes through.
    x, y = hidden_safe_cells(board, before)[0]
    cell(page, x, y).click()
    assert wait_changed(page, x, y, "hidden") == str(board.numbers[board.index(x, y)])


def test_reconnects_after_the_socket_drops(page, base_url):
    sockets = []

    def through_to_server(route):
        route.connect_to_server()
        sockets.append(route)

    page.route_web_socket(re.compile(r"/ws/games/"), through_to_server)
    board = open_and_play(page, base_url)
    before = board_states(page)

    sockets[-1].close(code=1011, reason="test drops the connection")
    expect(page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
    expect(page.locator("#connection")).to_have_text("reconnecting…")
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    assert len(sockets) == 2
    assert board_states(page) == before
    x, y = hidden_safe_cells(board, before)[0]
    cell(page, x, y).click()
    wait_changed(page, x, y, "hidden")


def test_a_second_browser_spectates(page, open_page, base_url):
    board = open_and_play(page, base_url)
    spectator = open_page()
    spectator.goto(page.url)
    wait_ready(spectator)
    expect(spectator.locator("#connection")).to_have_text("spectating")
    # A running game's spectator sees its common ground (docs/protocol.md 4): every cell the
    # player uncovered, never a flag, and the mine counter from the player's flags.
    uncovered = {xy: s if s != "flag" else "hidden" for xy, s in board_states(page).items()}
    assert "flag" in board_states(page).values()
    assert board_states(spectator) == uncovered
    expect(spectator.locator("#mines-left")).to_have_text("009")

    # The player's moves reach the spectator; the spectator's clicks do nothing.
    x, y = hidden_safe_cells(board, board_states(page))[0]
    cell(page, x, y).click()
    wait_changed(page, x, y, "hidden")
    wait_changed(spectator, x, y, "hidden")
    x, y = hidden_safe_cells(board, board_states(page))[0]
    cell(spectator, x, y).click()
    spectator.wait_for_timeout(300)  # nothing is to happen, so no event to wait for: time to show
    assert cell(page, x, y).get_attribute("data-state") == "hidden"
    assert cell(spectator, x, y).get_attribute("data-state") == "hidden"


def test_a_silent_link_is_left_for_a_new_socket(page, base_url):
    """A link cut without a close (a host or a switch port gone): the move's answer never comes;
    the page leaves that socket by itself, and the new one's welcome shows the committed move."""
    sockets = []
    silenced = []

    def through_to_server(route):
        server = route.connect_to_server()
        server.on_message(lambda message: None if route in silenced else route.send(message))
        sockets.append(route)

    page.route_web_socket(re.compile(r"/ws/games/"), through_to_server)
    board = open_and_play(page, base_url)
    before = board_states(page)

    silenced.append(sockets[-1])  # from now on nothing the server says reaches the page
    x, y = hidden_safe_cells(board, before)[0]
    cell(page, x, y).click()
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    assert wait_changed(page, x, y, "hidden") == str(board.numbers[board.index(x, y)])
    assert len(sockets) == 2
