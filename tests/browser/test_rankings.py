"""The community's rankings in the browser (docs/protocol.md 9.2, 9.4): the sum board with the
account's own row and each part's replay, the NF style, the player page's sum and place; a
match challenged from its form, accepted on the other's page, a race played from its link and
the score and replay on the match page, at 1280 and 390 px. Screenshots go to $MINERACE_SHOTS
when it is set."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import expect, wait_ready
from tests.browser.support.pages import api, win_as_account
from tests.browser.support.race import from_address, shoot, sign_up, unique

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def session_of(page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_sum_board_and_the_player_pages_sum(open_page, base_url, server_database, viewport):
    page = open_page(viewport=viewport)
    from_address(page, "203.0.113.7")
    name = unique("Summer")
    sign_up(page, base_url, name)
    session = session_of(page)
    games = {p: win_as_account(base_url, server_database, session, p)
             for p in ("beginner", "intermediate", "expert")}  # fmt: skip
    mine = api(base_url, f"/api/players/{name}/")["sums"]
    assert {(s["variant"], s["style"]) for s in mine} == {("classic", "all"), ("classic", "nf")}

    page.goto(base_url + "/leaderboards/?preset=sum")
    wait_ready(page)
    row = page.locator(f"#sum-table tbody tr[data-name='{name}']")
    expect(row).to_be_visible()
    expect(page.locator("#ranking-tabs")).to_be_hidden()
    for preset, game_id in games.items():
        expect(row.locator(f".part-{preset} a")).to_have_attribute(
            "href", f"/games/{game_id}/replay/"
        )
    expect(page.locator("#sum-you")).to_contain_text("Your sum:")
    shoot(page, f"sum-board-{viewport['width']}.png")
    page.locator("[data-style='nf']").click()
    expect(page).to_have_url(re.compile(r"style=nf"))
    expect(page.locator(f"#sum-table tbody tr[data-name='{name}']")).to_be_visible()

    page.locator("[data-preset='expert']").click()
    expect(page.locator("#ranking-tabs")).to_be_visible()
    expert_row = page.locator(f"#leaderboard-table tbody tr[data-name='{name}']")
    expect(expert_row.locator(".tag-nf")).to_have_text("NF")

    page.goto(base_url + f"/players/{name}/")
    # The player page asks for its bests, ratings, seasons, history and trend before it is
    # ready: on a loaded machine that outlasted the usual 10 s once (17:58 UTC, load 15).
    page.wait_for_selector("body[data-ready='1']", timeout=30_000)
    cards = page.locator("#sum-cards .sum-card")
    expect(cards).to_have_count(2)
    expect(cards.first.locator(".sum-place")).to_have_text(f"place {mine[0]['rank']}")
    shoot(page, f"player-sums-{viewport['width']}.png")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_match_challenged_accepted_raced_and_scored(open_page, base_url, viewport):
    challenger, opponent = open_page(viewport=viewport), open_page(viewport=viewport)
    names = {challenger: unique("Chal"), opponent: unique("Oppo")}
    for number, (page, name) in enumerate(names.items(), start=1):
        from_address(page, f"198.51.100.{40 + number}")
        sign_up(page, base_url, name)

    challenger.goto(base_url + f"/matches/new/?opponent={names[opponent]}")
    wait_ready(challenger)
    form = challenger.locator("#match-form")
    expect(form.locator("[name=opponent]")).to_have_value(names[opponent])
    form.locator("[name=preset]").select_option("beginner")
    form.locator("[name=first_to]").fill("1")
    form.locator("[name=max_races]").fill("3")
    shoot(challenger, f"match-new-{viewport['width']}.png")
    form.locator("[type=submit]").click()
    challenger.wait_for_url("**/matches/*/")
    wait_ready(challenger)
    expect(challenger.locator("#match-verdict")).to_contain_text("Waiting for")
    expect(challenger.locator("#match-share")).to_be_visible()
    match_url = challenger.url

    opponent.goto(match_url)
    wait_ready(opponent)
    opponent.locator("#accept-button").click()
    for page in (challenger, opponent):
        expect(page.locator("#play-link")).to_have_text("Play race 1", timeout=10_000)
    shoot(opponent, f"match-accepted-{viewport['width']}.png")
    for page in (challenger, opponent):
        page.locator("#play-link").click()
        page.wait_for_url("**/games/*/")
        wait_ready(page)
        expect(page.locator("#connection")).to_have_text(f"racing as {names[page]}")
        expect(page.locator("#match-bar")).to_contain_text("race 1")
        page.locator("#ready-button").click()
    for page in (challenger, opponent):
        expect(page.locator("body")).to_have_attribute("data-phase", "running", timeout=15_000)
    shoot(challenger, f"match-race-{viewport['width']}.png")
    opponent.click("#resign-button")
    opponent.click("#resign-yes")

    challenger.goto(match_url)
    wait_ready(challenger)
    expect(challenger.locator("#match-verdict")).to_have_text(
        f"{names[challenger]} wins the match.", timeout=10_000
    )
    score = challenger.locator("#match-score .wins")
    expect(score).to_have_text(["1", "0"])
    race = challenger.locator("#race-list li[data-number='1']")
    expect(race).to_contain_text(f"won by {names[challenger]}")
    expect(race.locator("a.replay-link")).to_be_visible()
    shoot(challenger, f"match-finished-{viewport['width']}.png")
