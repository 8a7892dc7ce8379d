"""Accessibility of the game page (issue 14.8): the board is an ARIA grid with a label per cell,
the LEDs read as words, the timer is no live region (a separate polite one says when a game
starts and ends, and what the player's own reveal or flag did), and the focused board shows its
focus mark at once; the keyboard plays.

Roles and names are read twice: from the DOM, and from Chromium's own accessibility tree (what
a screen reader is given)."""

import re

import pytest

from games.engine import generate_board
from tests.browser.support import board_states, cell, expect, wait_changed
from tests.browser.support.race import shoot
from tests.browser.support.touch import open_game

pytestmark = pytest.mark.browser

SEED = "a11y-grid"
WIDTH, HEIGHT, MINES = 9, 9, 10
WORDS = {
    "hidden": "hidden",
    "flag": "flagged",
    "0": "empty",
    "1": "1 mine around",
    "mine": "mine",
    "exploded": "exploded mine",
    "wrongflag": "wrong flag",
}
LABELS_JS = """() => [...document.querySelectorAll('#board .cell')].map(cell => [
    Number(cell.dataset.x), Number(cell.dataset.y), cell.dataset.state, cell.getAttribute('role'),
    cell.getAttribute('aria-label')])"""
FOCUS_MARK_JS = """() => {
    const style = getComputedStyle(document.querySelector('#board .cell.cursor'));
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth),
             colour: style.outlineColor };
}"""


def expected_label(x: int, y: int, state: str) -> str:
    words = WORDS.get(state, f"{state} mines around")
    return f"row {y + 1}, column {x + 1}, {words}"


def assert_labels(page) -> None:
    for x, y, state, role, label in page.evaluate(LABELS_JS):
        assert role == "gridcell"
        assert label == expected_label(x, y, state)


def accessibility_tree(page) -> list[dict]:
    """Chromium's accessibility tree of the page: [{role, name, live}, ...]."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    tree = []
    for node in nodes:
        if node.get("ignored"):
            continue
        properties = {
            prop["name"]: prop["value"].get("value") for prop in node.get("properties", [])
        }
        tree.append(
            {
                "role": node.get("role", {}).get("value"),
                "name": node.get("name", {}).get("value", ""),
                "live": properties.get("live"),
            }
        )
    return tree


def focus_mark(page) -> dict:
    return page.evaluate(FOCUS_MARK_JS)


def test_the_board_is_a_grid_with_a_label_per_cell(page, base_url):
    board = generate_board(WIDTH, HEIGHT, MINES, SEED, (4, 4))
    open_game(page, base_url, {"mode": "solo", "preset": "beginner", "seed": SEED})
    grid = page.locator("#board")
    expect(grid).to_have_attribute("role", "grid")
    expect(grid).to_have_attribute("aria-label", "Minefield, 9 by 9")
    expect(grid.locator(":scope > [role=row]")).to_have_count(HEIGHT)
    # A row is named "row 3", not by all its cells' labels strung together (issue 22.6).
    expect(grid.locator(":scope > [role=row]").nth(2)).to_have_attribute("aria-label", "row 3")
    expect(grid.locator(":scope > [role=row] > [role=gridcell]")).to_have_count(WIDTH * HEIGHT)
    expect(page.get_by_role("gridcell", name="row 3, column 5, hidden")).to_have_attribute(
        "data-x", "4"
    )
    assert_labels(page)

    cell(page, 4, 4).click()
    wait_changed(page, 4, 4, "hidden")
    states = board_states(page)
    assert states[(4, 4)] == "0"
    mine = next(board.xy(i) for i in sorted(board.mines) if states[board.xy(i)] == "hidden")
    cell(page, *mine).click(button="right")
    assert wait_changed(page, *mine, "hidden") == "flag"
    assert_labels(page)
    numbers = [(xy, s) for xy, s in board_states(page).items() if s in "12345678"]
    assert numbers, "the opening shows numbers"

    # What Chromium gives a screen reader: one grid, its rows and cells with those names.
    tree = accessibility_tree(page)
    roles = [node["role"] for node in tree]
    assert roles.count("grid") == 1
    assert roles.count("row") == HEIGHT
    rows = [node["name"] for node in tree if node["role"] == "row"]
    assert rows == [f"row {y + 1}" for y in range(HEIGHT)]
    assert roles.count("gridcell") == WIDTH * HEIGHT
    names = {node["name"] for node in tree if node["role"] == "gridcell"}
    assert expected_label(4, 4, "0") in names
    assert expected_label(*mine, "flag") in names
    (x, y), number = numbers[0]
    assert expected_label(x, y, number) in names

    # The end: the mines, the exploded one.
    other = next(board.xy(i) for i in sorted(board.mines) if board.xy(i) != mine)
    cell(page, *other).click()
    assert wait_changed(page, *other, "hidden") == "exploded"
    page.wait_for_selector("#board .cell[data-state='mine']")
    assert_labels(page)


def test_the_leds_read_as_words_and_only_the_start_and_end_are_announced(page, base_url):
    board = generate_board(WIDTH, HEIGHT, MINES, SEED, (4, 4))
    open_game(page, base_url, {"mode": "solo", "preset": "beginner", "seed": SEED})
    mines_left, timer = page.locator("#mines-left"), page.locator("#timer")
    expect(mines_left).to_have_attribute("aria-label", "10 mines left")
    expect(timer).to_have_attribute("aria-label", "timer 0 seconds")
    expect(timer).to_have_attribute("role", "timer")
    expect(timer).to_have_attribute("aria-live", "off")
    # No live region around the LEDs: a screen reader is never read the clock's ticks.
    for led in (mines_left, timer):
        assert led.evaluate("e => e.closest('[aria-live]:not([aria-live=off]), output')") is None
    announcer = page.locator("#announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    expect(announcer).to_have_text("")

    cell(page, 4, 4).click()
    wait_changed(page, 4, 4, "hidden")
    expect(announcer).to_have_text(re.compile(r"^Game started\. Opened \d+ cells\.$"))
    expect(timer).to_have_attribute("aria-label", re.compile(r"^timer [1-9]\d* seconds?$"))
    mine = next(
        board.xy(i) for i in sorted(board.mines) if board_states(page)[board.xy(i)] == "hidden"
    )
    cell(page, *mine).click(button="right")
    expect(announcer).to_have_text(f"Flagged row {mine[1] + 1}, column {mine[0] + 1}.")
    expect(mines_left).to_have_attribute("aria-label", "9 mines left")
    expect(mines_left).to_have_text("009")

    tree = accessibility_tree(page)
    led_names = [node["name"] for node in tree if node["name"].startswith("timer ")]
    assert len(led_names) == 1 and re.fullmatch(r"timer \d+ seconds?", led_names[0])
    assert any(node["name"] == "9 mines left" for node in tree)
    assert not any("888" in node["name"] for node in tree)
    timer_nodes = [node for node in tree if node["role"] == "timer"]
    assert len(timer_nodes) == 1 and timer_nodes[0]["live"] in (None, "off")
    live = sorted({node["live"] for node in tree if node["live"] not in (None, "off")})
    assert live in (["polite"], ["assertive", "polite"])

    other = next(board.xy(i) for i in sorted(board.mines) if board.xy(i) != mine)
    cell(page, *other).click()
    expect(announcer).to_have_text("You hit a mine. Game over.")


def test_the_focused_board_shows_its_focus_mark_and_plays_by_keyboard(page, base_url):
    open_game(page, base_url, {"mode": "solo", "preset": "beginner", "seed": SEED})
    grid = page.locator("#board")
    # Focused at load, and marked at once: no key pressed yet.
    assert page.evaluate("document.activeElement.id") == "board"
    mark = focus_mark(page)
    assert mark["style"] == "solid" and mark["width"] >= 2, mark
    cursor = page.locator("#board .cell.cursor")
    expect(grid).to_have_attribute("aria-activedescendant", cursor.get_attribute("id"))
    expect(cursor).to_have_attribute("data-x", "4")
    shoot(page, "focus-mark.png")

    # A click hides the mark (the mouse shows where it is); the keyboard brings it back.
    cell(page, 4, 4).click()
    wait_changed(page, 4, 4, "hidden")
    assert focus_mark(page)["style"] == "none"
    page.keyboard.press("ArrowRight")
    assert focus_mark(page)["style"] == "solid"
    expect(grid).to_have_attribute("aria-activedescendant", re.compile(r"-5-4$"))

    # Away with Tab and back with Shift+Tab: marked again.
    cell(page, 0, 0).click(button="right")  # by the mouse again
    assert focus_mark(page)["style"] == "none"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") != "board"
    for _ in range(6):
        page.keyboard.press("Shift+Tab")
        if page.evaluate("document.activeElement.id") == "board":
            break
    assert page.evaluate("document.activeElement.id") == "board"
    assert focus_mark(page)["style"] == "solid"

    # Keyboard play: arrows move, F flags, Space reveals.
    states = board_states(page)
    target = next(
        (x, y) for (x, y), state in sorted(states.items()) if state == "hidden" and (x, y) != (0, 0)
    )
    x, y = (int(v) for v in re.findall(r"\d+", grid.get_attribute("aria-activedescendant"))[-2:])
    for _ in range(abs(target[0] - x)):
        page.keyboard.press("ArrowRight" if target[0] > x else "ArrowLeft")
    for _ in range(abs(target[1] - y)):
        page.keyboard.press("ArrowDown" if target[1] > y else "ArrowUp")
    expect(grid).to_have_attribute("aria-activedescendant", f"board-cell-{target[0]}-{target[1]}")
    page.keyboard.press("f")
    assert wait_changed(page, *target, "hidden") == "flag"
    page.keyboard.press("f")
    assert wait_changed(page, *target, "flag") == "hidden"


def test_a_screen_reader_hears_what_each_reveal_and_flag_did(page, base_url):
    """Issue 22.6: the polite live region says the result of the player's own click, briefly."""
    board = generate_board(WIDTH, HEIGHT, MINES, SEED, (4, 4))
    open_game(page, base_url, {"mode": "solo", "preset": "beginner", "seed": SEED})
    announcer = page.locator("#announcer")
    cell(page, 4, 4).click()
    wait_changed(page, 4, 4, "hidden")
    opened = sum(1 for state in board_states(page).values() if state != "hidden")
    expect(announcer).to_have_text(f"Game started. Opened {opened} cells.")

    states = board_states(page)
    mine = next(board.xy(i) for i in sorted(board.mines) if states[board.xy(i)] == "hidden")
    cell(page, *mine).click(button="right")
    expect(announcer).to_have_text(f"Flagged row {mine[1] + 1}, column {mine[0] + 1}.")
    cell(page, *mine).click(button="right")
    expect(announcer).to_have_text(f"Flag removed, row {mine[1] + 1}, column {mine[0] + 1}.")

    # A single number opened: its cell and what it says.
    number = next(
        board.xy(i)
        for i in range(WIDTH * HEIGHT)
        if not board.is_mine(i) and states[board.xy(i)] == "hidden" and board.numbers[i] > 0
    )
    cell(page, *number).click()
    count = board.numbers[board.index(*number)]
    words = "1 mine around" if count == 1 else f"{count} mines around"
    expect(announcer).to_have_text(f"row {number[1] + 1}, column {number[0] + 1}: {words}.")
