"""Who is here (issue 35.4): the lobby says how many are online and racing now; an account
follows another from its page, and its own page lists it racing, with a link to watch. A
laptop at 1280 px and a 390 px phone."""

import re
from contextlib import ExitStack
from urllib.parse import quote

import pytest

from tests.browser.support import PHONE, expect, wait_ready
from tests.browser.support.pages import Racer
from tests.browser.support.race import api, from_address, join, shoot, sign_up, start_race, unique

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}


def here_numbers(page) -> tuple[int, int]:
    line = page.locator("#here-line")
    return int(line.get_attribute("data-online")), int(line.get_attribute("data-racing"))


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_lobby_says_how_many_are_online_and_racing(open_page, base_url, viewport):
    page = open_page(viewport=viewport)
    page.goto(base_url + "/")
    line = page.locator("#here-line")
    expect(line).to_have_text(re.compile(r"^\d+ online · \d+ racing now$"))
    online, _ = here_numbers(page)
    assert online >= 1  # this browser, at least
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})
    with ExitStack() as stack:
        racers = [Racer(stack, base_url, game["id"], unique(n)) for n in ("ann", "bob")]
        for racer in racers:
            racer.request({"type": "ready"}, "ready")
        racers[0].wait_for("started")
        # Two more racing, and online (their connections' leases), at a refresh (every 10 s).
        page.wait_for_function(
            """() => { const line = document.getElementById('here-line').dataset;
                return Number(line.racing) >= 2 && Number(line.online) >= 3; }""",
            timeout=25_000,
        )
        shoot(page, f"here-line-{viewport['width']}.png")


def test_an_account_follows_another_and_watches_it_race(open_page, base_url):
    ann = open_page(viewport=DESKTOP)
    bea = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    names = {ann: unique("ann"), bea: unique("bea")}
    for number, page in enumerate((ann, bea), start=1):
        from_address(page, f"198.51.100.{200 + number}")
        sign_up(page, base_url, names[page])
    ann.goto(f"{base_url}/players/{quote(names[bea])}/")
    wait_ready(ann)
    follow = ann.locator("#follow-button")
    expect(follow).to_have_text("Follow")
    follow.click()
    expect(follow).to_have_text("Following ✓")
    expect(follow).to_have_attribute("aria-pressed", "true")

    # Ann's own page lists Bea, away; then Bea races, and the list says so with a Watch link.
    ann.goto(f"{base_url}/players/{quote(names[ann])}/")
    wait_ready(ann)
    row = ann.locator(f'#following-list li[data-name="{names[bea]}"]')
    expect(row).to_be_visible()
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})
    rival = open_page()
    rival.add_init_script("localStorage.setItem('minerace.nickname', 'rival')")
    for page in (bea, rival):
        join(page, base_url + game["page"])
    start_race([bea, rival])
    ann.reload()
    wait_ready(ann)
    expect(row).to_have_attribute("data-state", "racing")
    expect(row.locator(".followed-state")).to_have_text("racing now")
    watch = row.locator(".followed-watch")
    expect(watch).to_have_attribute("href", f"/games/{game['id']}/?watch=1")
    shoot(ann, "following-1280.png")
    watch.click()
    ann.wait_for_url(re.compile(rf"/games/{game['id']}/\?watch=1$"))
    wait_ready(ann)
    expect(ann.locator("#connection")).to_have_text("spectating")
    # Bea's page: ann's follow is ann's; bea follows nobody yet.
    bea.goto(f"{base_url}/players/{quote(names[bea])}/")
    wait_ready(bea)
    expect(bea.locator("#following-empty")).to_be_visible()
    shoot(bea, "following-empty-390.png")
