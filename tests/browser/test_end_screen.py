"""The end screens' statistics (issue 14.4), checked against the game's own `game_over` frame:
a ranked solo win (every figure of the field, STNB on intermediate, and "New personal best! #N
on the intermediate leaderboard"), a solo loss (3BV solved and the estimated time instead of
dashes), and a ranked race's results for every racer, which fit a 390 px phone without
scrolling sideways."""

import json
import re
from contextlib import ExitStack

import pytest

from games.engine import generate_board
from tests.browser.support import PHONE, board_states, expect, first_hidden_mine, wait_ready
from tests.browser.support.pages import Racer, api
from tests.browser.support.race import shoot, unique
from tests.browser.support.screens import (
    DASH,
    bbbv_text,
    click_kinds,
    fixed,
    flag_and_chord,
    frame_of,
    percent,
    race_board,
    record_frames,
    reveal,
    reveal_every_safe_cell,
    solo_board,
    time_text,
)

pytestmark = pytest.mark.browser


def as_guest(page, name: str) -> None:
    page.add_init_script(f"localStorage.setItem('minerace.nickname', {json.dumps(name)})")


def own_result(frames: list[dict], name: str) -> dict:
    return next(row for row in frame_of(frames, "game_over")["results"] if row["name"] == name)


def solo_figures(page) -> dict[str, str]:
    """The end screen's statistics: label -> value (the clicks by kind under "kinds")."""
    terms = page.locator("#result .stats dt").all_inner_texts()
    values = page.locator("#result .stats dd:not(.stat-kinds)").all_inner_texts()
    figures = dict(zip(terms, values, strict=True))
    kinds = page.locator("#result-click-kinds")
    if kinds.count():
        figures["kinds"] = kinds.inner_text()
    return figures


def test_a_ranked_win_shows_every_figure_and_the_news(page, base_url, server_database):
    name = unique("ace")
    as_guest(page, name)
    frames = record_frames(page)
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": "intermediate"})
    assert game["ranked"]
    page.goto(base_url + game["page"])
    wait_ready(page)
    reveal(page, 8, 8)
    board = solo_board(server_database, game["id"])
    flag_and_chord(page, board)  # right clicks and a chord, for the counts by kind
    reveal_every_safe_cell(page, board)
    expect(page.locator("#result")).to_have_attribute("data-outcome", "won")

    result = own_result(frames, name)
    assert result["status"] == "won" and result["bbbv_solved"] == result["bbbv"]
    assert result["right_clicks"] >= 1 and result["chord_clicks"] == 1
    assert result["stnb"] is not None  # intermediate: the field's constant is known
    expected = {
        "Time": time_text(result),
        "3BV": str(result["bbbv"]),
        "3BV/s": fixed(result["bbbv_per_s"], 2),
        "Clicks": str(result["clicks"]),
        "kinds": click_kinds(result),
        "Efficiency": percent(result["efficiency"]),
        "IOE": fixed(result["ioe"], 3),
        "RQP": fixed(result["rqp"], 2),
        "STNB": fixed(result["stnb"], 1),
    }
    assert re.fullmatch(r"\d+\.\d{3} s", expected["Time"])
    assert solo_figures(page) == expected

    # The news: a first win is this name's best, and its place on the all-time leaderboard.
    assert result["personal_best"] is True and isinstance(result["leaderboard_rank"], int)
    news = page.locator("#result-news")
    place = f"#{result['leaderboard_rank']} on the intermediate leaderboard"
    expect(news).to_have_text(f"New personal best! {place}")
    expect(news.locator("a")).to_have_text(place)
    expect(news.locator("a")).to_have_attribute("href", "/leaderboards/?preset=intermediate")
    board_line = api(base_url, "/api/leaderboards/intermediate/")["entries"]
    assert any(e["name"] == name and e["rank"] == result["leaderboard_rank"] for e in board_line)
    expect(page.locator("#result-export")).to_have_attribute(
        "href", f"/api/games/{game['id']}/export/?player={result['player']}&format=evf"
    )
    shoot(page, "end-screen-win.png")

    # Reloaded, the finished state's results give the same figures; the news was news once.
    page.reload()
    wait_ready(page)
    expect(page.locator("#result")).to_have_attribute("data-outcome", "won")
    assert solo_figures(page) == expected
    expect(page.locator("#result-news")).to_be_hidden()


def test_a_loss_shows_3bv_solved_and_the_estimated_time(page, base_url):
    frames = record_frames(page)
    game = api(
        base_url, "/api/games/", {"mode": "solo", "preset": "expert", "seed": "end-screen-loss"}
    )
    page.goto(base_url + game["page"])
    wait_ready(page)
    reveal(page, 15, 8)
    board = generate_board(30, 16, 99, "end-screen-loss", (15, 8))
    flag_and_chord(page, board)
    page.wait_for_timeout(300)  # a moment of play before the fatal click
    mine = first_hidden_mine(board, board_states(page))
    reveal(page, *mine)
    expect(page.locator("#result")).to_have_attribute("data-outcome", "lost")

    (result,) = frame_of(frames, "game_over")["results"]
    assert result["status"] == "lost" and 0 < result["bbbv_solved"] < result["bbbv"]
    # The estimate the server sent is the field's: the losing click's time x 3BV / 3BV solved.
    last = api(base_url, f"/api/games/{game['id']}/moves/")["moves"][-1]
    assert result["est_time_ms"] == round(last["t_ms"] * result["bbbv"] / result["bbbv_solved"])
    expected = {
        "Est. time": time_text(result),
        "3BV": bbbv_text(result),
        "3BV/s": DASH,
        "Clicks": str(result["clicks"]),
        "kinds": click_kinds(result),
        "Efficiency": DASH,
    }
    # An estimate without milliseconds (issue 22.6: not "≈ 429.525 s").
    assert re.fullmatch(r"\N{ALMOST EQUAL TO} \d+(\.\d)? s", expected["Est. time"])
    assert expected["3BV"] == f"{result['bbbv_solved']}/{result['bbbv']}"
    assert solo_figures(page) == expected  # no IOE, RQP or STNB: a win's figures
    assert result["ioe"] is result["rqp"] is result["stnb"] is None
    expect(page.locator("#result .stats dt").first).to_have_attribute(
        "title", re.compile("losing click")
    )
    expect(page.locator("#result-news")).to_be_hidden()
    shoot(page, "end-screen-loss.png")


def row_figures(row) -> dict[str, str]:
    """A results row's figures by their column (td class), as the page writes them."""
    cells = ["time", "bbbv", "bbbvs", "efficiency", "rqp", "stnb"]
    figures = {name: row.locator(f"td.{name}").inner_text() for name in cells}
    figures["clicks"] = row.locator("td.clicks .clicks-total").inner_text()
    figures["kinds"] = row.locator("td.clicks .stat-kinds").inner_text()
    return figures


def expected_row(result: dict) -> dict[str, str]:
    return {
        "time": time_text(result),
        "bbbv": bbbv_text(result),
        "bbbvs": fixed(result["bbbv_per_s"], 2),
        "efficiency": percent(result["efficiency"]),
        "rqp": fixed(result["rqp"], 2),
        "stnb": fixed(result["stnb"], 1),
        "clicks": str(result["clicks"]),
        "kinds": click_kinds(result, short=True),
    }


OUT_OF_VIEW_JS = """(width) => [...document.querySelectorAll('#race-over *, #race-results *')]
    .filter(el => !el.closest('thead') && el.getClientRects().length
        && el.getBoundingClientRect().right > width + 0.5)
    .map(el => `${el.tagName}.${el.className}`)"""


def assert_fits(page, width: int) -> None:
    """Nothing of the results reaches past the screen's right edge; nothing scrolls sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(OUT_OF_VIEW_JS, width) == []
    table = page.locator("#race-results .table-scroll")
    assert table.evaluate("box => box.scrollWidth <= box.clientWidth")


def test_race_results_for_every_racer_fit_a_phone(open_page, base_url, server_database):
    name, rival_name = unique("winner"), unique("rival")
    page = open_page()
    as_guest(page, name)
    frames = record_frames(page)
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner", "max_players": 2})
    assert game["ranked"]
    page.goto(base_url + game["page"])
    wait_ready(page)
    with ExitStack() as stack:
        rival = Racer(stack, base_url, game["id"], rival_name)
        rival.request({"type": "ready"}, "ready")
        page.click("#ready-button")
        rival.wait_for("started")
        expect(page.locator("body")).to_have_attribute("data-phase", "running")
        board, start = race_board(server_database, game["id"])
        # The rival opens the start, then steps on a mine; the winner clears the board.
        rival.reveal(*start)
        mine = next(board.xy(i) for i in sorted(board.mines))
        assert rival.reveal(*mine)["status"] == "lost"
        reveal(page, *start)
        reveal_every_safe_cell(page, board)
        expect(page.locator("#results-table tbody tr")).to_have_count(2)

    results = {row["name"]: row for row in frame_of(frames, "game_over")["results"]}
    for racer, result in results.items():
        row = page.locator(f'#results-table tr[data-name="{racer}"]')
        assert row_figures(row) == expected_row(result), racer
    won, lost = results[name], results[rival_name]
    assert lost["time_ms"] is None and lost["est_time_ms"] is not None
    loser_time = page.locator(f'#results-table tr[data-name="{rival_name}"] td.time')
    expect(loser_time).to_have_attribute("data-estimated", "1")

    # The winner's news, in words for this racer and as tags on its row.
    assert won["personal_best"] is True and isinstance(won["leaderboard_rank"], int)
    place = f"#{won['leaderboard_rank']} on the beginner leaderboard"
    expect(page.locator("#results-news")).to_have_text(
        f"New personal best! {place} See the leaderboard"
    )
    mine_row = page.locator(f'#results-table tr[data-name="{name}"]')
    expect(mine_row.locator(".tag-best")).to_have_text("new best")
    expect(mine_row.locator(".tag-place")).to_have_text(f"#{won['leaderboard_rank']}")
    expect(mine_row.locator(".tag-place")).to_have_attribute("title", place)
    rival_row = page.locator(f'#results-table tr[data-name="{rival_name}"]')
    expect(rival_row.locator(".tag-news")).to_have_count(0)
    # Each racer's game exports.
    exports = page.locator("#results-export a")
    expect(exports).to_have_count(2)
    for result in results.values():
        expect(page.locator(f'#results-export a[data-player="{result["player"]}"]')).to_have_text(
            result["name"]
        )

    # The same page narrowed to a phone: each racer a card, nothing scrolls sideways.
    page.set_viewport_size(PHONE)
    expect(page.locator("#results-table thead")).to_have_css("position", "absolute")
    assert_fits(page, PHONE["width"])

    # A phone that follows the race's link later: who won first, then the cards.
    phone = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(base_url + game["page"])
    wait_ready(phone)
    expect(phone.locator("#race-over-outcome")).to_contain_text(f"{name} won in")
    expect(phone.locator("#results-table tbody tr")).to_have_count(2)
    for racer, result in results.items():
        row = phone.locator(f'#results-table tr[data-name="{racer}"]')
        assert row_figures(row) == expected_row(result), racer
        label = row.locator("td.time").evaluate("td => getComputedStyle(td, '::before').content")
        assert label == '"Time"'
    assert_fits(phone, PHONE["width"])
    phone.evaluate("document.getElementById('race-results').scrollIntoView()")
    shoot(phone, "race-results-phone.png")
