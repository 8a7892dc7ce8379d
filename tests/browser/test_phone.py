"""A phone first (issue 14.1), at 390x844 with touch: an expert board fits the screen's width
at a tap of "Fit" (it opens with cells a finger can hit: test_phone_expert.py), zooms (buttons
and pinch) and pans without ever opening a cell, flag mode flags on a tap, and a
race shows its racers in a bar above the board."""

import re

import pytest

from games.engine import generate_board
from tests.browser.support import (
    PHONE,
    board_states,
    cell,
    expect,
    wait_changed,
)
from tests.browser.support.race import api, join, racer, shoot, start_race, unique
from tests.browser.support.touch import (
    cell_px,
    centre_of,
    drag,
    gesture,
    line,
    long_press,
    open_game,
    phone_page,
    pinch,
)

pytestmark = pytest.mark.browser

CELL_BOXES_JS = """() => [...document.querySelectorAll('#board .cell')].map(cell => {
    const box = cell.getBoundingClientRect();
    return [box.left, box.top, box.right, box.bottom];
})"""


@pytest.fixture
def phone(open_page):
    return phone_page(open_page)


def assert_board_on_screen(page, width: int = PHONE["width"], height: int = PHONE["height"]):
    """Every cell of the board inside the viewport, and nothing wider than the screen."""
    boxes = page.evaluate(CELL_BOXES_JS)
    outside = [box for box in boxes if box[0] < 0 or box[2] > width or box[3] > height]
    assert outside == [], f"{len(outside)} of {len(boxes)} cells outside the viewport"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(
        "() => { const s = document.getElementById('board-scroll');"
        " return s.scrollWidth <= s.clientWidth && s.scrollHeight <= s.clientHeight; }"
    )


def fit(page) -> None:
    page.tap("[data-zoom='fit']")
    expect(page.locator("[data-zoom='fit']")).to_be_disabled()


def test_an_expert_board_fits_a_phone(phone, base_url):
    open_game(phone, base_url, {"mode": "solo", "preset": "expert", "seed": "phone-fit"})
    assert phone.locator("#board .cell").count() == 30 * 16
    fit(phone)
    assert_board_on_screen(phone)
    assert cell_px(phone) >= 12
    # No focus mark on a touch screen until a key is used: the board is not focused at load.
    assert phone.evaluate("document.activeElement.id") != "board"

    cell(phone, 15, 8).tap()
    assert wait_changed(phone, 15, 8, "hidden") == "0"
    assert_board_on_screen(phone)
    shoot(phone, "phone-expert.png")


def test_an_expert_board_fits_a_phone_on_its_side(open_page, base_url):
    landscape = {"width": PHONE["height"], "height": PHONE["width"]}
    page = open_page(viewport=landscape, is_mobile=True, has_touch=True)
    # A browser that has had its long-press hint: the hint's line is room the 390 px high
    # screen does not have to spare (it is said once, and dismissed).
    page.add_init_script("localStorage.setItem('minerace.hint.long-press', 'seen')")
    open_game(page, base_url, {"mode": "solo", "preset": "expert", "seed": "phone-landscape"})
    fit(page)
    assert_board_on_screen(page, **landscape)
    assert cell_px(page) >= 12


def test_zoom_and_pan_never_open_a_cell(phone, base_url):
    open_game(phone, base_url, {"mode": "solo", "preset": "expert", "seed": "phone-zoom"})
    fit(phone)
    fitted = cell_px(phone)

    phone.tap("[data-zoom='in']")
    zoomed = cell_px(phone)
    assert zoomed > fitted
    expect(phone.locator("[data-zoom='fit']")).to_be_enabled()
    scroller = phone.locator("#board-scroll")
    assert scroller.evaluate("s => s.scrollWidth > s.clientWidth"), "a zoomed board pans"

    # A pinch that starts on cells zooms further and opens nothing.
    pinch(phone, centre_of(scroller), 60, 200)
    pinched = cell_px(phone)
    assert pinched > zoomed

    # A drag that starts on a hidden cell pans the board, and however long it lasts after
    # its first move (past the 10 px slop), it neither opens nor flags anything. (Its first
    # move must come before the long press: a finger held still that long is a long press.
    # Steps of 20 px make that so however slowly a loaded machine delivers the events.)
    before = scroller.evaluate("s => s.scrollLeft")
    start = centre_of(cell(phone, 15, 8))
    gesture(phone, [line(start, (start[0] - 160, start[1] - 40), steps=8)])
    assert scroller.evaluate("s => s.scrollLeft") > before
    drag(phone, centre_of(scroller), (30, 300))
    phone.wait_for_timeout(700)  # longer than the long press: nothing pending fires
    assert set(board_states(phone).values()) == {"hidden"}
    expect(phone.locator("#timer")).to_have_text("000")
    expect(phone.locator("#mines-left")).to_have_text("099")

    # A pinch back in, then the buttons: smaller, and the screen's width again.
    pinch(phone, centre_of(scroller), 220, 90)
    assert cell_px(phone) < pinched
    phone.tap("[data-zoom='out']")
    phone.tap("[data-zoom='fit']")
    assert cell_px(phone) == fitted
    assert_board_on_screen(phone)
    assert set(board_states(phone).values()) == {"hidden"}

    # And a plain tap still opens.
    cell(phone, 15, 8).tap()
    assert wait_changed(phone, 15, 8, "hidden") == "0"


def test_flag_mode_flags_on_a_tap(phone, base_url):
    seed = "phone-flag-mode"
    open_game(phone, base_url, {"mode": "solo", "preset": "intermediate", "seed": seed})
    board = generate_board(16, 16, 40, seed, (8, 8))
    cell(phone, 8, 8).tap()
    assert wait_changed(phone, 8, 8, "hidden") == "0"

    toggle = phone.locator("#flag-mode")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    states = board_states(phone)
    mine = next(board.xy(i) for i in sorted(board.mines) if states[board.xy(i)] == "hidden")
    cell(phone, *mine).tap()
    assert wait_changed(phone, *mine, "hidden") == "flag"
    expect(phone.locator("#mines-left")).to_have_text("039")
    cell(phone, *mine).tap()
    assert wait_changed(phone, *mine, "flag") == "hidden"

    # In flag mode a long press reveals.
    safe = next(
        (x, y)
        for (x, y), state in sorted(board_states(phone).items())
        if state == "hidden" and not board.is_mine(board.index(x, y))
    )
    long_press(phone, centre_of(cell(phone, *safe)))
    assert wait_changed(phone, *safe, "hidden") not in ("hidden", "flag")

    # Flag mode off again: a tap reveals.
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    safe = next(
        (x, y)
        for (x, y), state in sorted(board_states(phone).items())
        if state == "hidden" and not board.is_mine(board.index(x, y))
    )
    cell(phone, *safe).tap()
    assert wait_changed(phone, *safe, "hidden") not in ("hidden", "flag")


def test_a_race_on_a_phone_shows_the_racers_above_the_board(open_page, base_url):
    race = api(base_url, "/api/games/", {"mode": "race", "preset": "expert"})
    url = base_url + race["page"]
    alice_name, bob_name = unique("alice"), unique("bob")
    alice = phone_page(open_page)
    alice.add_init_script(f"localStorage.setItem('minerace.nickname', '{alice_name}')")
    bob = racer(open_page, bob_name)
    join(alice, url)
    join(bob, url)
    expect(alice.locator("#race-bar")).to_be_hidden()  # the waiting room has its own list
    start_race([alice, bob])

    bar = alice.locator("#race-bar")
    expect(bar).to_be_visible()
    expect(bar.locator(".bar-racer")).to_have_count(2)
    expect(bar.locator(".bar-racer.me .bar-name")).to_have_text("you")
    expect(bar.locator(f".bar-racer[title^='{bob_name}:']")).to_have_count(1)
    bar_box = bar.bounding_box()
    board_box = alice.locator("#board-scroll").bounding_box()
    assert bar_box["y"] >= 0 and bar_box["y"] + bar_box["height"] <= board_box["y"]
    # The board's frame on the screen (its cells a finger's size: it pans inside).
    assert board_box["x"] >= 0 and board_box["x"] + board_box["width"] <= PHONE["width"]
    assert board_box["y"] + board_box["height"] <= PHONE["height"]
    assert alice.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # On a laptop the racers are beside the board, as before: no bar.
    expect(bob.locator("#race-bar")).to_be_hidden()

    alice.locator("#board .cell[data-start='1']").tap()
    expect(bar.locator(".bar-racer.me .bar-status")).not_to_have_text("0%")
    bob.locator("#board .cell[data-start='1']").click()
    expect(bar.locator(".bar-racer:not(.me) .bar-status")).to_have_text(re.compile(r"^[1-9]\d*%$"))
    shoot(alice, "phone-race.png")
