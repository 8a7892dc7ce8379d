"""Helpers for the end-screen, names, replay and error-page tests (issue 14.3, 14.4, 14.7, 14.9):
the frames a page receives, the figures as the end screens write them, ranked games played with
the server's secret board, a replay's expected boards from the engine, a watch for policy
violations, and Django's own 404 and 500 pages rendered with DEBUG off.
"""

from __future__ import annotations

import json
import math
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from games.engine import Board, CellState, Sweep, generate_board, move_from_action, start_cell
from tests.browser.support import board_states, cell, wait_changed

DASH = "\N{EN DASH}"
State = dict[tuple[int, int], str]

# Runs in every watched page before its own scripts: each violation goes to the test at once.
REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (event) => {
    window.reportViolation({page: document.location.pathname, directive: event.effectiveDirective,
        blocked: event.blockedURI, sample: event.sample});
});"""


# ---- what a page receives and shows ------------------------------------------------------------


def record_frames(page) -> list[dict]:
    """Every WebSocket frame the page receives, parsed (register before the page opens)."""
    frames: list[dict] = []

    def on_socket(socket) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


def frame_of(frames: list[dict], kind: str) -> dict:
    return next(frame for frame in frames if frame["type"] == kind)


def watch_policy(page, problems: list[str]) -> None:
    """Note every CSP violation and console message of `page` in `problems` (the document's own
    404 or 500, which Chromium notes in the console, excepted)."""
    page.expose_function("reportViolation", lambda v: problems.append(f"violation: {v}"))
    page.add_init_script(REPORT_VIOLATIONS)

    def note(message) -> None:
        if "the server responded with a status of" in message.text:
            return
        problems.append(f"console {message.type}: {message.text}")

    page.on("console", note)


# ---- the figures as stats-format.js writes them -----------------------------------------------


def seconds(ms: int | None) -> str:
    return DASH if ms is None else f"{ms / 1000:.3f} s"


def fixed(value: float | None, digits: int) -> str:
    return DASH if value is None else f"{value:.{digits}f}"


def percent(ratio: float | None) -> str:
    """A whole percentage, rounded half up as Math.round does."""
    return DASH if ratio is None else f"{math.floor(ratio * 100 + 0.5)} %"


def estimate(ms: int) -> str:
    """An estimate as precise as one is: whole seconds from 10 s, tenths below (half up)."""
    if ms >= 10_000:
        return f"\N{ALMOST EQUAL TO} {(ms + 500) // 1000} s"
    return f"\N{ALMOST EQUAL TO} {(ms + 50) // 100 / 10:.1f} s"


def time_text(result: dict) -> str:
    """A win's time, a loss's estimated time ("≈ 46 s", "≈ 4.6 s"), or a dash."""
    if result["time_ms"] is not None:
        return seconds(result["time_ms"])
    if result["est_time_ms"] is not None:
        return estimate(result["est_time_ms"])
    return DASH


def bbbv_text(result: dict) -> str:
    if result["status"] == "won":
        return str(result["bbbv"])
    return f"{result['bbbv_solved']}/{result['bbbv']}"


def click_kinds(result: dict, short: bool = False) -> str:
    kinds = [
        (result["left_clicks"], "left"),
        (result["right_clicks"], "right"),
        (result["chord_clicks"], "chord"),
    ]
    return " · ".join(str(n) if short else f"{n} {word}" for n, word in kinds)


# ---- ranked games, played with the server's secret board ---------------------------------------


def _game_row(database: Path, game_id: str) -> tuple:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        return connection.execute(
            "SELECT width, height, mines, seed, safe_x, safe_y FROM games_game WHERE id = ?",
            (game_id,),
        ).fetchone()


def race_board(database: Path, game_id: str) -> tuple[Board, tuple[int, int]]:
    """A classic race's board and start cell: from its secret seed (the start is the seed's)."""
    width, height, mines, seed, _, _ = _game_row(database, game_id)
    start = start_cell(width, height, seed)
    return generate_board(width, height, mines, seed, start), start


def solo_board(database: Path, game_id: str) -> Board:
    """A solo game's board, once its first reveal made it (the safe cell is that reveal's)."""
    width, height, mines, seed, safe_x, safe_y = _game_row(database, game_id)
    return generate_board(width, height, mines, seed, (safe_x, safe_y))


def reveal(page, x: int, y: int) -> str:
    cell(page, x, y).click()
    return wait_changed(page, x, y, "hidden")


def flag_and_chord(page, board: Board) -> tuple[int, int]:
    """Flag every mine around a revealed number that has hidden safe cells beside it, then
    chord it; returns the number's cell. A right click and a chord for the statistics."""
    states = board_states(page)
    for (x, y), state in sorted(states.items()):
        if not state.isdigit() or state == "0":
            continue
        around = [board.xy(n) for n in board.neighbours[board.index(x, y)]]
        mines = [p for p in around if board.is_mine(board.index(*p))]
        opened = [p for p in around if states[p] == "hidden" and p not in mines]
        if opened and all(states[p] == "hidden" for p in mines):
            for mine in mines:
                cell(page, *mine).click(button="right")
                assert wait_changed(page, *mine, "hidden") == "flag"
            cell(page, x, y).click()
            for p in opened:
                wait_changed(page, *p, "hidden")
            return x, y
    raise AssertionError("no number to chord on this board: pick another seed")


def reveal_every_safe_cell(page, board: Board) -> int:
    """Left-click every safe cell still hidden until none is; return the clicks."""
    clicks = 0
    while cells := hidden_safe(board, board_states(page)):
        reveal(page, *cells[0])
        clicks += 1
    return clicks


def hidden_safe(board: Board, states: State) -> list[tuple[int, int]]:
    return sorted(
        board.xy(i)
        for i in range(board.width * board.height)
        if not board.is_mine(i) and states[board.xy(i)] == "hidden"
    )


# ---- replays ------------------------------------------------------------------------------------

DOM_STATE = {CellState.HIDDEN: "hidden", CellState.FLAGGED: "flag", CellState.EXPLODED: "exploded"}


def replayed(game: dict, moves: list[dict], count: int) -> dict[str, State]:
    """Each player's board after the log's first `count` moves, as the replay page draws it
    mid-game (player id -> cell -> data-state), by the server's own engine."""
    width, height = game["width"], game["height"]
    board = Board(width, height, [y * width + x for x, y in game["mine_cells"]])
    sweeps = {p["id"]: Sweep(width, height, board.mine_count, board) for p in game["players"]}
    for move in moves[:count]:
        sweeps[move["player"]].apply(move_from_action(move["action"], move["x"], move["y"]))
    return {
        player: {
            board.xy(i): (
                str(board.numbers[i]) if state == CellState.REVEALED else DOM_STATE[state]
            )
            for i, state in enumerate(sweep.state)
        }
        for player, sweep in sweeps.items()
    }


REPLAY_STATES_JS = """(player) => [...document.querySelectorAll(
        `#replay-boards .replay-board[data-player="${player}"] .cell`)]
    .map(cell => [Number(cell.dataset.x), Number(cell.dataset.y), cell.dataset.state])"""


def replay_states(page, player_id: str) -> State:
    return {(x, y): state for x, y, state in page.evaluate(REPLAY_STATES_JS, player_id)}


# ---- Django's own error pages -------------------------------------------------------------------


def _broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a failure on purpose: the 500 page's test")


# The site's URLs (the error pages link to them by name) and a view that fails.
urlpatterns = [path("broken/", _broken), path("", include("config.urls"))]


def _render_error_pages() -> dict[str, tuple[int, dict[str, str], bytes]]:
    from django.test import Client, override_settings

    with override_settings(DEBUG=False, ROOT_URLCONF=__name__):
        client = Client(raise_request_exception=False)
        answers = {"404": client.get("/no/such/page/"), "500": client.get("/broken/")}
    return {
        name: (answer.status_code, dict(answer.headers), answer.content)
        for name, answer in answers.items()
    }


def django_error_pages() -> dict[str, tuple[int, dict[str, str], bytes]]:
    """Django's 404 and 500 answers as production gives them (DEBUG off, through every
    middleware: the CSP header too): "404" for an unknown address, "500" for a view that
    raises. Rendered in a thread of its own: Playwright's loop runs in this one, and Django
    refuses to run its sync code under a running event loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(_render_error_pages).result()
