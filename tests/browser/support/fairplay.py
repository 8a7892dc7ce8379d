"""Helpers for the fair-play browser tests: a program that plays as an account over the real
server (so the server's own screen flags it), a moderator, and a refund in a rating history.

No page makes a moderator, and a refund needs rated races behind it: those are made on the
test server's database by tests/browser/support/fairplay_setup.py, through the ORM and the services.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from websockets.sync.client import connect

from tests.browser.support import REPO_ROOT
from tests.browser.support.pages import api, secret_board


def cookie_header(page, base_url: str) -> str:
    return "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies(base_url))


class Program:
    """A WebSocket client that plays as the account logged in on `page`, as fast as the
    server answers: what the fair-play screen is there to catch."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.next_id = 0

    def request(self, frame: dict, answer: str) -> dict:
        self.next_id += 1
        self.socket.send(json.dumps({**frame, "id": self.next_id}))
        while True:
            reply = json.loads(self.socket.recv(timeout=10))
            assert reply["type"] != "error", reply
            if reply["type"] == answer and reply.get("re") == self.next_id:
                return reply


def play_as_program(page, base_url: str, database: Path, preset: str = "intermediate") -> str:
    """Win a ranked game on `preset` as the page's account, every safe cell revealed one by one
    the moment the last answer came; returns the game's id."""
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": preset})
    assert game["ranked"]
    url = base_url.replace("http", "ws", 1) + game["ws"]
    headers = {"Cookie": cookie_header(page, base_url)}
    with connect(url, origin=base_url, proxy=None, additional_headers=headers) as socket:
        program = Program(socket)
        welcome = program.request({"type": "hello", "role": "player"}, "welcome")
        assert welcome["you"] is not None
        middle = (game["width"] // 2, game["height"] // 2)
        opened = program.request({"type": "reveal", "x": middle[0], "y": middle[1]}, "cells")
        known = {(x, y) for x, y, _ in opened["cells"]}
        board = secret_board(database, game["id"])
        for index in range(board.width * board.height):
            cell = board.xy(index)
            if board.is_mine(index) or cell in known:
                continue
            answer = program.request({"type": "reveal", "x": cell[0], "y": cell[1]}, "cells")
            known |= {(x, y) for x, y, _ in answer["cells"]}
            if answer["status"] != "playing":
                assert answer["status"] == "won", answer
                break
    return game["id"]


def on_server(database: Path, *command: str) -> None:
    """Run a setup command of tests/browser/support/fairplay_setup.py on the test server's database
    (through the ORM, so the rows are what the code writes)."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}",
           "DJANGO_SETTINGS_MODULE": "config.settings"}  # fmt: skip
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "-m", "tests.browser.support.fairplay_setup", *command],
        cwd=REPO_ROOT, env=env, check=True, capture_output=True, timeout=60,
    )  # fmt: skip


def make_moderator(database: Path, username: str) -> None:
    """The account becomes staff holding games.review_game (docs/protocol.md 6.4)."""
    on_server(database, "moderator", username)


def lose_to_a_marked_cheater(database: Path, username: str, cheater: str) -> None:
    """The account won a rated race, then lost one to `cheater`, which is then marked."""
    on_server(database, "refunded", username, cheater)
