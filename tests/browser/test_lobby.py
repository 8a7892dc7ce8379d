"""The lobby: nickname, preset buttons and the custom form with the server's errors."""

import json
import re
import urllib.error
import urllib.request

import pytest

from tests.browser.support import JSON_HEADERS, expect, wait_ready

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
