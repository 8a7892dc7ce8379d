"""Error pages with a way back (issue 14.9): an unknown game or replay link answers a clear "no
such game" page (404) with the lobby and new games a click away; a link to a finished race says
that it is over and who won, with its results and replay; Django's own 404 and 500 pages look
like the site and lead back. Every page runs under the Content-Security-Policy with no
violation."""

import re

import pytest

from tests.browser.support import PHONE, expect, wait_ready
from tests.browser.support.pages import api, play_race
from tests.browser.support.race import shoot, unique
from tests.browser.support.screens import django_error_pages, seconds, watch_policy

pytestmark = pytest.mark.browser

RAISED = "rgb(30, 35, 42)"  # --bg-raised: a card of the site (site.css)


@pytest.fixture
def watched(open_page):
    """open_page, each page watched for policy violations and console messages; none by the
    end of the test."""
    problems: list[str] = []

    def open_watched(**options):
        page = open_page(**options)
        watch_policy(page, problems)
        return page

    yield open_watched
    assert problems == []


def test_an_unknown_game_says_so_and_leads_on(watched, base_url):
    page = watched()
    missing = unique("nowhere")
    response = page.goto(f"{base_url}/games/{missing}/")
    assert response.status == 404
    expect(page.locator("#error-title")).to_have_text("No such game")
    expect(page).to_have_title("Minerace — no such game")
    expect(page.locator("#missing-game")).to_have_text(missing)
    expect(page.locator("#board")).to_have_count(0)  # no empty board frame
    expect(page.locator("#error-page")).to_have_css("background-color", RAISED)
    expect(page.locator("#to-lobby")).to_have_attribute("href", "/")
    shoot(page, "unknown-game.png")

    # Its replay is the same page; the lobby is a click away.
    response = page.goto(f"{base_url}/games/{missing}/replay/")
    assert response.status == 404
    expect(page.locator("#error-title")).to_have_text("No such game")
    page.click("#to-lobby")
    page.wait_for_url(base_url + "/")
    expect(page.locator("#open-races-empty, #open-races li").first).to_be_attached()

    # A new game starts from the page itself, on the preset chosen.
    page.goto(f"{base_url}/games/{missing}/")
    page.click("#new-game-form button[value=intermediate]")
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]+/$"))
    wait_ready(page)
    expect(page.locator("#game-info")).to_have_text(
        "Intermediate · 16\N{MULTIPLICATION SIGN}16 · 40 mines"
    )
    expect(page.locator("#board .cell")).to_have_count(16 * 16)


def test_the_no_such_game_page_fits_a_phone(watched, base_url):
    page = watched(viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(f"{base_url}/games/{unique('nowhere')}/")
    expect(page.locator("#error-title")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for preset in ("beginner", "intermediate", "expert"):
        expect(page.locator(f"#new-game-form button[value={preset}]")).to_be_in_viewport()


def test_a_finished_race_says_who_won_and_links_on(watched, base_url):
    race = play_race(base_url, "race-over")
    winner = next(row for row in race["results"] if row["status"] == "won")
    page = watched()
    response = page.goto(base_url + race["page"])
    assert response.status == 200
    # Said by the page itself, before its socket has answered.
    over = page.locator("#race-over")
    expect(over).to_be_visible()
    expect(page.locator("#race-over-title")).to_have_text("This race is over")
    expect(page.locator("#race-over-outcome")).to_contain_text(
        f"{winner['name']} won in {seconds(winner['time_ms'])}, ahead of 1 other racer."
    )
    expect(page.locator("#race-over-outcome time")).to_contain_text("UTC")
    expect(page.locator("#race-over-replay")).to_have_attribute(
        "href", f"/games/{race['id']}/replay/"
    )
    # Then the results come, and the page's own "this race is over" note stays out of the way.
    wait_ready(page)
    expect(page.locator("#results-table tbody tr")).to_have_count(2)
    expect(page.locator("#results-title")).to_have_text(f"{winner['name']} won the race")
    expect(page.locator("#race-note")).to_be_hidden()
    page.click("#race-over-results")
    expect(page.locator("#race-results")).to_be_in_viewport()
    page.click("#race-over-replay")
    page.wait_for_url(f"**/games/{race['id']}/replay/")
    wait_ready(page)
    expect(page.locator("#replay-boards .replay-board")).to_have_count(2)

    # A race still running, or a solo game, says nothing of the kind.
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})
    page.goto(base_url + game["page"])
    wait_ready(page)
    expect(page.locator("#race-over")).to_have_count(0)


@pytest.mark.parametrize(
    ("name", "title", "ways"),
    [
        ("404", "Page not found", {"#to-lobby": "/", "#to-leaderboards": "/leaderboards/"}),
        ("500", "Something went wrong", {"#to-lobby": "/", "#try-again": ""}),
    ],
)
def test_djangos_error_pages_look_like_the_site_and_lead_back(watched, base_url, name, title, ways):
    """Django's own pages, as it renders them with DEBUG off (the browser tests' server runs
    with DEBUG on, where Django shows its debug pages instead), served at this server's
    address with their own headers: the site's styles and scripts load from the server."""
    status, headers, body = django_error_pages()[name]
    assert status == int(name)
    address = f"{base_url}/an/address/of/page-{name}/"
    page = watched()
    page.route(
        address,
        lambda route: route.fulfill(status=status, headers=headers, body=body),
    )
    response = page.goto(address)
    assert response.status == status
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator("#error-title")).to_have_text(title)
    expect(page.locator(".site-header .brand")).to_be_visible()
    expect(page.locator("#error-page")).to_have_css("background-color", RAISED)
    for selector, href in ways.items():
        expect(page.locator(selector)).to_have_attribute("href", href)
    if name == "404":
        expect(page.locator("#missing-path")).to_have_text("/no/such/page/")
        expect(page.locator("#new-game-form button")).to_have_count(3)
    page.click("#to-lobby")
    page.wait_for_url(base_url + "/")
    expect(page.locator("h1")).to_have_text("Minerace")
