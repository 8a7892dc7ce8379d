"""The lobby: nickname, preset buttons and the custom form with the server's errors; solo play
on a phone's first screen, and a skip link to it."""

import json
import re
import urllib.error
import urllib.request

import pytest

from tests.browser.support import JSON_HEADERS, LAPTOP, PHONE, expect, wait_ready
from tests.browser.support.race import shoot

pytestmark = pytest.mark.browser

TIMES = "\N{MULTIPLICATION SIGN}"  # the page writes board sizes with a multiplication sign


def server_error(base_url: str, body: dict) -> dict:
    """The API's error for a creation body, asked directly."""
    request = urllib.request.Request(
        base_url + "/api/games/",
        data=json.dumps(body).encode(),
        method="POST",
        headers=JSON_HEADERS,
    )
    with pytest.raises(urllib.error.HTTPError) as failure:
        urllib.request.urlopen(request)
    return json.load(failure.value)["error"]


def submit_custom(page, width: str, height: str, mines: str) -> None:
    form = page.locator("#custom-form")
    form.locator("[name=width]").fill(width)
    form.locator("[name=height]").fill(height)
    form.locator("[name=mines]").fill(mines)
    form.locator("[type=submit]").click()


def test_invalid_custom_size_shows_the_servers_message(page, base_url):
    page.goto(base_url + "/")
    page.click("#custom summary")
    error = page.locator("#custom-error")
    expect(error).to_be_hidden()

    submit_custom(page, "3", "9", "10")
    expected = server_error(base_url, {"mode": "solo", "width": 3, "height": 9, "mines": 10})
    assert expected["field"] == "width"
    expect(error).to_be_visible()
    expect(error).to_have_text(expected["message"])
    expect(page.locator("#custom-form [name=width]")).to_have_attribute("aria-invalid", "true")

    submit_custom(page, "9", "9", "80")
    expected = server_error(base_url, {"mode": "solo", "width": 9, "height": 9, "mines": 80})
    assert expected["field"] == "mines"
    expect(error).to_have_text(expected["message"])
    expect(page.locator("#custom-form [name=mines]")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#custom-form [name=width]")).not_to_have_attribute("aria-invalid", "true")
    assert page.url == base_url + "/"


def test_preset_button_starts_a_game_under_the_nickname(page, base_url):
    page.goto(base_url + "/")
    nickname = page.locator("#nickname")
    expect(nickname).to_have_value(re.compile(r"^guest-\d{4}$"))
    nickname.fill("Ada")
    page.click("[data-preset=intermediate]")
    page.wait_for_url("**/games/*/")
    wait_ready(page)

    expect(page.locator("#game-info")).to_have_text(f"Intermediate · 16{TIMES}16 · 40 mines")
    expect(page.locator("#connection")).to_have_text("playing as Ada")
    expect(page.locator("#board .cell[data-state='hidden']")).to_have_count(256)
    expect(page.locator("#mines-left")).to_have_text("040")
    expect(page.locator("#timer")).to_have_text("000")
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{base_url}/api/games/{game_id}/") as answer:
        game = json.load(answer)
    assert (game["preset"], game["ranked"]) == ("intermediate", True)
    assert [player["name"] for player in game["players"]] == ["Ada"]

    # The face starts a new game of the same preset; the nickname is remembered.
    page.click("#face")
    page.wait_for_url(lambda url: game_id not in url and "/games/" in url)
    wait_ready(page)
    expect(page.locator("#game-info")).to_have_text(f"Intermediate · 16{TIMES}16 · 40 mines")
    page.goto(base_url + "/")
    expect(page.locator("#nickname")).to_have_value("Ada")


def test_unknown_game_says_so(page, base_url):
    page.goto(base_url + "/games/no-such-game/")
    expect(page.locator("#error-title")).to_have_text("No such game")  # test_error_pages.py
    expect(page.locator("#to-lobby")).to_have_attribute("href", "/")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_solo_play_is_on_the_first_screen_and_one_skip_link_away(open_page, base_url, viewport):
    """Issue 22.6: solo play sat 1.4 screens down on a phone, 18 tab stops from the top."""
    touch = {"is_mobile": True, "has_touch": True} if viewport is PHONE else {}
    page = open_page(viewport=viewport, **touch)
    page.goto(base_url + "/")
    expect(page.locator("#nickname")).to_have_value(re.compile(r"^guest-\d{4}$"))  # its script ran
    beginner = page.locator('#solo .preset[data-preset="beginner"]')
    box = beginner.bounding_box()
    assert box["y"] + box["height"] <= viewport["height"], "solo play on the first screen"
    # The first Tab: a skip link to the solo boards; the next Tab is their first button.
    page.keyboard.press("Tab")
    skip = page.locator(":focus")
    expect(skip).to_have_text("Skip to a solo game")
    expect(skip).to_be_in_viewport()
    shoot(page, f"lobby-skip-link-{'phone' if viewport is PHONE else 'laptop'}.png")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(beginner).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url("**/games/*/")
    wait_ready(page)

    # The game page: a keyboard's board is focused at once; elsewhere (a touch screen, with
    # a keyboard too) the first Tab is a skip link past the header to the board.
    if viewport is LAPTOP:
        expect(page.locator("#board")).to_be_focused()
        return
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Skip to the board")
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_be_focused()
