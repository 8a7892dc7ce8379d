"""Settings (issue 14.2): a dialog the keyboard drives, kept in the browser across reloads and
with an account on the server (its values win on another device), what each one changes on the
board, and number colours that meet WCAG AA (4.5:1) on the revealed cell in every theme."""

import json
import re
from functools import partial

import pytest

from games.engine import generate_board
from tests.browser.support import board_states, cell, expect, wait_changed
from tests.browser.support.race import PASSWORD, shoot, sign_up, unique
from tests.browser.support.touch import (
    cell_px,
    centre_of,
    long_press,
    open_game,
    phone_page,
)
from tests.support.waiting import wait_until

pytestmark = pytest.mark.browser

BEGINNER = {"mode": "solo", "preset": "beginner"}
THEMES = ("classic", "dark", "contrast")

# Every frame the page sends on its game socket, for the test to read.
SPY_ON_FRAMES = """{
    const send = WebSocket.prototype.send;
    window.sentFrames = [];
    WebSocket.prototype.send = function (data) {
        window.sentFrames.push(JSON.parse(data));
        return send.call(this, data);
    };
}"""

# Audio contexts made and oscillators started, for the sound test.
SPY_ON_AUDIO = """{
    window.audioUse = { contexts: 0, oscillators: 0 };
    const Original = window.AudioContext;
    window.AudioContext = class extends Original {
        constructor(...args) { super(...args); window.audioUse.contexts += 1; }
    };
    const createOscillator = Original.prototype.createOscillator;
    Original.prototype.createOscillator = function () {
        window.audioUse.oscillators += 1;
        return createOscillator.call(this);
    };
}"""

# The colours of cells in each number state and of a revealed empty cell, read from the CSS by
# giving board cells those states (the page's own cells, so the theme's rules apply).
NUMBER_COLOURS_JS = """() => {
    const cells = [...document.querySelectorAll('#board .cell')];
    const read = (cell, state) => {
        cell.dataset.state = state;
        const style = getComputedStyle(cell);
        return { color: style.color, background: style.backgroundColor };
    };
    const empty = read(cells[0], "0");
    const numbers = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => read(cells[n], String(n)));
    return { empty, numbers };
}"""


def with_settings(page, values: dict):
    """Settings this browser already has before its first page."""
    page.add_init_script(
        f"localStorage.setItem('minerace.settings', {json.dumps(json.dumps(values))})"
    )
    return page


def stored_settings(page) -> dict:
    return json.loads(page.evaluate("localStorage.getItem('minerace.settings') || '{}'"))


def wait_settings_loaded(page) -> None:
    """Until the page has asked the server for the account's settings."""
    expect(page.locator(".settings-status")).not_to_have_text("Kept in this browser.")


def rgb(css: str) -> tuple[int, int, int]:
    red, green, blue = (int(part) for part in re.findall(r"\d+", css)[:3])
    return red, green, blue


def luminance(colour: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_wcag_contrast_formula():
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    # The old classic palette's failures the issue names: green 2 and red 3 on #c0c0c0.
    assert contrast((0, 128, 0), (192, 192, 192)) == pytest.approx(2.82, abs=0.01)
    assert contrast((255, 0, 0), (192, 192, 192)) == pytest.approx(2.2, abs=0.01)


@pytest.mark.parametrize("theme", THEMES)
def test_every_number_colour_meets_wcag_aa(open_page, base_url, theme):
    page = with_settings(open_page(), {"theme": theme})
    open_game(page, base_url, {"mode": "solo", "preset": "expert", "seed": f"theme-{theme}"})
    expected = None if theme == "classic" else theme
    assert page.evaluate("document.documentElement.dataset.theme ?? null") == expected
    cell(page, 15, 8).click()
    wait_changed(page, 15, 8, "hidden")
    shoot(page, f"theme-{theme}.png")

    colours = page.evaluate(NUMBER_COLOURS_JS)
    background = rgb(colours["empty"]["background"])
    ratios = {}
    for number, colour in enumerate(colours["numbers"], start=1):
        assert rgb(colour["background"]) == background, "a number sits on the revealed cell"
        ratios[number] = round(contrast(rgb(colour["color"]), background), 2)
    assert min(ratios.values()) >= 4.5, f"{theme}: contrast ratios {ratios}"
    assert len({rgb(colour["color"]) for colour in colours["numbers"]}) == 8


def test_the_dialog_works_from_the_keyboard(open_page, base_url):
    page = open_page()
    open_game(page, base_url, BEGINNER)
    dialog = page.locator("#settings-dialog")
    expect(dialog).to_be_hidden()
    page.focus("#settings-button")
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".settings-status")).to_contain_text("Log in to keep them")
    expect(dialog.locator("[name=cell_size]")).to_be_focused()
    page.keyboard.press("Tab")
    expect(dialog.locator("[name=theme][value=classic]")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(dialog.locator("[name=theme][value=dark]")).to_be_checked()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    shoot(page, "settings-dialog.png")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#settings-button")).to_be_focused()
    assert stored_settings(page) == {"theme": "dark"}

    phone = phone_page(open_page)
    open_game(phone, base_url, BEGINNER)
    phone.tap("#settings-button")
    expect(phone.locator("#settings-dialog")).to_be_visible()
    box = phone.locator("#settings-dialog").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    shoot(phone, "settings-dialog-phone.png")
    phone.tap(".settings-close")
    expect(phone.locator("#settings-dialog")).to_be_hidden()


def test_settings_are_kept_across_a_reload(open_page, base_url):
    page = open_page()
    open_game(page, base_url, BEGINNER)
    assert cell_px(page) == 40  # a small board's default on a laptop
    page.click("#settings-button")
    dialog = page.locator("#settings-dialog")
    size = dialog.locator("[name=cell_size]")
    size.focus()
    page.keyboard.press("Home")  # 12 px
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    expect(dialog.locator("[data-show=cell_size]")).to_have_text("20 px at most")
    dialog.locator("[name=theme][value=contrast]").check()
    dialog.locator("[name=flag_mode]").check()
    dialog.locator("[name=chord_on_left]").uncheck()
    dialog.locator("[name=sound]").check()
    dialog.locator("[name=long_press_ms]").focus()
    page.keyboard.press("End")
    page.click(".settings-close")
    assert cell_px(page) == 20
    expected = {
        "cell_size": 20,
        "theme": "contrast",
        "flag_mode": True,
        "chord_on_left": False,
        "sound": True,
        "long_press_ms": 1000,
    }
    assert stored_settings(page) == expected

    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert cell_px(page) == 20
    expect(page.locator("html")).to_have_attribute("data-theme", "contrast")
    expect(page.locator("#flag-mode")).to_have_attribute("aria-pressed", "true")
    page.click("#settings-button")
    expect(dialog.locator("[name=cell_size]")).to_have_value("20")
    expect(dialog.locator("[name=long_press_ms]")).to_have_value("1000")
    expect(dialog.locator("[name=theme][value=contrast]")).to_be_checked()
    expect(dialog.locator("[name=chord_on_left]")).not_to_be_checked()
    expect(dialog.locator("[name=sound]")).to_be_checked()
    # The flag-mode button and the dialog are one setting.
    page.click(".settings-close")
    page.click("#flag-mode")
    expect(page.locator("#flag-mode")).to_have_attribute("aria-pressed", "false")
    assert "flag_mode" not in stored_settings(page)  # the default is not stored


def log_in(page, base_url: str, username: str) -> None:
    page.goto(base_url + "/accounts/login/")
    page.fill("#login-form [name=username]", username)
    page.fill("#login-form [name=password]", PASSWORD)
    page.click("#login-form [type=submit]")
    page.wait_for_url(base_url + "/")


def test_an_accounts_settings_follow_it_to_another_browser(open_page, base_url):
    username = unique("settings")
    laptop = open_page()
    sign_up(laptop, base_url, username)
    open_game(laptop, base_url, BEGINNER)
    wait_settings_loaded(laptop)
    expect(laptop.locator(".settings-status")).to_contain_text(username)
    laptop.click("#settings-button")
    laptop.locator("#settings-dialog [name=theme][value=dark]").check()
    laptop.locator("#settings-dialog [name=chord_on_left]").uncheck()
    laptop.click(".settings-close")
    laptop.click("#flag-mode")

    def server_settings(page) -> dict:
        answer = page.request.get(base_url + "/api/me/settings/")
        assert answer.status == 200
        body = answer.json()
        assert body["account"] == username
        return body["settings"]

    expected = {"theme": "dark", "chord_on_left": False, "flag_mode": True}
    wait_until(
        lambda: server_settings(laptop) == expected,
        message=lambda: f"the account to keep {expected} (it has {server_settings(laptop)})",
    )

    # Another browser with settings of its own: once logged in, the account's win.
    phone = with_settings(phone_page(open_page), {"theme": "contrast", "long_press_ms": 300})
    log_in(phone, base_url, username)
    open_game(phone, base_url, BEGINNER)
    expect(phone.locator("html")).to_have_attribute("data-theme", "dark")
    expect(phone.locator("#flag-mode")).to_have_attribute("aria-pressed", "true")
    assert stored_settings(phone) == {**expected, "long_press_ms": 300}
    # And its changes go to the account.
    phone.tap("#flag-mode")
    expect(phone.locator("#flag-mode")).to_have_attribute("aria-pressed", "false")
    wait_until(
        lambda: server_settings(phone) == {**expected, "flag_mode": False},
        message=lambda: f"the account to keep the phone's change ({server_settings(phone)})",
    )

    # A guest's settings stay in its browser: the server has none for it.
    guest = open_page()
    open_game(guest, base_url, BEGINNER)
    wait_settings_loaded(guest)
    expect(guest.locator(".settings-status")).to_contain_text("Log in to keep them")
    assert guest.request.get(base_url + "/api/me/settings/").json() == {
        "account": None,
        "settings": {},
    }


def sent_once(page, kind: str) -> list[str] | None:
    """The types of the frames the page has sent, once one of them is `kind` (else None)."""
    kinds = page.evaluate("sentFrames.map(f => f.type)")
    return kinds if kind in kinds else None


def test_chord_on_left_decides_what_a_click_on_a_number_does(open_page, base_url):
    seed = "settings-chord"
    board = generate_board(9, 9, 10, seed, (4, 4))
    for chord_on_left in (True, False):
        page = with_settings(open_page(), {"chord_on_left": chord_on_left})
        page.add_init_script(SPY_ON_FRAMES)
        open_game(page, base_url, {**BEGINNER, "seed": seed})
        cell(page, 4, 4).click()
        wait_changed(page, 4, 4, "hidden")
        number = next(xy for xy, state in sorted(board_states(page).items()) if state in "12345678")
        cell(page, *number).click()
        # Then a flag: once it has gone out, the click on the number has been handled.
        hidden = next(xy for xy, state in sorted(board_states(page).items()) if state == "hidden")
        cell(page, *hidden).click(button="right")
        kinds = wait_until(partial(sent_once, page, "flag"), message="the flag's frame")
        assert kinds.count("chord") == (1 if chord_on_left else 0)
        assert kinds.index("flag") == len(kinds) - 1
        assert board.is_mine(board.index(*number)) is False


def test_the_long_press_takes_as_long_as_set(open_page, base_url):
    seed = "settings-long-press"
    board = generate_board(9, 9, 10, seed, (4, 4))
    phone = with_settings(phone_page(open_page), {"long_press_ms": 1000})
    open_game(phone, base_url, {**BEGINNER, "seed": seed})
    cell(phone, 4, 4).tap()
    wait_changed(phone, 4, 4, "hidden")
    states = board_states(phone)
    mine = next(board.xy(i) for i in sorted(board.mines) if states[board.xy(i)] == "hidden")
    safe = next(
        xy
        for xy, s in sorted(states.items())
        if s == "hidden" and not board.is_mine(board.index(*xy))
    )
    # 600 ms is a tap when a long press takes 1000 ms: it opens the safe cell.
    long_press(phone, centre_of(cell(phone, *safe)), hold_ms=600)
    assert wait_changed(phone, *safe, "hidden") not in ("hidden", "flag")
    long_press(phone, centre_of(cell(phone, *mine)), hold_ms=1200)
    assert wait_changed(phone, *mine, "hidden") == "flag"


def test_sound_is_off_until_turned_on(open_page, base_url):
    quiet = open_page()
    quiet.add_init_script(SPY_ON_AUDIO)
    open_game(quiet, base_url, BEGINNER)
    cell(quiet, 4, 4).click()
    wait_changed(quiet, 4, 4, "hidden")
    assert quiet.evaluate("window.audioUse") == {"contexts": 0, "oscillators": 0}

    loud = with_settings(open_page(), {"sound": True})
    loud.add_init_script(SPY_ON_AUDIO)
    open_game(loud, base_url, BEGINNER)
    cell(loud, 4, 4).click()
    wait_changed(loud, 4, 4, "hidden")
    loud.wait_for_function("window.audioUse.oscillators > 0")
    assert loud.evaluate("window.audioUse.contexts") == 1
