"""A solo game played in the browser to the end: won with every control, and lost."""

import re

import pytest

from games.engine import Board, bbbv, generate_board
from tests.browser.support import (
    board_states,
    cell,
    click_until_won,
    expect,
    first_hidden_mine,
    hidden_safe_cells,
    start_custom_game,
    wait_changed,
)

pytestmark = pytest.mark.browser

TIMES = "\N{MULTIPLICATION SIGN}"  # the page writes board sizes with a multiplication sign

ARROW_KEYS = {(1, 0): "ArrowRight", (-1, 0): "ArrowLeft", (0, 1): "ArrowDown", (0, -1): "ArrowUp"}


def cursor(page) -> tuple[int, int]:
    board = page.locator("#board")
    return int(board.get_attribute("data-cursor-x")), int(board.get_attribute("data-cursor-y"))


def walk_cursor_to(page, x: int, y: int) -> None:
    """Move the keyboard cursor with the arrow keys to (x, y)."""
    cx, cy = cursor(page)
    steps = [((x > cx) - (x < cx), 0)] * abs(x - cx) + [(0, (y > cy) - (y < cy))] * abs(y - cy)
    for step in steps:
        page.keyboard.press(ARROW_KEYS[step])
    assert cursor(page) == (x, y)


def chord_candidate(board: Board, states) -> tuple[tuple[int, int], tuple[int, int]]:
    """A revealed 1 with hidden safe neighbours, and the mine beside it."""
    for (x, y), state in sorted(states.items()):
        if state != "1":
            continue
        around = [board.xy(n) for n in board.neighbours[board.index(x, y)]]
        mines = [p for p in around if board.is_mine(board.index(*p))]
        hidden_safe = [p for p in around if states[p] == "hidden" and p not in mines]
        if hidden_safe:
            return (x, y), mines[0]
    raise AssertionError("the seed gives no revealed 1 to chord; pick another seed")


def assert_numbers_match(board: Board, states) -> None:
    for (x, y), state in states.items():
        if state not in ("hidden", "flag"):
            assert state == str(board.numbers[board.index(x, y)]), (x, y)


def test_win_with_mouse_keyboard_flag_and_chord(page, base_url):
    seed = "browser-win"
    start_custom_game(page, base_url, 9, 9, 10, seed)
    expect(page.locator("#timer")).to_have_text("000")
    expect(page.locator("#mines-left")).to_have_text("010")
    expect(page.locator("#result")).to_be_hidden()
    expect(page.locator("#board")).to_be_focused()
    actions = 0

    # Mouse: the first click is an opening; the clock starts.
    cell(page, 4, 4).click()
    actions += 1
    assert wait_changed(page, 4, 4, "hidden") == "0"
    board = generate_board(9, 9, 10, seed, (4, 4))
    states = board_states(page)
    assert_numbers_match(board, states)
    expect(page.locator("#timer")).not_to_have_text("000", timeout=3000)

    # Right click flags a mine beside a revealed 1; clicking the 1 then chords.
    (number_x, number_y), (mine_x, mine_y) = chord_candidate(board, states)
    cell(page, mine_x, mine_y).click(button="right")
    actions += 1
    assert wait_changed(page, mine_x, mine_y, "hidden") == "flag"
    expect(page.locator("#mines-left")).to_have_text("009")
    chorded = [
        board.xy(n)
        for n in board.neighbours[board.index(number_x, number_y)]
        if states[board.xy(n)] == "hidden" and not board.is_mine(n)
    ]
    cell(page, number_x, number_y).click()
    actions += 1
    for x, y in chorded:
        wait_changed(page, x, y, "hidden")

    # Keyboard: the cursor is visible, arrows walk, Space reveals, F flags and unflags.
    for _ in range(2):
        x, y = hidden_safe_cells(board, board_states(page))[0]
        walk_cursor_to(page, x, y)
        page.keyboard.press("Space")
        actions += 1
        wait_changed(page, x, y, "hidden")
    cursor_cell = page.locator("#board .cell.cursor")
    assert cursor_cell.evaluate("c => getComputedStyle(c).outlineStyle") == "solid"
    states = board_states(page)
    mine = first_hidden_mine(board, states)
    walk_cursor_to(page, *mine)
    page.keyboard.press("f")
    assert wait_changed(page, *mine, "hidden") == "flag"
    expect(page.locator("#mines-left")).to_have_text("008")
    page.keyboard.press("F")
    assert wait_changed(page, *mine, "flag") == "hidden"
    expect(page.locator("#mines-left")).to_have_text("009")
    actions += 2

    actions += click_until_won(page, board)

    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result).to_have_attribute("data-outcome", "won")
    expect(page.locator("#result-title")).to_have_text("You won!")
    time_text = page.text_content("#result-time")
    assert re.fullmatch(r"\d+\.\d{3} s", time_text), time_text
    assert page.text_content("#result-bbbv") == str(bbbv(board))
    assert re.fullmatch(r"\d+\.\d{2}", page.text_content("#result-bbbvs"))
    assert page.text_content("#result-clicks") == str(actions)
    assert page.text_content("#result-seed") == seed
    expect(page.locator("#face")).to_have_attribute("data-face", "cool")
    seconds = int(float(time_text.split()[0]))
    expect(page.locator("#timer")).to_have_text(f"{seconds:03d}")
    # Every safe cell shows its number; the mines are flagged, so none are left.
    states = board_states(page)
    assert_numbers_match(board, states)
    assert {p for p, s in states.items() if s == "flag"} == {board.xy(i) for i in board.mines}
    expect(page.locator("#mines-left")).to_have_text("000")


def test_loss_shows_every_mine_and_stops_the_clock(page, base_url):
    seed = "browser-loss"
    start_custom_game(page, base_url, 30, 16, 99, seed)
    cell(page, 15, 8).click()
    wait_changed(page, 15, 8, "hidden")
    board = generate_board(30, 16, 99, seed, (15, 8))
    states = board_states(page)

    wrong = hidden_safe_cells(board, states)[0]
    cell(page, *wrong).click(button="right")
    assert wait_changed(page, *wrong, "hidden") == "flag"
    expect(page.locator("#timer")).not_to_have_text("000", timeout=3000)

    mine = first_hidden_mine(board, states)
    cell(page, *mine).click()
    result = page.locator("#result")
    expect(result).to_have_attribute("data-outcome", "lost")
    expect(result).to_be_visible()
    expect(page.locator("#result-title")).to_have_text("Boom! You lost")
    expect(page.locator("#face")).to_have_attribute("data-face", "dead")
    # A loss: its estimated time, without milliseconds, and the 3BV it solved (test_end_screen.py
    # checks the figures).
    assert re.fullmatch(r"\N{ALMOST EQUAL TO} \d+(\.\d)? s", page.text_content("#result-time"))
    assert re.fullmatch(rf"\d+/{bbbv(board)}", page.text_content("#result-bbbv"))
    assert page.text_content("#result-clicks") == "3"
    assert page.text_content("#result-seed") == seed

    states = board_states(page)
    shown = {p for p, s in states.items() if s in ("mine", "exploded")}
    assert shown == {board.xy(i) for i in board.mines}
    assert [p for p, s in states.items() if s == "exploded"] == [mine]
    assert states[wrong] == "wrongflag"
    exploded_colour = cell(page, *mine).evaluate("c => getComputedStyle(c).backgroundColor")
    assert exploded_colour == "rgb(255, 0, 0)"

    # The counters stand still after the end.
    timer, mines_left = page.text_content("#timer"), page.text_content("#mines-left")
    assert timer != "000"
    assert mines_left == "098"
    page.wait_for_timeout(1500)  # time passes: a running timer would tick
    assert page.text_content("#timer") == timer
    assert page.text_content("#mines-left") == mines_left
    # Clicks after the end change nothing.
    other = hidden_safe_cells(board, states)[0]
    cell(page, *other).click()
    page.wait_for_timeout(300)  # nothing is to happen, so no event to wait for: time to show
    assert cell(page, *other).get_attribute("data-state") == "hidden"

    # A reload of the finished game shows the same end (the welcome carries the results).
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert board_states(page) == states
    expect(result).to_have_attribute("data-outcome", "lost")
    expect(page.locator("#timer")).to_have_text(timer)

    # "New game" starts another game of the same size, without the seed.
    old_url = page.url
    page.click("#new-game")
    page.wait_for_url(lambda url: url != old_url and "/games/" in url)
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#game-info")).to_have_text(f"Custom · 30{TIMES}16 · 99 mines · unranked")
    expect(page.locator("#board .cell[data-state='hidden']")).to_have_count(480)
