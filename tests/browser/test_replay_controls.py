"""The replay step by step, up to 16x, and links to a moment (issue 14.7): each step shows the
boards exactly as the server's own engine has them after that many moves of the log, with the
move named and its cell outlined; `#m=` and `?t=` open a moment and "Copy link to this moment"
makes one; each player's game exports as an EVF file."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.browser.support import expect, wait_ready
from tests.browser.support.pages import api, open_replay, play_race
from tests.browser.support.race import shoot
from tests.browser.support.screens import replay_states, replayed, seconds

pytestmark = pytest.mark.browser

SEED = "replay-steps"
FRAME_MS = 17  # an animation frame of Playwright's clock (60 per second), rounded up
ACTION_WORDS = {"reveal": "reveals", "flag": "flags", "chord": "chords"}


@pytest.fixture(scope="module")
def race(base_url) -> dict:
    """A finished race of two, its public state with "moves": the log, in the server's order."""
    state = play_race(base_url, SEED)
    state["moves"] = api(base_url, f"/api/games/{state['id']}/moves/")["moves"]
    return state


def names(race: dict) -> dict[str, str]:
    return {player["id"]: player["name"] for player in race["players"]}


def assert_at_move(page, race: dict, count: int) -> None:
    """The page shows the boards after the log's first `count` moves, and says which move."""
    moves = race["moves"]
    expect(page.locator("#replay")).to_have_attribute("data-move", str(count))
    for player, states in replayed(race, moves, count).items():
        assert replay_states(page, player) == states, (player, count)
    outlined = page.locator(".replay-board .cell[data-last-move='1']")
    if count == 0:
        expect(page.locator("#step-info")).to_have_text(
            f"Move 0 of {len(moves)}: before the first move"
        )
        expect(outlined).to_have_count(0)
        return
    move = moves[count - 1]
    name = names(race)[move["player"]]
    where = f"column {move['x'] + 1}, row {move['y'] + 1}"
    expect(page.locator("#step-info")).to_have_text(
        f"Move {count} of {len(moves)}: {name} {ACTION_WORDS[move['action']]} {where}"
        f" at {seconds(move['t_ms'])}"
    )
    board = page.locator(f'.replay-board[data-player="{move["player"]}"]')
    expect(board.locator(".cell[data-last-move='1']")).to_have_attribute("data-x", str(move["x"]))
    expect(outlined).to_have_count(1)
    expect(outlined).to_have_attribute("data-y", str(move["y"]))


def test_step_move_by_move_with_buttons_and_arrows(page, base_url, race):
    moves = race["moves"]
    assert len(moves) > 10
    open_replay(page, base_url, race["id"])
    assert_at_move(page, race, 0)
    expect(page.locator("#step-back")).to_be_disabled()

    # The right arrow steps forward one move of the log at a time, whoever made it.
    page.locator("#play-button").focus()
    for count in range(1, 6):
        page.keyboard.press("ArrowRight")
        assert_at_move(page, race, count)
    # The buttons too; the left arrow and "← Move" go back.
    page.click("#step-forward")
    assert_at_move(page, race, 6)
    page.keyboard.press("ArrowLeft")
    assert_at_move(page, race, 5)
    page.click("#step-back")
    assert_at_move(page, race, 4)
    # On the time slider the arrows step by moves as well, not by a millisecond.
    page.locator("#scrubber").focus()
    page.keyboard.press("ArrowRight")
    assert_at_move(page, race, 5)
    expect(page.locator("#replay")).to_have_attribute("data-time", str(moves[4]["t_ms"]))
    expect(page.locator("#replay-time")).to_have_text(seconds(moves[4]["t_ms"]))
    shoot(page, "replay-step.png")

    # Stepping while playing pauses; the last step reaches the end, checked as ever.
    page.click("#play-button")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#play-button")).to_have_attribute("aria-pressed", "false")
    for _ in range(len(moves)):
        if page.locator("#step-forward").is_disabled():
            break
        page.click("#step-forward")
    expect(page.locator("#replay")).to_have_attribute("data-move", str(len(moves)))
    expect(page.locator("#replay")).to_have_attribute("data-at-end", "")
    expect(page.locator("#replay")).to_have_attribute("data-verified", "1")
    expect(page.locator("#step-forward")).to_be_disabled()


def test_speeds_up_to_16x(page, base_url, race):
    # The page's clock is the test's (its animation frames too): how long playing takes is
    # counted on it, not on a loaded machine's wall clock, which made the bounds a matter of
    # luck (a second of Playwright's round trips against a replay of a few seconds).
    page.clock.install()
    open_replay(page, base_url, race["id"])
    options = page.locator("#speed option").evaluate_all("options => options.map(o => o.value)")
    assert options == ["0.5", "1", "2", "4", "8", "16"]
    duration_ms = int(page.locator("#scrubber").get_attribute("max"))
    assert duration_ms > 1500
    page.select_option("#speed", "16")
    page.clock.pause_at(datetime.now(UTC) + timedelta(hours=1))
    page.click("#play-button")
    expect(page.locator("#replay")).to_have_attribute("data-playing", "")
    # 16 times faster than the game went: not at the end before a sixteenth of its time, at
    # the end a sixteenth later (and the first frame, which only starts the count).
    page.clock.run_for(int(duration_ms / 16 * 0.9))
    assert page.locator("#replay").get_attribute("data-at-end") is None
    page.clock.run_for(int(duration_ms / 16 * 0.1) + 2 * FRAME_MS)
    expect(page.locator("#replay")).to_have_attribute("data-at-end", "")
    expect(page.locator("#replay")).to_have_attribute("data-verified", "1")


def test_a_link_opens_a_moment_and_one_is_copied(open_page, base_url, race):
    moves = race["moves"]
    page = open_page(permissions=["clipboard-read", "clipboard-write"])

    # #m=: after that move of the log.
    page.goto(f"{base_url}/games/{race['id']}/replay/#m=7")
    wait_ready(page)
    assert_at_move(page, race, 7)

    # ?t=: the moves made before that moment.
    moment = moves[9]["t_ms"] + 1
    page.goto(f"{base_url}/games/{race['id']}/replay/?t={moment}")
    wait_ready(page)
    expect(page.locator("#replay")).to_have_attribute("data-time", str(moment))
    before = sum(1 for move in moves if move["t_ms"] < moment)
    expect(page.locator("#replay")).to_have_attribute("data-move", str(before))
    for player, states in replayed(race, moves, before).items():
        assert replay_states(page, player) == states

    # Step to a move, copy its link, and open that link afresh.
    page.keyboard.press("ArrowRight")
    page.click("#copy-moment")
    expect(page.locator("#copy-moment")).to_have_text("Link copied \N{CHECK MARK}")
    link = page.locator("#moment-link").input_value()
    assert link == f"{base_url}/games/{race['id']}/replay/#m={before + 1}"
    assert page.evaluate("navigator.clipboard.readText()") == link
    other = open_page()
    other.goto(link)
    wait_ready(other)
    assert_at_move(other, race, before + 1)

    # A moment in time gives a ?t= link.
    page.locator("#scrubber").fill(str(moment + 5))
    page.click("#copy-moment")
    expect(page.locator("#moment-link")).to_have_value(
        f"{base_url}/games/{race['id']}/replay/?t={moment + 5}"
    )
    # Changing the hash moves the open page there.
    page.evaluate("location.hash = 'm=3'")
    assert_at_move(page, race, 3)


def test_each_players_game_exports(page, base_url, race):
    open_replay(page, base_url, race["id"])
    for player in race["players"]:
        link = page.locator(f'.replay-board[data-player="{player["id"]}"] .replay-export')
        href = f"/api/games/{race['id']}/export/?player={player['id']}&format=evf"
        expect(link).to_have_attribute("href", href)
        expect(link).to_have_attribute("download", "")
        answer = page.request.get(base_url + href)
        assert answer.status == 200
        assert answer.headers["content-disposition"].startswith("attachment;")
        assert len(answer.body()) > 100
