"""Presence on the race page (docs/protocol.md 2.1): a racer who closes its page is shown offline to
the others with a live countdown to the moment the server drops it, online again when it comes
back, and not finished once the countdown has run out; the waiting room's ready timeout; bots.

This module runs its own server with short absence rules, so the drops happen within a test.
"""

import re
import time

import pytest

from tests.browser.support import daphne_server, expect, wait_ready
from tests.browser.support.race import (
    api,
    join,
    player_ids,
    racer,
    shoot,
    start_race,
)

pytestmark = pytest.mark.browser

ABANDON_S = 15
READY_TIMEOUT_S = 15


@pytest.fixture(scope="module")
def base_url(needs_browser, tmp_path_factory):
    """This module's server: a racer offline for ABANDON_S is dnf, the lobby's ready timeout is
    READY_TIMEOUT_S (the session's server keeps the defaults, 30 s each)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MINERACE_ABANDON_S", str(ABANDON_S))
        patch.setenv("MINERACE_READY_TIMEOUT_S", str(READY_TIMEOUT_S))
        with daphne_server(tmp_path_factory.mktemp("minerace-presence")) as url:
            yield url


def presence_of(page, player_id: str):
    return page.locator(f'#opponents [data-player="{player_id}"] .presence')


def seconds_left(marker) -> int:
    return int(marker.locator(".presence-countdown").get_attribute("data-seconds"))


def test_an_offline_racer_counts_down_to_its_drop(open_page, base_url):
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})
    url = base_url + game["page"]
    alice, bob = racer(open_page, "Alice"), racer(open_page, "Bob")
    for page in (alice, bob):
        join(page, url)
    start_race([alice, bob])
    bob_id = player_ids(base_url, game["id"])["Bob"]
    row = alice.locator(f'#opponents [data-player="{bob_id}"]')
    marker = presence_of(alice, bob_id)
    expect(marker).to_be_hidden()
    expect(row).not_to_have_attribute("data-online", "0")
    time.sleep(1.2)  # the server announces a change at most once a second per racer

    # Bob closes his page: Alice sees him offline, with the time the server will drop him.
    context = bob.context
    bob.close()
    expect(marker).to_be_visible()
    expect(row).to_have_attribute("data-online", "0")
    expect(marker).to_have_text(re.compile(r"^offline · dropped in \d+ s"))
    first = seconds_left(marker)
    assert ABANDON_S - 4 <= first <= ABANDON_S + 1  # the clocks agree to within a second
    expect(marker.locator(".presence-countdown")).not_to_have_attribute(
        "data-seconds", str(first), timeout=3000
    )  # it runs
    assert seconds_left(marker) < first
    shoot(alice, "race-offline-racer.png")

    # He reopens the race: resumed as himself, and online again on Alice's page.
    bob = context.new_page()
    join(bob, url)
    expect(bob.locator("body")).to_have_attribute("data-phase", "running")
    expect(bob.locator("#resign-button")).to_be_visible()
    expect(marker).to_be_hidden()
    expect(row).not_to_have_attribute("data-online", "0")
    expect(row).to_have_attribute("data-status", "playing")
    time.sleep(1.2)  # past the once-a-second rule again, so his leaving is announced at once

    # He leaves again and stays away: when the countdown runs out he is out of the race.
    bob.close()
    countdown = marker.locator(".presence-countdown")
    expect(countdown).to_be_visible()
    deadline_ms = int(countdown.get_attribute("data-deadline"))
    expect(row).to_have_attribute("data-status", "dnf", timeout=(ABANDON_S + 8) * 1000)
    dropped_ms = alice.evaluate("Date.now()")
    assert -1500 <= dropped_ms - deadline_ms <= 5000, "dropped when the countdown said"
    expect(row.locator(".racer-status")).to_have_text("did not finish")
    expect(marker).to_have_text("offline")  # no countdown left once dropped
    expect(alice.locator("#resign-button")).to_be_visible()  # Alice races on


def test_the_ready_timeout_runs_in_the_waiting_room(open_page, base_url):
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})
    url = base_url + game["page"]
    alice, bob, carol = (racer(open_page, name) for name in ("Alice", "Bob", "Carol"))
    for page in (alice, bob, carol):
        join(page, url)
    carol_id = player_ids(base_url, game["id"])["Carol"]
    for page in (alice, bob, carol):
        expect(page.locator("#players li")).to_have_count(3)
        expect(page.locator("#ready-timeout")).to_be_hidden()

    # One ready is not enough for the timeout; two ready beside Carol start it.
    alice.click("#ready-button")
    expect(bob.locator("#players li[data-ready='1']")).to_have_count(1)
    expect(bob.locator("#ready-timeout")).to_be_hidden()
    bob.click("#ready-button")
    timeout = alice.locator("#ready-timeout")
    expect(timeout).to_have_text(re.compile(r"^Not ready players leave in 0:[01]\d: Carol\.$"))
    expect(bob.locator("#ready-timeout")).to_contain_text("Not ready players leave in 0:")
    expect(carol.locator("#ready-timeout")).to_have_text(
        re.compile(r"^Press Ready: not ready players leave in 0:[01]\d\.$")
    )
    expect(carol.locator(f'#players [data-player="{carol_id}"] .lobby-badge')).to_have_text(
        "not ready"
    )
    clock = alice.locator("#ready-timeout .ready-clock")
    first = int(clock.get_attribute("data-seconds"))
    # Rounded up, by a clock the page set from the server's `now` on a frame's arrival: a
    # frame's way there makes it show up to a second more (seen under CI's load).
    assert 0 < first <= READY_TIMEOUT_S + 1
    expect(clock).not_to_have_attribute("data-seconds", str(first), timeout=3000)
    shoot(carol, "lobby-ready-timeout.png")

    # Carol does not get ready: she leaves the race (back to the lobby), and it starts.
    carol.wait_for_url(base_url + "/", timeout=(READY_TIMEOUT_S + 8) * 1000)
    for page in (alice, bob):
        expect(page.locator("body")).to_have_attribute("data-phase", "running")
        expect(page.locator("#opponents .racer")).to_have_count(2)


def test_a_bot_is_tagged_as_a_bot(page, base_url):
    page.add_init_script("localStorage.setItem('minerace.nickname', 'Human')")
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner", "bot": "relaxed"})
    bot = next(player for player in game["players"] if player["is_bot"])
    page.goto(base_url + game["page"])
    wait_ready(page)
    item = page.locator(f'#players [data-player="{bot["id"]}"]')
    expect(item.locator(".tag-bot")).to_have_text("bot")
    expect(item.locator(".presence")).to_be_hidden()  # a bot has no connection to lose
    expect(page.locator("#players .tag-bot")).to_have_count(1)
    page.click("#ready-button")
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    row = page.locator(f'#opponents [data-player="{bot["id"]}"]')
    expect(row.locator(".tag-bot")).to_be_visible()
    expect(page.locator("#opponents .tag-bot:visible")).to_have_count(1)
