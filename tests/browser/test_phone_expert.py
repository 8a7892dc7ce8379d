"""Expert on a phone (issue 22.5), at 390x844 with touch: cells a finger can hit (24 px, not the
12 px that fit the screen's width) with the race's start cell in view, "+" that reaches that
size from "Fit" in two taps, and the long-press hint said once; a laptop is as before."""

import pytest

from tests.browser.support import LAPTOP, PHONE, cell, expect, wait_changed
from tests.browser.support.race import api, join, racer, shoot, start_race, unique
from tests.browser.support.touch import cell_px, open_game, phone_page

pytestmark = pytest.mark.browser

FINGER_PX = 24
IN_VIEW_JS = """([x, y]) => {
    const cell = document.querySelector(`#board .cell[data-x="${x}"][data-y="${y}"]`);
    const box = cell.getBoundingClientRect();
    const frame = document.getElementById('board-scroll').getBoundingClientRect();
    return box.left >= frame.left && box.right <= frame.right && box.top >= frame.top
        && box.bottom <= frame.bottom && box.left >= 0 && box.right <= window.innerWidth
        && box.bottom <= window.innerHeight;
}"""


def in_view(page, x: int, y: int) -> bool:
    return page.evaluate(IN_VIEW_JS, [x, y])


def test_an_expert_race_on_a_phone_opens_finger_sized_at_its_start_cell(open_page, base_url):
    race = api(base_url, "/api/games/", {"mode": "race", "preset": "expert"})
    url = base_url + race["page"]
    phone_name = unique("thumb")
    phone = phone_page(open_page)
    phone.add_init_script(f"localStorage.setItem('minerace.nickname', '{phone_name}')")
    laptop = racer(open_page, unique("desk"))
    join(phone, url)
    join(laptop, url)
    start_race([phone, laptop])

    start = phone.locator("#board .cell[data-start='1']")
    x, y = int(start.get_attribute("data-x")), int(start.get_attribute("data-y"))
    assert cell_px(phone) >= FINGER_PX
    assert in_view(phone, x, y), "the start cell is on the screen, in the board's frame"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(phone, "phone-expert-race-start.png")
    start.tap()
    assert wait_changed(phone, x, y, "hidden") != "hidden"
    # The laptop's board is as it was: the whole expert board, no finger floor.
    assert laptop.locator("#board-scroll").evaluate("s => s.scrollWidth <= s.clientWidth")


def test_plus_reaches_a_fingers_size_from_fit_in_two_taps(open_page, base_url):
    phone = phone_page(open_page)
    open_game(phone, base_url, {"mode": "solo", "preset": "expert", "seed": "phone-steps"})
    assert cell_px(phone) >= FINGER_PX
    assert in_view(phone, 15, 8), "a solo board opens at its centre"
    fit = phone.locator("[data-zoom='fit']")
    expect(fit).to_be_enabled()
    fit.tap()
    fitted = cell_px(phone)
    assert fitted < FINGER_PX
    expect(fit).to_be_disabled()
    phone.tap("[data-zoom='in']")
    phone.tap("[data-zoom='in']")
    assert cell_px(phone) >= FINGER_PX
    phone.tap("[data-zoom='in']")
    assert cell_px(phone) >= 32
    cell(phone, 15, 8).tap()
    assert wait_changed(phone, 15, 8, "hidden") == "0"


def test_the_long_press_hint_is_said_once_on_a_touch_screen(open_page, base_url):
    phone = phone_page(open_page)
    body = {"mode": "solo", "preset": "expert", "seed": "phone-hint"}
    open_game(phone, base_url, body)
    hint = phone.locator("#touch-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("long press on a cell flags it")
    assert hint.bounding_box()["y"] + hint.bounding_box()["height"] <= PHONE["height"]
    shoot(phone, "phone-long-press-hint.png")
    hint.get_by_role("button", name="Got it").tap()
    expect(hint).to_be_hidden()
    assert phone.evaluate("localStorage.getItem('minerace.hint.long-press')") == "seen"

    open_game(phone, base_url, body)  # another game, the same browser: said already
    phone.wait_for_timeout(300)
    expect(hint).to_be_hidden()

    laptop = open_page(viewport=LAPTOP)  # a mouse and keyboard: the help line says it
    open_game(laptop, base_url, body)
    expect(laptop.locator("#board-help")).to_be_visible()
    expect(laptop.locator("#touch-hint")).to_be_hidden()
