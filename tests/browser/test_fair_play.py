"""Fair play in the browser (docs/protocol.md 6.3 and 6.4): a program playing as an account over the
real server is flagged, and its player sees "under review" on its own game while nobody else
does; a moderator clears one game and marks the account from the review queue in the admin;
the mark shows on the player page and a victim's refund in its rating history; the /fair-play/
page says all this and takes reports, also from a replay's Report button."""

from __future__ import annotations

import re
import sqlite3
from contextlib import ExitStack

import pytest

from tests.browser.support import daphne_server, expect, wait_ready
from tests.browser.support.fairplay import lose_to_a_marked_cheater, make_moderator, play_as_program
from tests.browser.support.pages import Racer
from tests.browser.support.race import api, shoot, sign_up, unique

pytestmark = pytest.mark.browser


# This module's own server, with the screen as configured by default: the session's server
# lets the other tests' program-fast clicks through (tests/browser/support/__init__.py).
@pytest.fixture(scope="module")
def server_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("minerace-fair-play")


@pytest.fixture(scope="module")
def base_url(needs_browser, server_dir) -> str:
    with daphne_server(server_dir, lenient_screen=False) as url:
        yield url


@pytest.fixture(scope="module")
def server_database(base_url, server_dir):
    return server_dir / "db.sqlite3"


QUEUE = "/admin/fairplay/review/"


def review_of(database, game_id: str) -> tuple[str | None, dict]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        status, signals = connection.execute(
            "SELECT status, signals FROM fairplay_review WHERE game_id = ?", (game_id,)
        ).fetchone()
    return status, signals


def on_leaderboard(base_url: str, name: str) -> bool:
    board = api(base_url, "/api/leaderboards/intermediate/?period=day")
    return name in [entry["name"] for entry in board["entries"]]


def queue_rows(page) -> list[str]:
    """The player column of the queue's rows, in order."""
    return page.locator("#result_list tbody th.field-player_shown").all_inner_texts()


def act_on(page, player: str, action: str) -> None:
    """Tick the queue row of `player` and run an action on it."""
    row = page.locator("#result_list tbody tr", has_text=player)
    row.locator("input.action-select").check()
    page.select_option("select[name=action]", action)
    page.click("button[name=index]")


def test_a_program_is_flagged_and_a_moderator_clears_one_game_then_marks_the_account(
    open_page, base_url, server_database
):
    program, moderator, stranger = open_page(), open_page(), open_page()
    bot_name, mod_name = unique("prog"), unique("mod")
    sign_up(program, base_url, bot_name)
    sign_up(moderator, base_url, mod_name)
    make_moderator(server_database, mod_name)

    first = play_as_program(program, base_url, server_database)
    status, signals = review_of(server_database, first)
    assert status == "under_review" and "reaction" in signals
    assert not on_leaderboard(base_url, bot_name)

    # Its own page says so; another visitor's view of the same game says nothing.
    program.goto(f"{base_url}/games/{first}/")
    note = program.locator("#review-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Under review")
    expect(note.locator("a")).to_have_attribute("href", "/fair-play/#screening")
    shoot(program, "fairplay-under-review-note.png")
    stranger.goto(f"{base_url}/games/{first}/")
    expect(stranger.locator("#result")).to_be_visible()
    expect(stranger.locator("#review-note")).to_be_hidden()

    # The moderator's queue: the game, each signal's figures, the replay and the history.
    moderator.goto(base_url + "/admin/")
    moderator.get_by_role("link", name="Reviews").click()
    moderator.wait_for_url(base_url + QUEUE)
    expect(moderator.locator("#content h1")).to_contain_text("Review queue")
    row = moderator.locator("#result_list tbody tr", has_text=bot_name)
    expect(row.locator("td.field-signals_shown")).to_contain_text(
        re.compile(r"reaction: median [\d.]+ ms between moves, below 80\.0 ms")
    )
    expect(row.locator("a.replay-link")).to_have_attribute("href", f"/games/{first}/replay/")
    expect(row.locator("a.history-link")).to_have_attribute("href", f"/players/{bot_name}/")
    shoot(moderator, "fairplay-review-queue.png")

    act_on(moderator, bot_name, "clear")
    expect(moderator.locator(".messagelist")).to_contain_text("Cleared 1 game(s).")
    assert bot_name not in " ".join(queue_rows(moderator))
    assert review_of(server_database, first)[0] == "cleared"
    assert on_leaderboard(base_url, bot_name)  # in the place it would have had
    program.goto(f"{base_url}/games/{first}/")
    expect(program.locator("#review-note")).to_contain_text("Reviewed and cleared")

    # A second game at the same pace: this time the moderator marks the account.
    second = play_as_program(program, base_url, server_database)
    moderator.goto(base_url + QUEUE)
    act_on(moderator, bot_name, "mark")
    expect(moderator.locator("#accounts-to-mark")).to_have_text(bot_name)
    expect(moderator.locator("#content")).to_contain_text("Marking is for good")
    shoot(moderator, "fairplay-mark-confirmation.png")
    moderator.click("#confirm-mark")
    expect(moderator.locator(".messagelist")).to_contain_text(f"Marked {bot_name}")
    assert bot_name not in " ".join(queue_rows(moderator))
    assert review_of(server_database, second)[0] == "cheat"
    assert not on_leaderboard(base_url, bot_name)  # the cleared game left with the rest

    stranger.goto(f"{base_url}/players/{bot_name}/")
    wait_ready(stranger)
    expect(stranger.locator("#player-mark")).to_be_visible()
    expect(stranger.locator("#player-marked")).to_contain_text("cheated")
    shoot(stranger, "fairplay-marked-player.png")


def test_staff_without_the_permission_see_no_queue(open_page, base_url, server_database):
    clerk = open_page()
    name = unique("clerk")
    sign_up(clerk, base_url, name)
    with sqlite3.connect(server_database, timeout=10) as connection:
        connection.execute("UPDATE auth_user SET is_staff = 1 WHERE username = ?", (name,))
    clerk.goto(base_url + "/admin/")
    expect(clerk.locator("#content")).to_be_visible()
    expect(clerk.get_by_role("link", name="Reviews")).to_have_count(0)
    answer = clerk.goto(base_url + QUEUE)
    assert answer.status == 403


def test_a_refund_shows_in_the_victims_rating_history(open_page, base_url, server_database):
    victim = open_page()
    name = unique("victim")
    sign_up(victim, base_url, name)
    lose_to_a_marked_cheater(server_database, name, unique("cheat"))
    victim.goto(f"{base_url}/players/{name}/")
    wait_ready(victim)
    card = victim.locator(".rating-card").first
    expect(card.locator(".rating-value")).to_have_text("1063")
    card.locator("summary").click()
    rows = card.locator("table.rating-history tbody tr")
    expect(rows).to_have_count(4)
    refund = rows.nth(3)
    expect(refund).to_have_class("refund")
    expect(refund.locator("td.index")).to_have_text("Refund")
    expect(refund.locator("td.change")).to_have_text("+35")
    expect(refund.locator("a.replay-link")).to_have_count(0)
    expect(refund.locator("a.refund-link")).to_have_attribute("href", "/fair-play/#review")
    expect(rows.nth(2).locator("td.change")).to_have_text("\u221235")
    expect(card.locator("svg.rating-chart desc")).to_have_text(
        re.compile(r"^3 rated races and 1 refund, from 1041 to 1063")
    )
    # On the chart, the refund is a point of its own (docs/protocol.md 8: refunds marked).
    marked = card.locator("svg.rating-chart circle.point.refund")
    expect(marked).to_have_count(1)
    expect(marked.locator("title")).to_contain_text("Refund of 35")
    expect(victim.locator("#player-mark")).to_be_hidden()
    shoot(victim, "fairplay-refund-history.png")


def test_the_fair_play_page_from_the_nav_and_a_report_from_a_replay(
    open_page, base_url, server_database
):
    guest = open_page()
    guest.goto(base_url + "/")
    guest.locator("nav.page-nav").get_by_role("link", name="Fair play").click()
    guest.wait_for_url(base_url + "/fair-play/")
    wait_ready(guest)
    expect(guest.locator('nav.page-nav a[aria-current="page"]')).to_have_text("Fair play")
    cheating = guest.locator("#cheating li")
    expect(cheating).to_have_count(3)
    for words in ("A program that plays or advises", "A second device", "A second account"):
        expect(guest.locator("#cheating")).to_contain_text(words)
    expect(guest.locator("#screening dt")).to_have_text(["Pace", "Reaction", "Metronome", "Record"])
    expect(guest.locator("#review")).to_contain_text("200 points")
    expect(guest.locator("#report-login")).to_be_visible()
    expect(guest.locator("#report-form")).to_have_count(0)
    shoot(guest, "fairplay-page.png")

    # A finished game of a guest, reported by an account from its replay.
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": "beginner"})
    reporter = open_page()
    sign_up(reporter, base_url, unique("reporter"))
    reporter.goto(f"{base_url}/games/{game['id']}/replay/")
    reporter.click("#report-link")
    reporter.wait_for_url(re.compile(r"/fair-play/\?game="))
    wait_ready(reporter)
    expect(reporter.locator("#report-game")).to_have_value(game["id"])
    expect(reporter.locator("#report-status")).to_have_text(
        "This game is not over yet: report it once it has ended."
    )

    finished = play_to_the_end(base_url, "wanderer")
    reporter.fill("#report-game", f"{base_url}/games/{finished['id']}/")
    reporter.locator("#report-game").blur()
    expect(reporter.locator("#report-player option")).to_have_text(["wanderer"])
    reporter.fill("#report-reason", "Cleared the board without a single pause.")
    reporter.click("#report-send")
    expect(reporter.locator("#report-status")).to_have_text(
        "Thank you: the moderators will look at this game."
    )
    shoot(reporter, "fairplay-report-sent.png")
    reporter.fill("#report-reason", "Again.")
    reporter.click("#report-send")
    expect(reporter.locator("#report-status")).to_have_text(
        "You have reported this game already. Thank you."
    )
    with sqlite3.connect(f"file:{server_database}?mode=ro", uri=True) as connection:
        reasons = connection.execute(
            "SELECT reason FROM fairplay_report WHERE game_id = ?", (finished["id"],)
        ).fetchall()
    assert reasons == [("Cleared the board without a single pause.",)]


def play_to_the_end(base_url: str, name: str) -> dict:
    """A guest's beginner game played to its end: every cell in turn, until a mine or the win."""
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": "beginner"})
    with ExitStack() as stack:
        racer = Racer(stack, base_url, game["id"], name)
        for index in range(game["width"] * game["height"]):
            cell = (index % game["width"], index // game["width"])
            if cell not in racer.known and racer.reveal(*cell)["status"] != "playing":
                break
    state = api(base_url, f"/api/games/{game['id']}/")
    assert state["status"] == "finished"
    return state
