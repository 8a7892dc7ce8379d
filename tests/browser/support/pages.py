"""Scenarios for the leaderboards, player and replay pages, shared by test_pages.py and
pages_shots.py: a ranked solo win in the browser, and a race played over the WebSocket.

A ranked game's seed is secret until the end, so the win reads it from the test server's
SQLite file once the first click has generated the board (the server's own secret, read only
to play perfectly; the pages under test never see it).
"""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from websockets.sync.client import connect

from games.engine import Board, generate_board, start_cell
from tests.browser.support import JSON_HEADERS, cell, click_until_won, wait_changed, wait_ready

State = dict[tuple[int, int], str]
STATE_OF_WIRE = {"F": "flag", "H": "hidden", "X": "exploded"}
REPLAY_STATES_JS = """(player) => [...document.querySelectorAll(
        `#replay-boards .replay-board[data-player="${player}"] .cell`)]
    .map(cell => [Number(cell.dataset.x), Number(cell.dataset.y), cell.dataset.state])"""


def api(base_url: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base_url + path, data=data, method="POST" if data else "GET", headers=JSON_HEADERS
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def secret_board(database: Path, game_id: str) -> Board:
    """The board of a started game, from its seed and safe cell in the server's database."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        row = connection.execute(
            "SELECT width, height, mines, seed, safe_x, safe_y FROM games_game WHERE id = ?",
            (game_id,),
        ).fetchone()
    width, height, mines, seed, safe_x, safe_y = row
    return generate_board(width, height, mines, seed, (safe_x, safe_y))


def play_ranked_win(page, base_url: str, database: Path, name: str) -> dict:
    """Win a ranked beginner game in the browser as `name`; return its finished public state."""
    page.add_init_script(f"localStorage.setItem('minerace.nickname', {json.dumps(name)})")
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": "beginner"})
    assert game["ranked"]
    page.goto(base_url + game["page"])
    wait_ready(page)
    cell(page, 4, 4).click()
    wait_changed(page, 4, 4, "hidden")
    click_until_won(page, secret_board(database, game["id"]))
    return api(base_url, f"/api/games/{game['id']}/")


def replay_states(page, player_id: str) -> State:
    return {(x, y): state for x, y, state in page.evaluate(REPLAY_STATES_JS, player_id)}


def open_replay(page, base_url: str, game_id: str) -> None:
    page.goto(f"{base_url}/games/{game_id}/replay/")
    wait_ready(page)


# ---- a race over the WebSocket ----------------------------------------------------------------


class Racer:
    """One racer's WebSocket, keeping what the server told it of its own board."""

    def __init__(self, stack: ExitStack, base_url: str, game_id: str, name: str) -> None:
        url = base_url.replace("http", "ws", 1) + f"/ws/games/{game_id}/"
        self.socket = stack.enter_context(connect(url, origin=base_url, proxy=None))
        self.next_id = 0
        self.known: State = {}
        self.id = self.request({"type": "hello", "role": "player", "name": name}, "welcome")["you"]

    def send(self, frame: dict) -> int:
        self.next_id += 1
        self.socket.send(json.dumps({**frame, "id": self.next_id}))
        return self.next_id

    def wait_for(self, kind: str, re: int | None = None, timeout: float = 10) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            frame = json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
            assert frame["type"] != "error", frame
            if frame["type"] == "cells" and frame["player"] == self.id:
                for x, y, value in frame["cells"]:
                    self.known[(x, y)] = STATE_OF_WIRE.get(value, str(value))
            if frame["type"] == kind and (re is None or frame.get("re") == re):
                return frame

    def request(self, frame: dict, answer: str) -> dict:
        return self.wait_for(answer, self.send(frame))

    def reveal(self, x: int, y: int) -> dict:
        return self.request({"type": "reveal", "x": x, "y": y}, "cells")


def hidden_safe(board: Board, known: State) -> list[tuple[int, int]]:
    return [
        board.xy(index)
        for index in range(board.width * board.height)
        if not board.is_mine(index) and board.xy(index) not in known
    ]


def play_race(base_url: str, seed: str, pause: float = 0.06) -> dict:
    """A 9x9 race of two: "winner" clears the board one cell at a time; "loser" opens a cell
    or two, then steps on a mine before the winner is done. Returns the game's public state
    plus "known": what each racer's board showed at its end (player id -> State)."""
    width, height, mines = 9, 9, 10
    game = api(
        base_url,
        "/api/games/",
        {"mode": "race", "width": width, "height": height, "mines": mines, "seed": seed},
    )
    with ExitStack() as stack:
        winner = Racer(stack, base_url, game["id"], "winner")
        loser = Racer(stack, base_url, game["id"], "loser")
        for racer in (winner, loser):
            racer.request({"type": "ready"}, "ready")
        for racer in (winner, loser):
            racer.wait_for("started")
        start = start_cell(width, height, seed)
        board = generate_board(width, height, mines, seed, start)
        winner.reveal(*start)
        time.sleep(pause)  # moves apart in time, as the replay and its timeline show them
        loser.reveal(*start)
        cells = hidden_safe(board, winner.known)
        assert len(cells) >= 6, "pick a seed with a smaller opening"
        for step, (x, y) in enumerate(cells):
            time.sleep(pause)
            if (x, y) not in winner.known:
                winner.reveal(x, y)
            if step == 1:
                loser.reveal(*hidden_safe(board, loser.known)[0])
            if step == len(cells) - 3:
                mine = next(board.xy(i) for i in sorted(board.mines))
                assert loser.reveal(*mine)["status"] == "lost"
        winner.wait_for("game_over")
    state = api(base_url, f"/api/games/{game['id']}/")
    state["known"] = {winner.id: winner.known, loser.id: loser.known}
    return state


def final_view(
    known: State, mine_cells: list[list[int]], won: bool, size: tuple[int, int]
) -> State:
    """A board as the game page shows it at the end (board-view.js showMines)."""
    mines = {tuple(mine) for mine in mine_cells}
    view: State = {}
    for y in range(size[1]):
        for x in range(size[0]):
            state = known.get((x, y), "hidden")
            if state == "hidden" and (x, y) in mines:
                state = "flag" if won else "mine"
            elif state == "flag" and (x, y) not in mines:
                state = "wrongflag"
            view[(x, y)] = state
    return view


def win_as_account(
    base_url: str, database: Path, session: str, preset: str, pause_s: float = 0
) -> str:
    """A ranked solo win of the account whose session this is, over the WebSocket, without a
    flag (the seed read from the server's database once the first reveal made the board),
    `pause_s` between its moves."""
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": preset})
    url = base_url.replace("http", "ws", 1) + f"/ws/games/{game['id']}/"
    headers = {"Cookie": f"sessionid={session}"}
    with connect(url, origin=base_url, additional_headers=headers, proxy=None) as socket:
        sent = 0

        def request(frame: dict) -> dict:
            nonlocal sent
            sent += 1
            socket.send(json.dumps({**frame, "id": sent}))
            while True:
                answer = json.loads(socket.recv(timeout=10))
                if answer.get("re") == sent:
                    assert answer["type"] != "error", answer
                    return answer

        request({"type": "hello", "role": "player"})
        first = (game["width"] // 2, game["height"] // 2)
        opened = {
            (x, y) for x, y, _ in request({"type": "reveal", "x": first[0], "y": first[1]})["cells"]
        }
        board = secret_board(database, game["id"])
        for index in range(board.size):
            cell = board.xy(index)
            if board.is_mine(index) or cell in opened:
                continue
            time.sleep(pause_s)
            answer = request({"type": "reveal", "x": cell[0], "y": cell[1]})
            opened |= {(x, y) for x, y, _ in answer["cells"]}
            if answer["status"] != "playing":
                assert answer["status"] == "won"
                break
    return game["id"]
