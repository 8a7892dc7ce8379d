"""The ratings page and the player page's seasons (docs/protocol.md 8): the current season's
ladder with leagues, a picker for the past season, the logged-in account's own place below the
first 100; and on a player's page a badge per season and ladder (league, final rank) and the
season's start marked on the rating chart. The seasons are made on the server's database by
tests/browser/support/seasons_setup.py (real rated races through race_rate, and season rows)."""

import os
import subprocess
import sys
import uuid

import pytest

from tests.browser.support import expect, wait_ready
from tests.browser.support.race import api, shoot, sign_up
from tests.support.servers import REPO_ROOT

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def seasons(browser, base_url, server_database) -> dict:
    """Signed up `me`, then last season and this one filled (seasons_setup.ladder)."""
    tag = uuid.uuid4().hex[:5]
    me = f"me-{tag}"
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    sign_up(context.new_page(), base_url, me)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{server_database}",
           "DJANGO_SETTINGS_MODULE": "config.settings"}  # fmt: skip
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "-m", "tests.browser.support.seasons_setup", "ladder", tag, me],
        cwd=REPO_ROOT, env=env, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    yield {"tag": tag, "me": me, "ace": f"ace-{tag}", "context": context}
    context.close()


def test_the_current_seasons_ladder_with_leagues_and_my_place(seasons, base_url):
    page = seasons["context"].new_page()
    page.goto(base_url + "/ratings/")
    wait_ready(page)
    listed = api(base_url, "/api/seasons/")["seasons"]
    current, last = listed[0], listed[1]
    assert current["current"] and not last["current"]
    tabs = page.locator("#season-tabs [data-season]")
    expect(tabs).to_have_count(len(listed))
    expect(tabs.first).to_have_text(current["name"])
    expect(tabs.first).to_have_attribute("aria-selected", "true")
    expect(page.locator("#ratings-table")).to_have_attribute("data-loaded-season", current["id"])

    ladder = api(base_url, f"/api/seasons/{current['id']}/ladder/beginner/")["entries"]
    rows = page.locator("#ratings-table tbody tr")
    expect(rows).to_have_count(100)
    first = rows.first
    expect(first).to_have_attribute("data-name", ladder[0]["name"])
    expect(first.locator(".league")).to_have_text(ladder[0]["league"].capitalize())
    # Each row's league is the API's, and the badges follow the thresholds down the table.
    leagues = rows.evaluate_all("rows => rows.map(row => row.dataset.league)")
    assert leagues == [entry["league"] for entry in ladder]
    assert {"master", "diamond", "platinum", "gold"} <= set(leagues)
    ace = page.locator(f'#ratings-table tr[data-name="{seasons["ace"]}"]')
    expect(ace.locator(".races")).to_have_text("5")
    expect(ace.locator(".wins")).to_have_text("5")

    # My place, below the first 100: rank, league, the provisional "?" of 8 rated races.
    place = page.locator("#your-place")
    expect(place).to_be_visible()
    me = [e for e in ladder if e["name"] == seasons["me"]]
    assert me == []  # not among the 100 shown
    expect(place).to_contain_text("Your place: #")
    rank = int(place.get_attribute("data-rank"))
    assert rank > 100
    expect(place.locator(".league")).to_have_text("Bronze")
    expect(place.locator(".your-rating")).to_have_text("1061? (provisional)")
    shoot(page, "ratings-season-ladder.png")

    # The past season: its own final ladder, picked from the tabs, in the URL.
    page.click(f'#season-tabs [data-season="{last["id"]}"]')
    expect(page.locator("#ratings-table")).to_have_attribute("data-loaded-season", last["id"])
    assert f"season={last['id']}" in page.url
    expect(page.locator("#ratings-caption")).to_contain_text(last["name"])
    mine = page.locator(f'#ratings-table tr[data-name="{seasons["ace"]}"]')
    expect(mine.locator(".rank")).to_have_text("1")
    expect(mine.locator(".races")).to_have_text("6")
    expect(page.locator("#your-place")).to_be_hidden()  # me did not race then
    page.go_back()
    expect(page.locator("#ratings-table")).to_have_attribute("data-loaded-season", current["id"])


def test_a_players_page_has_a_badge_per_season_and_the_seasons_start_on_its_chart(
    seasons, base_url
):
    page = seasons["context"].new_page()
    page.goto(f"{base_url}/players/{seasons['ace']}/")
    wait_ready(page)
    player = api(base_url, f"/api/players/{seasons['ace']}/")
    now, then = player["seasons"]
    cards = page.locator(".season-card")
    expect(cards).to_have_count(2)
    for card, season in zip((cards.first, cards.last), (now, then), strict=True):
        expect(card).to_have_attribute("data-season", season["id"])
        (ladder,) = season["ladders"]
        badge = card.locator('.season-badge[data-preset="beginner"]')
        expect(badge.locator(".league")).to_have_text(ladder["league"].capitalize())
        expect(badge.locator(".season-rank")).to_have_text(f"#{ladder['rank']}")
    expect(cards.first.locator(".season-current")).to_have_text("current")
    expect(cards.last.locator(".season-rank")).to_have_text("#1")  # final
    expect(cards.last.locator(".season-rank")).to_have_attribute(
        "title", f"Final rank on the Beginner ladder of {then['name']}"
    )

    # The rating card: its league this season, and the chart with this season's start.
    card = page.locator('.rating-card[data-preset="beginner"][data-variant="classic"]')
    expect(card.locator(".rating-card-head .league")).to_have_text(
        now["ladders"][0]["league"].capitalize()
    )
    start = card.locator(f'svg.rating-chart g.season-start[data-season="{now["id"]}"]')
    expect(start).to_have_count(1)
    expect(start.locator("text")).to_have_text(now["name"])
    expect(card.locator("circle.point")).to_have_count(11)
    shoot(page, "player-seasons.png")


LEAGUE_TEXT_JS = """async () => {
  const { leagueNews, ratingChange } = await import("/static/frontend/js/race/results.js");
  const { seasonStarts } = await import("/static/frontend/js/player/rating-chart.js");
  const result = (league_before, league, league_change, provisional = false) => ({
    rating_before: 1240, rating_after: 1262, provisional, league_before, league, league_change,
  });
  const points = ["2026-09-30T23:00:00.000Z", "2026-10-01T00:00:00.000Z",
                  "2026-10-02T00:00:00.000Z"].map((at) => ({ at, rating: 1000 }));
  return {
    promoted: leagueNews(result("silver", "gold", "promotion")),
    demoted: leagueNews(result("gold", "silver", "demotion")),
    placed: leagueNews(result("placement", "silver", null)),
    placing: leagueNews(result("placement", "placement", null)),
    same: leagueNews(result("gold", "gold", null)),
    guest: leagueNews({ rating_before: null, rating_after: null, league: null }),
    change: ratingChange(result("gold", "gold", null, true)).text,
    starts: seasonStarts(points, [
      { id: "2026-q4", starts_at: "2026-10-01T00:00:00.000Z" },
      { id: "2026-q3", starts_at: "2026-07-01T00:00:00.000Z" },
    ]).map(({ season, index }) => [season.id, index]),
  };
}"""


def test_the_words_for_a_league_change_and_where_a_season_starts(page, base_url):
    """The race page's words for what a rated race did to a league (docs/protocol.md 8), and where
    the rating chart draws a season's start: before the first point at or after it."""
    page.goto(base_url + "/ratings/")
    wait_ready(page)
    said = page.evaluate(LEAGUE_TEXT_JS)
    assert said == {
        "promoted": "Promoted to Gold",
        "demoted": "Demoted to Silver",
        "placed": "Placed in Silver",
        "placing": None,
        "same": None,
        "guest": None,
        "change": "1240 → 1262? (+22)",
        "starts": [["2026-q4", 1]],  # Q3 began before the first point: no line
    }
