"""A phone: the board fits a 390 px wide screen, a tap reveals and a long press flags."""

import pytest

from tests.browser.support import PHONE, cell, expect, start_custom_game, wait_changed

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(open_page):
    return open_page(viewport=PHONE, is_mobile=True, has_touch=True)


def long_press(page, x: int, y: int) -> None:
    """Hold a finger on cell (x, y) for 600 ms (Playwright has tap() but no long press)."""
    box = cell(page, x, y).bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(600)
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    touch.detach()


def test_intermediate_fits_a_phone_and_takes_taps(phone, base_url):
    start_custom_game(phone, base_url, 16, 16, 40, "browser-touch")
    fits = phone.evaluate(
        """() => {
            const scroller = document.getElementById('board-scroll');
            return scroller.scrollWidth <= scroller.clientWidth
                && document.documentElement.scrollWidth <= window.innerWidth;
        }"""
    )
    assert fits, "the 16x16 board must fit the phone's width without scrolling"
    assert cell(phone, 0, 0).bounding_box()["width"] >= 20
    board = phone.locator("#board")
    assert board.evaluate("b => getComputedStyle(b).touchAction") == "manipulation"
    assert board.evaluate("b => getComputedStyle(b).userSelect") == "none"

    cell(phone, 8, 8).tap()
    assert wait_changed(phone, 8, 8, "hidden") == "0"
    hidden = phone.locator("#board .cell[data-state='hidden']").first
    x, y = int(hidden.get_attribute("data-x")), int(hidden.get_attribute("data-y"))
    long_press(phone, x, y)
    assert wait_changed(phone, x, y, "hidden") == "flag"
    expect(phone.locator("#mines-left")).to_have_text("039")
    # A long press on the flag takes it away again.
    long_press(phone, x, y)
    assert wait_changed(phone, x, y, "flag") == "hidden"
