"""A declared bot account (docs/protocol.md 6.1) is tagged as a bot on the pages as the server's own
bots are: in a race's lobby and among the racers, and on its player page, whose badge says
"bot" instead of "verified"."""

from __future__ import annotations

import json

import pytest

from tests.browser.support import expect, wait_ready
from tests.browser.support.race import api, join, racer, shoot, sign_up, start_race, unique

pytestmark = pytest.mark.browser


def become_bot(page, base_url: str) -> None:
    """The logged-in account of this page declares itself a bot, as a program would."""
    answer = page.request.post(
        base_url + "/api/me/bot/", data=json.dumps({}), headers={"Content-Type": "application/json"}
    )
    assert (answer.status, answer.json()) == (200, {"bot": True})


def test_a_bot_account_is_tagged_in_the_race_and_on_its_page(open_page, base_url):
    name = unique("Robo")
    program = open_page()
    sign_up(program, base_url, name)
    become_bot(program, base_url)

    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})
    url = f"{base_url}{game['page']}"
    person = racer(open_page, "Person")
    join(person, url)
    join(program, url)
    ids = {
        player["name"]: player["id"]
        for player in api(base_url, f"/api/games/{game['id']}/")["players"]
    }
    item = person.locator(f'#players [data-player="{ids[name]}"]')
    expect(item.locator(".tag-bot")).to_have_text("bot")
    expect(person.locator(f'#players [data-player="{ids["Person"]}"] .tag-bot')).to_have_count(0)

    start_race([person, program])
    row = person.locator(f'#opponents [data-player="{ids[name]}"]')
    expect(row.locator(".tag-bot")).to_be_visible()
    shoot(person, "bot-account-racer.png")

    viewer = open_page()
    viewer.goto(f"{base_url}/players/{name}/")
    wait_ready(viewer)
    expect(viewer.locator("#player-badge")).to_have_text("bot")
    expect(viewer.locator("#player-badge")).to_have_class("badge badge-bot")
    shoot(viewer, "bot-account-player-page.png")


def test_a_persons_page_keeps_its_verified_badge(open_page, base_url):
    name = unique("Human")
    person = open_page()
    sign_up(person, base_url, name)
    person.goto(f"{base_url}/players/{name}/")
    wait_ready(person)
    expect(person.locator("#player-badge")).to_contain_text("verified")
