"""Rated races under the faults: accounts that seek a quick match, play it to the win, and seek
again, so ratings are applied while hosts die and `double_ratings` counts real decisions.

Each seeker is an account signed up through the proxy (`POST /api/accounts/`). It seeks a
rated race on `/ws/match/` (docs/protocol.md 5), says `hello` with the token of `matched`,
and plays the board to the win: the harness reads the race's seed from the database (a test's
privilege), so every move is a reveal of a different, still hidden safe cell, planned with the
engine. Each race it played is kept with both racers' logs, so the chaos run checks its moves,
events and drops like the steady races', and the ratings of its accounts are counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import urllib.request
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

import psycopg
from websockets.asyncio.client import connect

from config.pg_hosts import PrimaryFirst
from games.engine import Board, Reveal, Sweep, SweepStatus, generate_board, start_cell
from tests.cluster.load import Race, Racer

PRESET = "beginner"
PASSWORD = "chaos-harness-31-password"
SEEK_TIMEOUT_S = 5.0  # then the seek starts again (a worker that died with it says nothing)
GAME_OVER_WAIT_S = 60.0
# After `game_over`, as long as a page stays: the race's last events may come after it (a
# move's `progress` is relayed, its `game_over` sent by the worker that ended the race).
LINGER_S = 2.0  # a racer waits for its race's end after its own win (the events)


def winning_plan(board: Board, start: tuple[int, int], seed: str) -> list[tuple[str, int, int]]:
    """Reveals that win the board, each of a safe cell still hidden when it is made: the
    start cell, then the others in a shuffled order, skipping what a flood already opened."""
    sweep = Sweep(board.width, board.height, board.mine_count, board)
    plan = [("reveal", *start)]
    sweep.apply(Reveal(*start))
    cells = [i for i in range(board.size) if not board.is_mine(i)]
    random.Random(seed).shuffle(cells)
    for index in cells:
        if sweep.status is not SweepStatus.PLAYING:
            break
        x, y = board.xy(index)
        if sweep.state[index] == 0:  # CellState.HIDDEN
            plan.append(("reveal", x, y))
            sweep.apply(Reveal(x, y))
    return plan


def sign_up(base_url: str, name: str, tries: int = 20) -> str:
    """The account's session cookie (POST /api/accounts/ creates it and logs it in)."""
    body = json.dumps({"username": name, "password": PASSWORD}).encode()
    for attempt in range(tries):
        request = urllib.request.Request(
            base_url + "/api/accounts/", data=body, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                cookie = SimpleCookie()
                for header in answer.headers.get_all("Set-Cookie") or []:
                    cookie.load(header)
                return cookie["sessionid"].value
        except (OSError, KeyError):
            if attempt + 1 == tries:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


def count_double_ratings(
    changes: Iterable[tuple[int, str, str, str]], ratings: Iterable[tuple[int, str, str, int]]
) -> int:
    """Races counted twice for an account, from the database's rows: `changes` are the counted
    rating changes (user, game, preset, variant), `ratings` each account's rating (user,
    preset, variant, games: how many races it has counted). A race counted twice shows as two
    changes for one game, or as a rating that counted more races than it has games with a
    change (applied twice, written once), or both: per account, preset and variant, the races
    applied (the larger of the two counts) less the distinct games rated."""
    rows: Counter = Counter()
    games_rated: dict[tuple, set] = {}
    for user, game, preset, variant in changes:
        rows[(user, preset, variant)] += 1
        games_rated.setdefault((user, preset, variant), set()).add(game)
    counted = {(user, preset, variant): games for user, preset, variant, games in ratings}
    return sum(
        max(rows[key], counted.get(key, 0)) - len(games_rated.get(key, ()))
        for key in rows.keys() | counted.keys()
    )


def double_ratings(conn: psycopg.Connection) -> int:
    changes = conn.execute(
        "SELECT user_id, game_id, preset, variant FROM ratings_ratingchange "
        "WHERE user_id IS NOT NULL AND counted"
    ).fetchall()
    ratings = conn.execute("SELECT user_id, preset, variant, games FROM ratings_rating").fetchall()
    return count_double_ratings(changes, ratings)


def rated_since(conn: psycopg.Connection, wall_time: float) -> int:
    """Races whose ratings were applied after `wall_time` (time.time())."""
    return conn.execute(
        "SELECT count(DISTINCT game_id) FROM ratings_ratingchange "
        "WHERE counted AND created_at > to_timestamp(%s)",
        (wall_time,),
    ).fetchone()[0]


@dataclass(eq=False)
class Seeker:
    """One account: seek, play to the win, seek again, until stopped."""

    name: str
    base_url: str
    ws_url: str
    db_url: str
    races: dict[str, Race]  # every rated race played, by game id, shared by the seekers
    session: str = ""
    racer: Racer | None = None
    refusals: Counter = field(default_factory=Counter)

    @property
    def busy(self) -> bool:
        return self.racer is not None and self.racer.busy

    async def seek(self, stop: asyncio.Event) -> dict | None:
        """The `matched` frame: seeks again (after a pause) when the socket fails; None once
        the run stops."""
        origin = self.base_url
        headers = {"Cookie": f"sessionid={self.session}"}
        while not stop.is_set():
            try:
                async with connect(
                    f"{self.ws_url}/ws/match/", origin=origin, additional_headers=headers,
                    open_timeout=5, ping_interval=None,
                ) as ws:  # fmt: skip
                    await ws.send(json.dumps({"type": "seek", "preset": PRESET,
                                              "no_guess": False, "id": 1}))  # fmt: skip
                    while not stop.is_set():
                        frame = json.loads(await asyncio.wait_for(ws.recv(), SEEK_TIMEOUT_S))
                        if frame.get("type") == "matched":
                            return frame
                        if frame.get("type") not in ("seeking", "pong"):
                            self.refusals[f"seek: {frame.get('code')}"] += 1
                            break
            except Exception as exc:
                self.refusals[f"seek: {exc.__class__.__name__}"] += 1
            await asyncio.sleep(0.5)
        return None

    def _board(self, game_id: str) -> tuple[str, Board, tuple[int, int]]:
        """The race's board, from the primary (asked again while a failover is under way)."""
        for attempt in range(60):
            try:
                with PrimaryFirst.connect(self.db_url, connect_timeout=2) as conn:
                    seed, width, height, mines = conn.execute(
                        "SELECT seed, width, height, mines FROM games_game WHERE id = %s",
                        (game_id,),
                    ).fetchone()
                break
            except psycopg.Error:
                if attempt == 59:
                    raise
                time.sleep(1)
        start = start_cell(width, height, seed)
        return seed, generate_board(width, height, mines, seed, start), start

    async def play(self, every: float, stop: asyncio.Event, pause: asyncio.Event) -> None:
        self.session = await asyncio.to_thread(sign_up, self.base_url, self.name)
        while not stop.is_set():
            if pause.is_set():
                await asyncio.sleep(0.05)
                continue
            matched = await self.seek(stop)
            if matched is None:
                return
            game_id = matched["game"]["id"]
            seed, board, start = await asyncio.to_thread(self._board, game_id)
            race = self.races.setdefault(game_id, Race(game_id, seed, board, start))
            racer = Racer(race, len(race.racers), self.ws_url)
            racer.token, racer.plan = matched["token"], winning_plan(board, start, seed)
            race.racers.append(racer)
            self.racer = racer
            await racer.resume(first=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(racer.started.wait(), 30)
            await racer.play(every, stop, pause)
            deadline = time.monotonic() + GAME_OVER_WAIT_S
            while not (racer.game_over.is_set() or stop.is_set()) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)  # hear the race out: its events count
            racer.heard_out = racer.game_over.is_set()
            if racer.heard_out and not stop.is_set():
                await asyncio.sleep(LINGER_S)
            await racer.drop_socket()
