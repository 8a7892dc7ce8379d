"""The player page's history and progress (issue 14.5): filters kept in the URL (a reload
keeps them), "Load 50 more" through every page, the filtered set's win rate as the API counts
it, and charts with one point per win of the chosen board; no sideways scroll on a phone; no
CSP violation anywhere on the way."""

import os
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.browser.support import PHONE, expect, wait_ready
from tests.browser.support.pages import api
from tests.browser.support.player_history import career, seed_career
from tests.browser.test_csp import REPORT_VIOLATIONS, note_console

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1200, "height": 900}


def shoot(page, name: str, top: str) -> None:
    """A screenshot for a human, the element `top` at the top of the window, when
    MINERACE_SHOTS names a folder (e.g. /tmp/shots14)."""
    folder = os.environ.get("MINERACE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.locator(top).evaluate("element => element.scrollIntoView()")
        page.screenshot(path=str(Path(folder) / name))


@pytest.fixture(scope="module")
def player(server_database) -> dict:
    """A guest with 130 ranked games over 60 days; its name and games (oldest first)."""
    name = f"hist-{uuid.uuid4().hex[:6]}"
    games = career()
    seed_career(server_database, name, games)
    return {"name": name, "games": games}


@pytest.fixture
def watched_page(open_page):
    """open_page that also fails the test on a CSP violation or a console message."""
    problems: list[str] = []

    def open_watched(**options):
        page = open_page(**options)
        page.expose_function("reportViolation", lambda v: problems.append(f"violation: {v}"))
        page.add_init_script(REPORT_VIOLATIONS)
        page.on("console", lambda message: note_console(problems, message))
        return page

    yield open_watched
    assert problems == []


def wins(games, preset: str, variant: str = "classic") -> int:
    """How many of `games` are wins on this board (one chart point each)."""
    return sum((g.preset, g.variant, g.status) == (preset, variant, "won") for g in games)


def games_api(base_url: str, name: str, query: str = "") -> dict:
    return api(base_url, f"/api/players/{quote(name)}/games/?{query}")


def expect_summary(page, summary: dict) -> None:
    """The page shows the API's games, wins and win rate of the filtered set."""
    expect(page.locator("#summary-games")).to_have_text(str(summary["games"]))
    expect(page.locator("#summary-wins")).to_have_text(str(summary["wins"]))
    expect(page.locator("#summary-win-rate")).to_have_text(f"{summary['win_rate'] * 100:.1f} %")


def expect_loaded(page, query: str) -> None:
    """The history table shows the first page of the filters in `query` (e.g. preset=expert)."""
    expect(page.locator("#recent-table")).to_have_attribute("data-loaded", query)


def rows(page) -> list[dict]:
    return page.locator("#recent-table tbody tr").evaluate_all(
        "rows => rows.map(row => ({...row.dataset}))"
    )


def chart_points(page, chart: str) -> int:
    return page.locator(f"#{chart} svg circle.point").count()


def test_history_filters_pages_and_charts(watched_page, base_url, player):
    name, games = player["name"], player["games"]
    page = watched_page(viewport=DESKTOP)
    page.goto(f"{base_url}/players/{name}/")
    wait_ready(page)

    # Everything, newest first: 130 games in pages of 50, as the API pages them.
    everything = games_api(base_url, name)
    assert everything["summary"]["games"] == len(games) == 130
    expect_summary(page, everything["summary"])
    expect(page.locator("#recent-table tbody tr")).to_have_count(50)
    expect(page.locator("#history-count")).to_have_text("Showing 50 of 130 games")
    more = page.locator("#load-more")
    more.click()
    expect(page.locator("#recent-table tbody tr")).to_have_count(100)
    more.click()
    expect(page.locator("#recent-table tbody tr")).to_have_count(130)
    expect(more).to_be_hidden()
    expect(page.locator("#history-count")).to_have_text("Showing 130 of 130 games")
    pages = [everything]
    while pages[-1]["next"]:
        pages.append(games_api(base_url, name, f"before={pages[-1]['next']}"))
    api_ids = [game["game"] for answer in pages for game in answer["games"]]
    assert [row["game"] for row in rows(page)] == api_ids

    # Filter to beginner: the URL says so, the rows and the win rate follow, and so do the
    # charts: one point per beginner win (classic boards, as no kind is filtered).
    page.select_option("#filter-preset", "beginner")
    expect_loaded(page, "preset=beginner")
    assert page.url.endswith(f"/players/{name}/?preset=beginner")
    beginner = games_api(base_url, name, "preset=beginner")
    expect_summary(page, beginner["summary"])
    assert {row["preset"] for row in rows(page)} == {"beginner"}
    trend = page.locator("#player-trend")
    expect(trend).to_have_attribute("data-preset", "beginner")
    beginner_wins = wins(games, "beginner")
    trend_api = api(base_url, f"/api/players/{quote(name)}/trend/?preset=beginner")
    assert len(trend_api["points"]) == beginner_wins > 10
    expect(page.locator("#time-chart svg circle.point")).to_have_count(beginner_wins)
    expect(page.locator("#rate-chart svg circle.point")).to_have_count(beginner_wins)
    expect(page.locator("#chart-switch input[value=beginner]")).to_be_checked()
    # The text alternative: the chart's title and description, and the line above the charts.
    best_ms = min(point["time_ms"] for point in trend_api["points"])
    best_time = f"{best_ms / 1000:.3f} s"
    time_chart = page.locator("#time-chart svg")
    expect(time_chart).to_have_attribute("role", "img")
    expect(time_chart.locator("desc")).to_contain_text(f"{beginner_wins} wins on Beginner")
    expect(time_chart.locator("desc")).to_contain_text(f"best {best_time}")
    expect(page.locator("#trend-summary")).to_contain_text(
        f"Beginner: {beginner_wins} wins · best {best_time}"
    )
    assert page.locator("#time-chart svg text.y-label").count() >= 3
    assert page.locator("#time-chart svg text.x-label").count() >= 2

    # And to wins only; a reload keeps both filters.
    page.select_option("#filter-result", "won")
    expect_loaded(page, "preset=beginner&result=won")
    assert page.url.endswith("?preset=beginner&result=won")
    page.reload()
    wait_ready(page)
    expect_loaded(page, "preset=beginner&result=won")
    expect(page.locator("#filter-preset")).to_have_value("beginner")
    expect(page.locator("#filter-result")).to_have_value("won")
    won = games_api(base_url, name, "preset=beginner&result=won")
    expect_summary(page, won["summary"])
    assert won["summary"]["win_rate"] == 1.0
    assert len(rows(page)) == len(won["games"]) == won["summary"]["games"]
    assert {row["status"] for row in rows(page)} == {"won"}
    expect(page.locator("#time-chart svg circle.point")).to_have_count(beginner_wins)
    shoot(page, "player-charts-desktop.png", "#player-trend")

    # The chart switch: intermediate's wins, in the URL too; the history stays on beginner.
    page.locator("#chart-switch label", has_text="Intermediate").click()
    expect(trend).to_have_attribute("data-preset", "intermediate")
    assert page.url.endswith("?preset=beginner&result=won&chart=intermediate")
    expect(page.locator("#time-chart svg circle.point")).to_have_count(wins(games, "intermediate"))
    expect_loaded(page, "preset=beginner&result=won")
    # Expert was never won: the charts say so instead of drawing nothing.
    page.locator("#chart-switch label", has_text="Expert").click()
    expect(page.locator("#trend-empty")).to_be_visible()
    expect(page.locator("#trend-empty-text")).to_have_text("No wins on Expert yet.")
    expect(page.locator("#trend-charts")).to_be_hidden()
    page.go_back()
    expect(trend).to_have_attribute("data-preset", "intermediate")
    expect(page.locator("#trend-charts")).to_be_visible()

    # No-guess boards only: the history and the charts (still intermediate) follow the kind.
    page.select_option("#filter-variant", "no_guess")
    expect_loaded(page, "preset=beginner&variant=no_guess&result=won")
    expect(trend).to_have_attribute("data-variant", "no_guess")
    no_guess_wins = wins(games, "intermediate", "no_guess")
    expect(trend).to_have_attribute("data-points", str(no_guess_wins))
    assert chart_points(page, "time-chart") == no_guess_wins
    summary = games_api(base_url, name, "preset=beginner&variant=no_guess&result=won")["summary"]
    expect_summary(page, summary)

    # Clearing the filters brings every game back, the losses and unfinished races included.
    page.click("#filters-clear")
    expect_loaded(page, "")
    expect_summary(page, everything["summary"])
    assert {row["status"] for row in rows(page)} == {"won", "lost", "dnf"}


def test_phone_has_no_sideways_scroll(watched_page, base_url, player):
    page = watched_page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto(f"{base_url}/players/{player['name']}/?preset=intermediate")
    wait_ready(page)
    expect_loaded(page, "preset=intermediate")
    points = wins(player["games"], "intermediate")
    expect(page.locator("#time-chart svg circle.point")).to_have_count(points)
    widths = page.evaluate(
        "() => ({page: document.documentElement.scrollWidth, body: document.body.scrollWidth,"
        " view: window.innerWidth, chart: document.querySelector('#time-chart svg')"
        ".getBoundingClientRect().right})"
    )
    assert widths["view"] == PHONE["width"]
    assert widths["page"] <= widths["view"] and widths["body"] <= widths["view"], widths
    assert widths["chart"] <= widths["view"], widths
    # The filters are labelled controls a thumb can use.
    for key, label in [("preset", "Board"), ("variant", "Kind"), ("mode", "Mode")]:
        expect(page.get_by_label(label, exact=True)).to_have_attribute("name", key)
    page.get_by_label("Result", exact=True).select_option("lost")
    expect_loaded(page, "preset=intermediate&result=lost")
    expect(page.locator("#summary-win-rate")).to_have_text("0.0 %")
    page.get_by_label("Result", exact=True).select_option("")
    expect_loaded(page, "preset=intermediate")
    shoot(page, "player-charts-phone.png", "#player-trend")
    shoot(page, "player-history-phone.png", "#player-history")
