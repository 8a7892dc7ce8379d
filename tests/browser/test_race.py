"""Races in the browser: two racers and a spectator from the lobby to the results; latecomers
who land in the spectator view and a racer who reloads mid-race; leaving the waiting room."""

import json
import re
import urllib.request

import pytest

from games.engine import Board, bbbv, generate_board, start_cell
from tests.browser.support import (
    JSON_HEADERS,
    board_states,
    cell,
    expect,
    hidden_safe_cells,
    wait_changed,
    wait_ready,
)

pytestmark = pytest.mark.browser

WIDTH, HEIGHT, MINES = 9, 9, 10
SEED = "race-browser"


def api(base_url: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base_url + path, data=data, method="POST" if data else "GET", headers=JSON_HEADERS
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def player_ids(base_url: str, game_id: str) -> dict[str, str]:
    """Player name -> id, from the public state."""
    game = api(base_url, f"/api/games/{game_id}/")
    return {player["name"]: player["id"] for player in game["players"]}


def game_id_of(page) -> str:
    return re.search(r"/games/([A-Za-z0-9_-]+)/", page.url).group(1)


def create_race_in_lobby(page, base_url: str, name: str) -> str:
    """Create a seeded custom race through the lobby's race form; returns its id."""
    page.goto(base_url + "/")
    page.fill("#nickname", name)
    form = page.locator("#race-form")
    form.locator("[name=preset]").select_option("custom")
    form.locator("[name=width]").fill(str(WIDTH))
    form.locator("[name=height]").fill(str(HEIGHT))
    form.locator("[name=mines]").fill(str(MINES))
    form.locator("[name=max_players]").fill("3")
    form.locator("[name=seed]").fill(SEED)
    form.locator("[type=submit]").click()
    page.wait_for_url("**/games/*/")
    wait_ready(page)
    return game_id_of(page)


def cell_states(page, selector: str) -> dict[tuple[int, int], str]:
    """The data-state of every cell the selector finds, by (x, y)."""
    return {
        (x, y): state
        for x, y, state in page.locator(selector).evaluate_all(
            "cells => cells.map(c => [Number(c.dataset.x), Number(c.dataset.y), c.dataset.state])"
        )
    }


def spectated_states(page, player_id: str) -> dict[tuple[int, int], str]:
    return cell_states(page, f'.spectated-board[data-player="{player_id}"] .cell')


def common_states(page) -> dict[tuple[int, int], str]:
    return cell_states(page, ".common-ground .cell")


def progress_width(page, player_id: str) -> float:
    """The width of a racer's progress bar, in percent of its track."""
    bar = page.locator(f'#opponents [data-player="{player_id}"] .progress-bar')
    return float(bar.evaluate("bar => parseFloat(bar.style.width) || 0"))


def reveal(page, x: int, y: int) -> str:
    cell(page, x, y).click()
    return wait_changed(page, x, y, "hidden")


def reveal_every_safe_cell(page, board: Board) -> None:
    while cells := hidden_safe_cells(board, board_states(page)):
        reveal(page, *cells[0])


def record_frames(page) -> list[dict]:
    """Every WebSocket frame the page receives, parsed (register before the page opens)."""
    frames: list[dict] = []

    def on_socket(socket) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


def test_two_racers_and_a_spectator(open_page, base_url):
    alice, bob, watcher = open_page(), open_page(), open_page()
    bob_frames = record_frames(bob)
    start = start_cell(WIDTH, HEIGHT, SEED)
    board = generate_board(WIDTH, HEIGHT, MINES, SEED, start)

    # Alice creates the race in the lobby and lands in its waiting room.
    game_id = create_race_in_lobby(alice, base_url, "Alice")
    page_url = f"{base_url}/games/{game_id}/"
    expect(alice.locator("#race-lobby")).to_be_visible()
    expect(alice.locator("#game-info")).to_have_text(
        "Race · Custom · 9\N{MULTIPLICATION SIGN}9 · 10 mines · unranked"
    )
    expect(alice.locator("#player-count")).to_have_text("1/3")
    expect(alice.locator("#share-link")).to_have_value(page_url)
    expect(alice.locator("#watch-link")).to_have_value(page_url + "?watch=1")
    expect(alice.locator("#opponents")).to_be_hidden()

    # Bob finds it in the lobby's live list and joins.
    bob.goto(base_url + "/")
    bob.fill("#nickname", "Bob")
    listed = bob.locator(f'#open-races [data-game="{game_id}"]')
    expect(listed).to_contain_text("1/3 players · Alice")
    expect(listed).to_contain_text("9\N{MULTIPLICATION SIGN}9 · 10 mines")
    listed.locator(".join").click()
    bob.wait_for_url(page_url)
    wait_ready(bob)
    ids = player_ids(base_url, game_id)
    alice_id, bob_id = ids["Alice"], ids["Bob"]
    expect(alice.locator("#players li")).to_have_count(2)
    expect(alice.locator("#player-count")).to_have_text("2/3")
    expect(bob.locator("#connection")).to_have_text("racing as Bob")

    # The spectator opens the watch link.
    watcher.goto(alice.locator("#watch-link").input_value())
    wait_ready(watcher)
    expect(watcher.locator("#connection")).to_have_text("spectating")
    expect(watcher.locator("#race-lobby")).to_be_visible()
    expect(watcher.locator("#ready-button")).to_be_hidden()
    expect(watcher.locator("#race-note")).to_be_hidden()
    expect(alice.locator("#spectator-count")).to_have_text("1 watching")

    # Both ready: the countdown, then the race; the start cell is marked on every board.
    alice.click("#ready-button")
    expect(bob.locator(f'#players [data-player="{alice_id}"]')).to_have_attribute("data-ready", "1")
    expect(alice.locator("#ready-button")).to_be_disabled()
    bob.click("#ready-button")
    expect(alice.locator("#countdown")).to_be_visible()
    expect(alice.locator("#countdown-number")).to_have_text(re.compile(r"^(1|Go!)$"))
    for page in (alice, bob, watcher):
        expect(page.locator("body")).to_have_attribute("data-phase", "running")
    expect(alice.locator("#countdown")).to_be_hidden()
    expect(alice.locator("#race-lobby")).to_be_hidden()
    for page in (alice, bob):
        expect(page.locator("#board .cell[data-start='1']")).to_have_count(1)
        expect(cell(page, *start)).to_have_attribute("data-start", "1")
    expect(watcher.locator(".spectated-board.common-ground")).to_have_count(1)  # one board
    expect(watcher.locator(".common-racers .racer")).to_have_count(2)  # the racers beside it
    expect(watcher.locator(".common-ground .cell[data-start='1']")).to_have_count(1)
    expect(alice.locator("#timer")).not_to_have_text("000", timeout=3000)

    # Bob opens the start cell and one more; Alice opens the start cell.
    assert reveal(bob, *start) == "0"
    expect(cell(bob, *start)).not_to_have_attribute("data-start", "1")
    reveal(bob, *hidden_safe_cells(board, board_states(bob))[0])
    assert reveal(alice, *start) == "0"
    bob_row = bob.locator(f'#opponents [data-player="{alice_id}"]')
    expect(bob_row).to_have_attribute("data-status", "playing")
    bob.wait_for_function(
        """id => parseFloat(document.querySelector(
            `#opponents [data-player="${id}"] .progress-bar`).style.width) > 0""",
        arg=alice_id,
    )
    first_width = progress_width(bob, alice_id)
    assert 0 < first_width < 100

    # Alice clears the board; Bob sees her bar grow to the end; the spectator sees the common
    # ground: once Alice has won only Bob narrows it, so it is exactly Bob's opened cells.
    reveal_every_safe_cell(alice, board)
    expect(bob_row).to_have_attribute("data-status", "won")
    expect(bob_row.locator(".progress-bar")).to_have_attribute("style", "width: 100%;")
    expect(alice.locator("#face")).to_have_attribute("data-face", "cool")
    alice_states = board_states(alice)
    alice_card = watcher.locator(f'.common-racers .racer[data-player="{alice_id}"]')
    expect(alice_card).to_have_attribute("data-status", "won")
    expect(alice_card.locator(".racer-figures")).to_contain_text(f"3BV {bbbv(board)} ")
    bob_opened = {p: s for p, s in board_states(bob).items() if s.isdigit()}
    assert all(alice_states[p] == s for p, s in bob_opened.items())
    watcher.wait_for_function(
        "n => document.querySelectorAll('.common-ground .cell:not([data-state=\"hidden\"])')"
        ".length === n",
        arg=len(bob_opened),
    )
    assert {p: s for p, s in common_states(watcher).items() if s != "hidden"} == bob_opened

    # A racer's page holds only its own board: no cell of Alice's ever reached Bob's page.
    assert bob.locator(".cell").count() == WIDTH * HEIGHT
    assert bob.locator("#board .cell").count() == WIDTH * HEIGHT
    expect(bob.locator(".spectated-board")).to_have_count(0)
    assert any(f["type"] == "progress" and f["player"] == alice_id for f in bob_frames)
    assert not any(f["type"] == "cells" and f["player"] == alice_id for f in bob_frames)
    welcome = next(f for f in bob_frames if f["type"] == "welcome")
    assert set(welcome["boards"]) == {bob_id}

    # Bob resigns (with a confirmation); the race is over for everyone.
    bob.click("#resign-button")
    expect(bob.locator("#resign-confirm")).to_be_visible()
    bob.click("#resign-yes")
    for page in (alice, bob, watcher):
        table = page.locator("#results-table")
        expect(table).to_be_visible()
        first = table.locator("tbody tr").first
        expect(first).to_have_attribute("data-player", alice_id)
        expect(first).to_have_attribute("data-rank", "1")
        expect(first.locator(".status")).to_have_text("won")
        expect(first.locator("td").nth(3)).to_have_text(re.compile(r"^\d+\.\d{3} s$"))
        second = table.locator(f'tr[data-player="{bob_id}"]')
        expect(second).to_have_attribute("data-rank", "2")
        expect(second.locator(".status")).to_have_text("did not finish")
        expect(page.locator("#seed-check")).to_have_attribute("data-verified", "yes")
        expect(page.locator("#seed-verdict")).to_contain_text("\N{CHECK MARK}")
        expect(page.locator("#race-seed")).to_have_text(SEED)
    expect(alice.locator("#results-title")).to_have_text("You won the race!")
    expect(alice.locator(f'#results-table tr[data-player="{alice_id}"]')).to_have_class("me")
    expect(bob.locator("#results-title")).to_have_text("Alice won the race · you placed #2 of 2")
    expect(watcher.locator("#results-title")).to_have_text("Alice won the race")
    expect(bob.locator("#resign-area")).to_be_hidden()

    # Every mine is shown: flagged on the winner's boards, plain on the others'.
    mines = {board.xy(i) for i in board.mines}
    bob_states = board_states(bob)
    assert {p for p, s in bob_states.items() if s == "mine"} == mines
    assert {p for p, s in board_states(alice).items() if s == "flag"} == mines
    assert {p for p, s in spectated_states(watcher, alice_id).items() if s == "flag"} == mines
    assert {p for p, s in spectated_states(watcher, bob_id).items() if s == "mine"} == mines


def test_latecomers_watch_a_full_or_started_race(open_page, base_url):
    game = api(
        base_url,
        "/api/games/",
        {"mode": "race", "preset": "beginner", "seed": SEED, "max_players": 2},
    )
    url = base_url + game["page"]
    racers = [open_page(), open_page()]
    for racer in racers:
        racer.goto(url)
        wait_ready(racer)
        expect(racer.locator("#ready-button")).to_be_visible()

    # A third player finds the race full: the page watches instead and says why.
    full = open_page()
    full.goto(url)
    wait_ready(full)
    expect(full.locator("#connection")).to_have_text("spectating")
    expect(full.locator("#race-note")).to_have_text("This race is full, so you are watching it.")
    expect(full.locator("#minefield")).to_be_hidden()

    for racer in racers:
        racer.click("#ready-button")
    for racer in racers:
        expect(racer.locator("body")).to_have_attribute("data-phase", "running")
    expect(full.locator(".common-racers .racer")).to_have_count(2)

    # Once started, a newcomer cannot join either: it lands in the spectator view.
    late = open_page()
    late.goto(url)
    wait_ready(late)
    expect(late.locator("#connection")).to_have_text("spectating")
    expect(late.locator("#race-note")).to_have_text(
        "This race has already started, so you are watching it."
    )
    expect(late.locator("#spectator-boards .common-ground")).to_have_count(1)
    expect(late.locator("#spectator-boards .common-racers .racer")).to_have_count(2)
    expect(late.locator("#board .cell")).to_have_count(0)
    expect(late.locator("#spectate-bar")).to_be_visible()
    expect(late.locator("body")).to_have_attribute("data-role", "spectator")
    expect(racers[0].locator("#spectator-count")).to_have_text("2 watching")

    # A racer who reloads mid-race resumes with its board, its clock and its controls.
    racer = racers[0]
    start = start_cell(WIDTH, HEIGHT, SEED)
    reveal(racer, *start)
    before = board_states(racer)
    racer.reload()
    wait_ready(racer)
    expect(racer.locator("#connection")).to_have_text(re.compile("^racing as "))
    expect(racer.locator("body")).to_have_attribute("data-phase", "running")
    assert board_states(racer) == before
    expect(racer.locator("#opponents .racer")).to_have_count(2)
    expect(racer.locator("#resign-button")).to_be_visible()
    expect(racer.locator("#timer")).not_to_have_text("000")
    board = generate_board(WIDTH, HEIGHT, MINES, SEED, start)
    x, y = hidden_safe_cells(board, before)[0]
    assert reveal(racer, x, y) == str(board.numbers[board.index(x, y)])
    # The spectator sees the move's counts, not its cells: the other racer has opened nothing.
    solved = late.locator(".common-racers .racer-figures", has_text=re.compile(r"^3BV [1-9]"))
    expect(solved).to_have_count(1)
    expect(late.locator(f'.common-ground .cell[data-x="{x}"][data-y="{y}"]')).to_have_attribute(
        "data-state", "hidden"
    )


def test_leave_the_waiting_room_and_copy_the_links(open_page, base_url):
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "intermediate"})
    url = base_url + game["page"]
    host = open_page(permissions=["clipboard-read", "clipboard-write"])
    guest = open_page()
    for page in (host, guest):
        page.goto(url)
        wait_ready(page)
    expect(host.locator("#players li")).to_have_count(2)

    # The copy buttons put the links on the clipboard.
    host.click("[data-copy='share-link']")
    expect(host.locator("[data-copy='share-link']")).to_have_text("Copied \N{CHECK MARK}")
    assert host.evaluate("navigator.clipboard.readText()") == url
    host.click("[data-copy='watch-link']")
    assert host.evaluate("navigator.clipboard.readText()") == url + "?watch=1"

    # Leaving frees the place and goes back to the lobby, where the race is listed.
    guest.click("#leave-button")
    guest.wait_for_url(base_url + "/")
    expect(host.locator("#players li")).to_have_count(1)
    expect(host.locator("#player-count")).to_have_text("1/8")
    listed = guest.locator(f'#open-races [data-game="{game["id"]}"]')
    expect(listed).to_contain_text("1/8 players")
    # Coming back joins afresh (the old resume token is forgotten).
    listed.locator(".join").click()
    wait_ready(guest)
    expect(guest.locator("#ready-button")).to_be_visible()
    expect(host.locator("#players li")).to_have_count(2)
