"""Bots and live races from the lobby: a bot race started from its buttons and played to its end
(the bot moves on its own after the human resigns), and the Watch live list of running races,
most watched first, where one click opens a race as a spectator."""

import json
import os
import re
from contextlib import ExitStack
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.browser.support import expect, wait_ready
from tests.browser.support.pages import Racer, api
from tests.browser.support.race import quick_match
from tests.support.waiting import wait_until

pytestmark = pytest.mark.browser

TIMES = "\N{MULTIPLICATION SIGN}"  # the page writes board sizes with a multiplication sign


def shoot(target, name: str) -> None:
    """A screenshot for a human, when MINERACE_SHOTS names a folder (e.g. /tmp/shots12)."""
    folder = os.environ.get("MINERACE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(Path(folder) / name))


def game_id_of(page) -> str:
    return re.search(r"/games/([A-Za-z0-9_-]+)/", page.url).group(1)


def bot_of(game: dict) -> dict:
    [bot] = [player for player in game["players"] if player["is_bot"]]
    return bot


def progress_width(page, player_id: str) -> float:
    """The width of a racer's progress bar beside the board, in percent of its track."""
    bar = page.locator(f'#opponents [data-player="{player_id}"] .progress-bar')
    return float(bar.evaluate("bar => parseFloat(bar.style.width) || 0"))


def test_race_a_bot_from_the_lobby_to_its_end(open_page, base_url):
    page = open_page()
    page.goto(base_url + "/")
    page.fill("#nickname", "Botfighter")
    expect(page.locator("#bot-race [data-bot]")).to_have_text(
        ["Relaxed0.8 3BV/s", "Steady1.6 3BV/s", "Fast2.8 3BV/s"]
    )
    page.select_option("#bot-preset", "beginner")
    page.click("#bot-race [data-bot=quick]")
    page.wait_for_url("**/games/*/")
    wait_ready(page)
    game_id = game_id_of(page)

    # An ordinary race's waiting room: the bot is in and ready, this player joined by name.
    game = api(base_url, f"/api/games/{game_id}/")
    bot = bot_of(game)
    assert (game["mode"], game["preset"], game["max_players"]) == ("race", "beginner", 2)
    assert (game["rated"], game["no_guess"], bot["name"]) == (False, False, "Bot 2.8 3BV/s")
    expect(page.locator("#connection")).to_have_text("racing as Botfighter")
    expect(page.locator(f'#players [data-player="{bot["id"]}"]')).to_have_attribute(
        "data-ready", "1"
    )

    # Nobody else is offered the seat the bot keeps for its human.
    other = open_page()
    other.goto(base_url + "/")
    expect(other.locator("#open-races")).to_have_attribute("data-loaded", "1")
    expect(other.locator(f'#open-races [data-game="{game_id}"]')).to_have_count(0)
    other.close()

    # Ready: the countdown, then the race; the bot moves by itself, its bar grows.
    page.click("#ready-button")
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    page.wait_for_function(
        """(id) => parseFloat(document.querySelector(
            `#opponents [data-player="${id}"] .progress-bar`)?.style.width) > 0""",
        arg=bot["id"],
    )
    first = progress_width(page, bot["id"])
    page.wait_for_function(
        """([id, first]) => parseFloat(document.querySelector(
            `#opponents [data-player="${id}"] .progress-bar`)?.style.width) > first""",
        arg=[bot["id"], first],
    )

    # The human gives up: the race is decided at once (the bot first, docs/protocol.md 2.2); the
    # bot plays on to its own end, and then the race is over.
    page.click("#resign-button")
    page.click("#resign-yes")
    expect(page.locator("#race-results")).to_be_visible()
    expect(page.locator("#results-title")).to_have_text(
        "Bot 2.8 3BV/s won the race · you placed #2 of 2"
    )
    expect(page.locator("#seed-check")).to_be_visible(timeout=60_000)  # game_over
    finished = api(base_url, f"/api/games/{game_id}/")
    assert finished["status"] == "finished"
    by_name = {row["name"]: row for row in finished["results"]}
    assert by_name["Botfighter"]["status"] == "dnf"
    assert by_name["Bot 2.8 3BV/s"]["status"] in ("won", "lost")
    assert bot_of(finished)["revealed"] > 0
    assert "rating_after" not in by_name["Botfighter"]


def spectate(stack: ExitStack, base_url: str, game_id: str) -> None:
    """Watch a race over the WebSocket (so it counts one spectator) until the test ends."""
    url = base_url.replace("http", "ws", 1) + f"/ws/games/{game_id}/"
    socket = stack.enter_context(connect(url, origin=base_url, proxy=None))
    socket.send(json.dumps({"type": "hello", "role": "spectator", "id": 1}))
    while json.loads(socket.recv(timeout=10))["type"] != "welcome":
        pass


def bot_race(stack: ExitStack, base_url: str, racer: str, **body) -> tuple[dict, Racer]:
    """A running race of a bot and `racer` (a WebSocket client who stays until the end)."""
    game = api(base_url, "/api/games/", {"mode": "race", **body})
    player = Racer(stack, base_url, game["id"], racer)
    player.request({"type": "ready"}, "ready")
    player.wait_for("started")
    return game, player


def quick_matched_race(base_url: str, preset: str) -> dict:
    """A rated race made by quick match for two guests seeking over the WebSocket."""
    frames = quick_match(base_url, ["Seeker0", "Seeker1"], preset, own_addresses=False)
    return frames[0]["game"]


def test_watch_live_lists_running_races_and_one_click_spectates(open_page, base_url):
    with ExitStack() as stack:
        tagged, runner = bot_race(
            stack, base_url, "Runner", preset="expert", no_guess=True, bot="relaxed"
        )
        watched, _ = bot_race(stack, base_url, "Walker", preset="intermediate", bot="relaxed")
        spectate(stack, base_url, watched["id"])
        rated = quick_matched_race(base_url, "expert")
        wait_until(
            lambda: api(base_url, f"/api/games/{rated['id']}/")["status"] == "running",
            message="the quick-matched race to start",
        )
        wait_until(
            lambda: api(base_url, f"/api/games/{watched['id']}/")["spectators"] == 1,
            message="the spectator to be counted",
        )
        start = tuple(api(base_url, f"/api/games/{tagged['id']}/")["start"])
        runner.reveal(*start)

        page = open_page()
        page.goto(base_url + "/")
        live = page.locator("#live-races")
        expect(live).to_have_attribute("data-loaded", "1")
        expect(page.locator("#live-races-empty")).to_be_hidden()
        running = [game["id"] for game in api(base_url, "/api/games/?status=running")["games"]]
        assert running[0] == watched["id"]  # the most watched first
        listed = live.locator("> li")
        expect(listed.first).to_have_attribute("data-game", watched["id"])
        for game_id in (tagged["id"], rated["id"]):
            expect(live.locator(f'[data-game="{game_id}"]')).to_have_count(1)

        # The most watched: its size, its racers (the bot marked) and its spectator.
        first = live.locator(f'[data-game="{watched["id"]}"]')
        expect(first.locator(".race-size")).to_have_text(f"Intermediate 16{TIMES}16 · 40 mines")
        expect(first.locator(".live-race-watchers")).to_have_text("1 watching")
        expect(first.locator(".live-racer-name")).to_have_text(["Bot 0.8 3BV/s", "Walker"])
        expect(first.locator('.live-racer[data-is-bot="1"] .tag-bot')).to_have_text("Bot")
        expect(first.locator('.live-racer[data-is-bot="0"] .tag-bot')).to_have_count(0)
        expect(first.locator(".tag-no-guess")).to_be_hidden()
        expect(first.locator(".tag-rated")).to_be_hidden()

        # The no-guess race shows its tag and the runner's progress; the quick race is rated.
        no_guess = live.locator(f'[data-game="{tagged["id"]}"]')
        expect(no_guess.locator(".tag-no-guess")).to_be_visible()
        expect(no_guess.locator(".tag-rated")).to_be_hidden()
        runner_row = no_guess.locator(".live-racer", has_text="Runner")
        expect(runner_row).not_to_have_attribute("data-share", "0")
        expect(runner_row.locator(".live-racer-share")).to_have_text(re.compile(r"^\d+%$"))
        quick = live.locator(f'[data-game="{rated["id"]}"]')
        expect(quick.locator(".tag-rated")).to_be_visible()
        # Both racers, in the order the pairing seated them (either seek may be seated first).
        names = quick.locator(".live-racer-name")
        expect(names).to_have_count(2)
        assert sorted(names.all_inner_texts()) == ["Seeker0", "Seeker1"]
        # Its racers never came to the race's page: dimmed, unlike a racer who is there.
        expect(quick.locator('.live-racer[data-online="0"]')).to_have_count(2)
        expect(first.locator('.live-racer[data-online="1"]')).to_have_count(2)
        shoot(page.locator("#live"), "lobby-watch-live.png")

        # One click on the race opens it as a spectator, who is counted.
        no_guess.click()
        page.wait_for_url(f"**/games/{tagged['id']}/?watch=1")
        wait_ready(page)
        expect(page.locator("#connection")).to_have_text("spectating")
        expect(page.locator("body")).to_have_attribute("data-role", "spectator")
        expect(page.locator("body")).to_have_attribute("data-phase", "running")
        wait_until(
            lambda: api(base_url, f"/api/games/{tagged['id']}/")["spectators"] == 1,
            message="the click to make a spectator",
        )
