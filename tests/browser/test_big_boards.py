"""100x100 boards in the browser, on Daphne started as docs/deploy.md starts it: the page takes
frames over 64 KiB (a won board's cells, a reload's welcome, a 9,000-mine loss's game_over)
as it takes small ones (issue 21, point 2)."""

import pytest

from games.engine import generate_board
from tests.browser.support import (
    board_states,
    cell,
    expect,
    first_hidden_mine,
    start_custom_game,
    wait_changed,
    wait_ready,
)

pytestmark = pytest.mark.browser


def test_a_100x100_board_won_in_one_click_and_reloaded(page, base_url):
    seed = "browser-big-win"
    start_custom_game(page, base_url, 100, 100, 1, seed)
    cell(page, 50, 50).click()
    expect(page.locator("#result")).to_have_attribute("data-outcome", "won", timeout=20_000)
    board = generate_board(100, 100, 1, seed, (50, 50))
    states = board_states(page)
    opened = {p for p, s in states.items() if s not in ("hidden", "flag", "mine")}
    assert opened == {board.xy(i) for i in range(board.size) if not board.is_mine(i)}

    page.reload()
    wait_ready(page)
    assert board_states(page) == states


def test_a_100x100_board_with_9000_mines_shows_every_mine_when_lost(page, base_url):
    seed = "browser-big-loss"
    start_custom_game(page, base_url, 100, 100, 9000, seed)
    cell(page, 50, 50).click()
    wait_changed(page, 50, 50, "hidden")
    board = generate_board(100, 100, 9000, seed, (50, 50))
    mine = first_hidden_mine(board, board_states(page))
    cell(page, *mine).click()
    expect(page.locator("#result")).to_have_attribute("data-outcome", "lost", timeout=20_000)
    states = board_states(page)
    shown = {p for p, s in states.items() if s in ("mine", "exploded")}
    assert shown == {board.xy(i) for i in board.mines}
