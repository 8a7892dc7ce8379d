"""Helpers for the daily challenge's browser tests (test_daily.py): a run's board from the test
server's database (its secret, read only to play perfectly), runs played over the WebSocket as
a logged-in page's account, and midnight brought forward as tests/daily's `end_the_day` does.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import closing
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from websockets.sync.client import connect

from games.engine import Board, generate_board
from games.engine.noguess import board_seed
from tests.browser.support import wait_ready

STATE_OF_WIRE = {"F": "flag", "H": "hidden", "X": "exploded"}


def today() -> date:
    return datetime.now(UTC).date()


def sql_moment(moment: datetime) -> str:
    """A UTC moment as Django stores it in SQLite."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def run_board(database: Path, game_id: str) -> Board:
    """The board of a daily run: the day's seed, its ng1 attempt and the public start cell."""
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as connection:
        row = connection.execute(
            "SELECT width, height, mines, seed, ng_attempt, safe_x, safe_y FROM games_game"
            " WHERE id = ?",
            (game_id,),
        ).fetchone()
    width, height, mines, seed, ng_attempt, safe_x, safe_y = row
    return generate_board(width, height, mines, board_seed(seed, ng_attempt), (safe_x, safe_y))


def run_row(database: Path, game_id: str) -> tuple[bool, int | None]:
    """(counted, user id) of the daily run that is game `game_id`."""
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as connection:
        counted, user = connection.execute(
            "SELECT counted, user_id FROM daily_dailyrun WHERE game_id = ?", (game_id,)
        ).fetchone()
    return bool(counted), user


def establish(database: Path, name: str) -> None:
    """Make a new account one whose first daily run counts (docs/protocol.md 6.2): made two days
    ago, with 5 rated races behind it (a rating row that says so, on a board nobody reads)."""
    joined = sql_moment(datetime.now(UTC) - timedelta(days=2))
    with closing(sqlite3.connect(database, timeout=30)) as connection, connection:
        connection.execute(
            "UPDATE auth_user SET date_joined = ? WHERE username = ?", (joined, name)
        )
        connection.execute(
            "INSERT INTO ratings_rating (user_id, preset, variant, mu, sigma, display, games,"
            " updated_at) SELECT id, 'expert', 'classic', 25.0, 8.3, 1000, 5, ? FROM auth_user"
            " WHERE username = ?",
            (joined, name),
        )


def end_the_day(database: Path) -> date:
    """Move today's boards and their runs into yesterday, as midnight would; return it."""
    yesterday = today() - timedelta(days=1)
    day_end = datetime.combine(today(), datetime.min.time(), tzinfo=UTC)
    with closing(sqlite3.connect(database, timeout=30)) as connection, connection:
        games = "SELECT game_id FROM daily_dailyrun WHERE challenge_id IN " \
            "(SELECT id FROM daily_dailychallenge WHERE day = ?)"  # fmt: skip
        connection.execute(
            f"UPDATE games_game SET secrets_at = ? WHERE id IN ({games})",
            (sql_moment(day_end), today().isoformat()),
        )
        connection.execute(
            f"UPDATE games_player SET finished_at = ? WHERE finished_at IS NOT NULL"
            f" AND game_id IN ({games})",
            (sql_moment(day_end - timedelta(hours=1)), today().isoformat()),
        )
        connection.execute(
            "UPDATE daily_dailychallenge SET day = ? WHERE day = ?",
            (yesterday.isoformat(), today().isoformat()),
        )
    return yesterday


def shoot(page, name: str) -> None:
    """A full-page screenshot for a human, when MINERACE_SHOTS names a folder (/tmp/shots14)."""
    folder = os.environ.get("MINERACE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def open_daily(page, base_url: str, path: str = "/daily/") -> None:
    page.goto(base_url + path)
    wait_ready(page)


def start_run(page, base_url: str, preset: str) -> dict:
    """POST /api/daily/<preset>/ as the page's browser (its account, if logged in)."""
    answer = page.request.post(
        f"{base_url}/api/daily/{preset}/", data="{}", headers={"Content-Type": "application/json"}
    )
    assert answer.status == 201, answer.text()
    return answer.json()


def play_run(base_url: str, page, game: dict, board: Board, win: bool = True) -> str:
    """Play a run over the WebSocket as the page's account: its start cell, then every safe
    cell still hidden (or, to lose, a mine); return the player's final status."""
    cookies = page.context.cookies(base_url)
    headers = {"Cookie": "; ".join(f"{c['name']}={c['value']}" for c in cookies)}
    url = base_url.replace("http", "ws", 1) + game["ws"]
    known: dict[tuple[int, int], str] = {}
    with connect(url, origin=base_url, proxy=None, additional_headers=headers) as socket:
        frame_id = 0

        def request(frame: dict, answer: str) -> dict:
            nonlocal frame_id
            frame_id += 1
            socket.send(json.dumps({**frame, "id": frame_id}))
            deadline = time.monotonic() + 10
            while True:
                reply = json.loads(socket.recv(timeout=max(0.01, deadline - time.monotonic())))
                assert reply["type"] != "error", reply
                if reply["type"] == "cells":
                    for x, y, value in reply["cells"]:
                        known[(x, y)] = STATE_OF_WIRE.get(value, str(value))
                if reply["type"] == answer and reply.get("re") == frame_id:
                    return reply

        request({"type": "hello", "role": "player"}, "welcome")
        status = request({"type": "reveal", "x": game["start"][0], "y": game["start"][1]},
                         "cells")["status"]  # fmt: skip
        if not win:
            mine = board.xy(min(board.mines))
            return request({"type": "reveal", "x": mine[0], "y": mine[1]}, "cells")["status"]
        for index in range(board.width * board.height):
            if status != "playing":
                break
            xy = board.xy(index)
            if not board.is_mine(index) and xy not in known:
                status = request({"type": "reveal", "x": xy[0], "y": xy[1]}, "cells")["status"]
    return status
