"""The page keeps in step with the server when the event stream is not whole: a move whose
`seq` skips one makes it say hello again (and the welcome is the truth), and a move it already
has is dropped (the server's outbox may publish one twice). The socket runs through Playwright,
which forwards every frame and lets the test slip in one the server never sent."""

import json
import re

import pytest

from games.engine import generate_board
from tests.browser.support import (
    board_states,
    cell,
    expect,
    hidden_safe_cells,
    page_sleep,
    start_custom_game,
    wait_changed,
)
from tests.support.waiting import wait_until

pytestmark = pytest.mark.browser

SEED = "browser-resync"


class Tap:
    """Every socket of the page, through the test: hellos sent, frames received."""

    def __init__(self, page) -> None:
        self.routes = []
        self.hellos: list[dict] = []
        self.received: list[dict] = []
        page.route_web_socket(re.compile(r"/ws/games/"), self.route)

    def route(self, route) -> None:
        server = route.connect_to_server()

        def to_server(message) -> None:
            frame = json.loads(message)
            if frame.get("type") == "hello":
                self.hellos.append(frame)
            server.send(message)

        def to_page(message) -> None:
            self.received.append(json.loads(message))
            route.send(message)

        route.on_message(to_server)
        server.on_message(to_page)
        self.routes.append(route)

    def inject(self, frame: dict) -> None:
        self.routes[-1].send(json.dumps(frame))

    def last(self, kind: str) -> dict:
        return [f for f in self.received if f["type"] == kind][-1]


def play_two_moves(page, base_url, tap):
    """A 9x9 game: the opening at (4, 4), then a flag. Returns (board, the flagged cell)."""
    start_custom_game(page, base_url, 9, 9, 10, SEED)
    cell(page, 4, 4).click()
    wait_changed(page, 4, 4, "hidden")
    board = generate_board(9, 9, 10, SEED, (4, 4))
    flagged = hidden_safe_cells(board, board_states(page))[0]
    cell(page, *flagged).click(button="right")
    wait_changed(page, *flagged, "hidden")
    assert tap.last("cells")["seq"] == 2
    return board, flagged


def fake_move(tap, seq: int, x: int, y: int) -> dict:
    """A `cells` frame for this page's player that says (x, y) was flagged."""
    you = tap.last("welcome")["you"]
    return {"type": "cells", "player": you, "seq": seq, "action": "flag", "x": x, "y": y,
            "cells": [[x, y, "F"]], "status": "playing",
            "progress": {"revealed": 0, "safe_cells": 71, "flags": 2, "clicks": seq}}  # fmt: skip


def test_a_move_it_already_has_is_dropped(page, base_url):
    tap = Tap(page)
    board, _ = play_two_moves(page, base_url, tap)
    before = board_states(page)
    x, y = hidden_safe_cells(board, before)[0]
    tap.inject(fake_move(tap, 2, x, y))  # seq 2 again: a repeat
    # A real move after it: once its answer is drawn, the repeat before it has been handled.
    z = hidden_safe_cells(board, before)[1]
    cell(page, *z).click(button="right")
    wait_changed(page, *z, "hidden")
    after = board_states(page)
    assert after[(x, y)] == "hidden"  # the repeat's cell was not drawn
    assert len(tap.hellos) == 1  # and it was no reason to re-sync


def test_a_missing_move_makes_the_page_say_hello_again(page, base_url):
    tap = Tap(page)
    board, flagged = play_two_moves(page, base_url, tap)
    x, y = hidden_safe_cells(board, board_states(page))[0]
    tap.inject(fake_move(tap, 4, x, y))  # seq 3 never came
    wait_until(
        lambda: len([f for f in tap.received if f["type"] == "welcome"]) == 2,
        message="a second welcome",
        sleep=page_sleep(page),
    )
    assert len(tap.hellos) == 2
    assert tap.hellos[1]["token"] and tap.hellos[1]["role"] == "player"  # resumes, not a join
    expect(cell(page, *flagged)).to_have_attribute("data-state", "flag")
    assert board_states(page)[(x, y)] == "hidden"  # the welcome, not the skipping frame, rules
