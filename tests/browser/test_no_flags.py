"""No-flag play in the browser (docs/protocol.md 9.1): the lobby's "No flags" starts a game
without flags; there a right click (laptop) or a long press (phone) does nothing, said once; a
win without a flag is NF. Screenshots of both sizes are written to $MINERACE_SHOTS if set."""

import pytest

from games.engine import generate_board
from tests.browser.support import (
    board_states,
    cell,
    expect,
    first_hidden_mine,
    hidden_safe_cells,
    wait_changed,
    wait_ready,
)
from tests.browser.support.pages import api
from tests.browser.support.race import shoot
from tests.browser.support.touch import centre_of, long_press, open_game, phone_page

pytestmark = pytest.mark.browser

SEED = "nf-browser"


def sent_frames(page) -> list[str]:
    return page.evaluate("window.__sent")


SPY = """window.__sent = [];
const realSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  window.__sent.push(String(data));
  return realSend.call(this, data);
};"""


def test_the_lobby_starts_a_no_flag_game_where_a_right_click_does_nothing(open_page, base_url):
    page = open_page(viewport={"width": 1280, "height": 800})
    page.add_init_script(SPY)
    page.goto(base_url + "/")
    toggle = page.get_by_role("checkbox", name="No flags")
    expect(toggle).not_to_be_checked()
    toggle.check()
    shoot(page, "lobby-no-flags-1280.png")
    page.locator(".preset[data-preset='beginner']").click()
    page.wait_for_url("**/games/*/")
    wait_ready(page)
    expect(page.locator("#no-flags-badge")).to_be_visible()
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    assert api(base_url, f"/api/games/{game_id}/")["no_flags"] is True

    cell(page, 4, 4).click()
    wait_changed(page, 4, 4, "hidden")
    states = board_states(page)
    hidden = next(xy for xy, state in sorted(states.items()) if state == "hidden")
    cell(page, *hidden).click(button="right")
    message = page.locator("#message")
    expect(message).to_have_text("No flags in this game: right click and long press do nothing.")
    shoot(page, "no-flags-1280.png")
    assert board_states(page)[hidden] == "hidden"
    assert not any('"flag"' in frame for frame in sent_frames(page))
    # Said once: the message goes, and another right click brings it back no more.
    expect(message).to_be_hidden(timeout=6000)
    cell(page, *hidden).click(button="right")
    page.keyboard.press("f")
    page.wait_for_timeout(300)
    expect(message).to_be_hidden()
    assert board_states(page)[hidden] == "hidden"
    assert not any('"flag"' in frame for frame in sent_frames(page))


def test_a_long_press_on_a_phone_flags_nothing_and_the_win_is_nf(
    open_page, base_url, server_database
):
    phone = phone_page(open_page)
    phone.add_init_script(SPY)
    game = open_game(phone, base_url, {"preset": "beginner", "seed": SEED, "no_flags": True})
    expect(phone.locator("#no-flags-badge")).to_be_visible()
    board = generate_board(9, 9, 10, SEED, (4, 4))
    cell(phone, 4, 4).tap()
    wait_changed(phone, 4, 4, "hidden")
    mine = first_hidden_mine(board, board_states(phone))
    long_press(phone, centre_of(cell(phone, *mine)))
    expect(phone.locator("#message")).to_contain_text("No flags in this game")
    shoot(phone, "no-flags-390.png")
    assert board_states(phone)[mine] == "hidden"
    # A right click at 390 px (a mouse on a small window) flags nothing either: no flag frame
    # by the win below (the clicks after it are answered in order), and the win is NF.
    cell(phone, *mine).click(button="right")
    while safe := hidden_safe_cells(board, board_states(phone)):
        cell(phone, *safe[0]).tap()
        wait_changed(phone, *safe[0], "hidden")
    phone.wait_for_selector("#result[data-outcome='won']")
    assert not any('"flag"' in frame for frame in sent_frames(phone))
    state = api(base_url, f"/api/games/{game['id']}/")
    assert [(r["status"], r["nf"]) for r in state["results"]] == [("won", True)]
