"""Reactions in a race (issue 35.5): a racer's emote shows beside its name for the other racer
(the phone's compact bar) and a spectator, for a few seconds; the buttons rest 2 s; the setting
turns the others' emotes off. A laptop at 1280 px and a 390 px phone."""

import pytest

from tests.browser.support import PHONE, expect, page_sleep, wait_ready
from tests.browser.support.race import api, join, player_ids, racer, shoot, start_race, unique
from tests.browser.support.screens import record_frames
from tests.support.waiting import wait_until

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}


def test_an_emote_reaches_the_other_racer_and_a_spectator_and_can_be_turned_off(
    open_page, base_url
):
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})
    url = base_url + game["page"]
    names = {"lap": unique("lap"), "fon": unique("fon")}
    laptop = racer(lambda: open_page(viewport=DESKTOP), names["lap"])
    phone = racer(lambda: open_page(viewport=PHONE, is_mobile=True, has_touch=True), names["fon"])
    phone_frames = record_frames(phone)
    for page in (laptop, phone):
        join(page, url)
    watcher = open_page(viewport=DESKTOP)
    watcher.goto(url + "?watch=1")
    wait_ready(watcher)
    expect(laptop.locator("#reaction-bar")).to_be_hidden()  # not in the waiting room
    start_race([laptop, phone])
    lap_id = player_ids(base_url, game["id"])[names["lap"]]

    bar = laptop.locator("#reaction-bar")
    expect(bar).to_be_visible()
    expect(bar.locator("button")).to_have_count(6)
    bar.locator("[data-emote=cool]").click()
    expect(bar.locator("[data-emote=gg]")).to_be_disabled()  # resting 2 s
    # Beside the laptop racer's name: its own row, the phone's compact bar, the spectator's board.
    expect(laptop.locator(f'#opponents [data-player="{lap_id}"] .reaction')).to_have_text("😎")
    on_phone = phone.locator(f'#race-bar-list [data-player="{lap_id}"] .reaction')
    expect(on_phone).to_have_attribute("data-emote", "cool")
    watched = watcher.locator(f'#spectator-boards .racer[data-player="{lap_id}"] .reaction')
    expect(watched).to_have_attribute("data-emote", "cool")
    shoot(phone, "reaction-390.png")
    shoot(laptop, "reaction-1280.png")
    expect(on_phone).to_have_count(0, timeout=8000)  # gone after a few seconds
    expect(bar.locator("[data-emote=gg]")).to_be_enabled()

    # The phone turns the others' reactions off: the next one does not show there.
    phone.click("#settings-button")
    phone.locator("#settings-dialog input[name=reactions]").uncheck()
    phone.click("#settings-dialog .settings-close")
    bar.locator("[data-emote=gg]").click()
    expect(watched).to_have_attribute("data-emote", "gg")  # the spectator still sees it
    expect(laptop.locator(f'#opponents [data-player="{lap_id}"] .reaction')).to_have_text("GG")
    wait_until(
        lambda: any(f["type"] == "reaction" and f["emote"] == "gg" for f in phone_frames),
        message="the phone to receive the second reaction",
        sleep=page_sleep(phone),
    )
    expect(phone.locator(".reaction")).to_have_count(0)  # received, and not shown
