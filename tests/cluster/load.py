"""Racers that keep a log of everything the site told them, and resume like the page does.

Each racer plays a race through the proxy: moves at a steady pace, one in flight, each with an
idempotency key (docs/protocol.md 5), every move of a racer a different cell and action, so
the same (action, x, y) twice in its log is a move applied twice. A move unanswered within
ANSWER_TIMEOUT_S, a closed socket or a refused connection makes it reconnect, say `hello`
with its token (the resync: its `welcome`) and send the same move again with the same key;
an `internal` is retried after its advice. It records the acknowledged moves, the `progress`
events of the other racers, the `seqs` of every welcome and when each answer came: what the
chaos run checks against the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from games.engine import Board, generate_board, start_cell

# A racer that hears nothing for this long after a move leaves its socket for a new one, as the
# page does (core/socket.js SILENCE_MS, docs/protocol.md 10.5).
ANSWER_TIMEOUT_S = 1.5
# Longer than the proxy's connect timeout (0.5 s) to a silent worker plus a handshake.
CONNECT_TIMEOUT_S = 5.0
# A board where a reveal rarely cascades, so a racer has thousands of different moves to make.
WIDTH, HEIGHT, MINES = 50, 50, 700


def post_json(url: str, body: dict, tries: int = 20) -> dict:
    """POST JSON through the proxy, trying again while the site answers 5xx or not at all."""
    for attempt in range(tries):
        request = urllib.request.Request(
            url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.loads(answer.read())
        except (OSError, urllib.error.HTTPError):
            if attempt + 1 == tries:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


@dataclass(eq=False)
class Race:
    game_id: str
    seed: str
    board: Board
    start: tuple[int, int]
    racers: list[Racer] = field(default_factory=list)


@dataclass(eq=False)
class Racer:
    race: Race
    index: int
    ws_url: str
    player_id: str = ""
    token: str = ""
    ws: ClientConnection | None = None
    next_id: int = 0
    waiting: dict[int, asyncio.Future] = field(default_factory=dict)
    plan: list[tuple[str, int, int]] = field(default_factory=list)
    done: int = 0  # moves of the plan acknowledged
    acked: dict[int, tuple[str, int, int]] = field(default_factory=dict)  # seq -> move
    seq_of_key: dict[str, set[int]] = field(default_factory=lambda: {})
    ack_times: list[float] = field(default_factory=list)  # monotonic
    progress_seen: dict[str, set[int]] = field(default_factory=dict)  # other player -> seqs
    resynced: dict[str, int] = field(default_factory=dict)  # other player -> welcome seqs
    finished_seen: dict[str, str] = field(default_factory=dict)
    refusals: Counter = field(default_factory=Counter)  # how the site said no
    reconnects: int = 0
    reader: asyncio.Future | None = None
    closing: set[asyncio.Future] = field(default_factory=set)  # old sockets being closed
    busy: bool = False  # a move is on its way (sent, or being sent again)
    status: str = "playing"
    started: asyncio.Event = field(default_factory=asyncio.Event)
    game_over: asyncio.Event = field(default_factory=asyncio.Event)
    heard_out: bool = True  # False: left its race before `game_over` (rated.py)
    progress_after_game_over: int = 0  # `progress` frames that came after the `game_over`
    # What happened when (monotonic, step): the chaos run prints the steps from a fault to the
    # next answered move of its slowest racer, so a recovery's time can be read step by step.
    trace: list[tuple[float, str]] = field(default_factory=list)

    def step(self, what: str) -> None:
        self.trace.append((time.monotonic(), what))

    @property
    def name(self) -> str:
        return f"c{self.index}-{self.race.game_id[:6]}"

    def make_plan(self) -> None:
        """Every move different: the start cell, then safe cells and mines' flags in turn."""
        board, rng = self.race.board, random.Random(f"{self.race.seed}/{self.index}")
        safe = [board.xy(i) for i in range(board.size) if not board.is_mine(i)]
        safe.remove(self.race.start)
        mines = [board.xy(i) for i in sorted(board.mines)]
        rng.shuffle(safe)
        rng.shuffle(mines)
        self.plan = [("reveal", *self.race.start)]
        for k in range(min(len(safe) - 1, len(mines))):
            self.plan += [("reveal", *safe[k]), ("flag", *mines[k])]

    # ---- the socket ------------------------------------------------------------------

    async def open(self) -> None:
        url = f"{self.ws_url}/ws/games/{self.race.game_id}/"
        origin = self.ws_url.replace("ws://", "http://")
        self.ws = await connect(
            url,
            origin=origin,
            open_timeout=CONNECT_TIMEOUT_S,
            max_queue=None,
            max_size=2**23,
            ping_interval=None,
        )
        self.reader = asyncio.ensure_future(self._read(self.ws))

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for text in ws:
                self._frame(json.loads(text))
        except ConnectionClosed:
            pass
        finally:
            if self.ws is ws:
                self._fail_waiting()

    def _fail_waiting(self) -> None:
        for waiter in self.waiting.values():
            if not waiter.done():
                waiter.set_exception(ConnectionError("socket closed"))
        self.waiting.clear()

    def _frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        waiter = self.waiting.pop(frame.get("re"), None) if frame.get("re") else None
        if waiter is not None and not waiter.done():
            waiter.set_result(frame)
        if kind == "started":
            self.started.set()
        elif kind == "progress":
            self.progress_seen.setdefault(frame["player"], set()).add(frame["seq"])
            self.progress_after_game_over += self.game_over.is_set()
        elif kind == "finished":
            self.finished_seen[frame["player"]] = frame["status"]
        elif kind == "game_over":
            self.game_over.set()

    async def request(self, frame: dict[str, Any], timeout: float = ANSWER_TIMEOUT_S) -> dict:
        assert self.ws is not None
        self.next_id += 1
        frame_id = self.next_id
        waiter = asyncio.get_running_loop().create_future()
        self.waiting[frame_id] = waiter
        try:
            await self.ws.send(json.dumps({**frame, "id": frame_id}))
            return await asyncio.wait_for(waiter, timeout)
        except ConnectionClosed as exc:
            raise ConnectionError("socket closed") from exc
        finally:
            self.waiting.pop(frame_id, None)
            # The socket may have failed the waiter while the send was still under way (the
            # server closed it first): that error is the one raised above, so take it off the
            # future, which nobody awaits any more (else asyncio reports it at exit).
            if waiter.done() and not waiter.cancelled():
                waiter.exception()
            waiter.cancel()

    async def drop_socket(self) -> None:
        """Leave the socket at once, as the page does (core/socket.js `silent`: `close()`
        and a new socket straight away): the closing handshake goes on in the background, so
        a socket whose link is cut (it will never answer the close) costs no wait."""
        ws, self.ws = self.ws, None
        self._fail_waiting()
        if ws is not None:
            closing = asyncio.ensure_future(_close_quietly(ws))
            self.closing.add(closing)
            closing.add_done_callback(self.closing.discard)

    # ---- joining and resuming --------------------------------------------------------

    async def join(self) -> None:
        await self.open()
        welcome = await self.request({"type": "hello", "role": "player", "name": self.name}, 30)
        assert welcome["type"] == "welcome", welcome
        self.player_id, self.token = welcome["you"], welcome["token"]

    async def resume(self, first: bool = False) -> None:
        """Reconnect and say hello with the token until a welcome comes: the resync (`first`:
        the first hello of a player whose seat and token came from a quick match)."""
        await self.drop_socket()
        self.step("old socket dropped")
        self.reconnects += 0 if first else 1
        while True:
            try:
                await self.open()
                self.step("socket open")
                welcome = await self.request(
                    {"type": "hello", "role": "player", "token": self.token}
                )
            except (OSError, TimeoutError, ConnectionError, InvalidStatus) as exc:
                self.refusals[_kind(exc)] += 1
                self.step(f"reconnect failed: {_kind(exc)}")
                await self.drop_socket()
                await asyncio.sleep(0.2)
                continue
            self.step(f"hello answered: {welcome.get('type')} {welcome.get('code', '')}".strip())
            if welcome.get("type") == "welcome":
                self.player_id = welcome.get("you") or self.player_id
                if (welcome.get("game") or {}).get("status") not in (None, "lobby", "countdown"):
                    self.started.set()
                for player, seq in welcome.get("seqs", {}).items():
                    self.resynced[player] = max(self.resynced.get(player, 0), seq)
                return
            self.refusals[f"hello: {welcome.get('code')}"] += 1
            await self.drop_socket()
            await asyncio.sleep(_retry_after(welcome))

    # ---- playing ---------------------------------------------------------------------

    async def play(self, every: float, stop: asyncio.Event, pause: asyncio.Event) -> None:
        """Move every `every` s until stopped; while `pause` is set, wait (no move in flight)."""
        await asyncio.sleep(random.uniform(0, every))
        while not stop.is_set() and self.status == "playing" and self.done < len(self.plan):
            if pause.is_set():
                await asyncio.sleep(0.05)
                continue
            began = time.monotonic()
            self.busy = True
            try:
                await self.move_once()
            finally:
                self.busy = False
            await asyncio.sleep(max(0.0, every - (time.monotonic() - began)))

    async def move_once(self) -> None:
        """Send the next move of the plan until it is acknowledged, whatever happens."""
        action, x, y = self.plan[self.done]
        key = f"{self.name}-{self.done}"
        while True:
            if self.ws is None:
                await self.resume()
            try:
                self.step("move sent")
                answer = await self.request(
                    {"type": action, "x": x, "y": y, "idempotency_key": key}
                )
            except (TimeoutError, ConnectionError) as exc:
                self.refusals[_kind(exc)] += 1
                self.step(f"move unanswered: {_kind(exc)}")
                await self.resume()
                continue
            self.step(f"move answered: {answer['type']} {answer.get('code', '')}".strip())
            if answer["type"] == "cells":
                self.acked[answer["seq"]] = (answer["action"], answer["x"], answer["y"])
                self.seq_of_key.setdefault(key, set()).add(answer["seq"])
                self.ack_times.append(time.monotonic())
                self.status = answer["status"]
                self.done += 1
                return
            self.refusals[f"move: {answer.get('code')}"] += 1
            if answer.get("code") == "internal":
                await asyncio.sleep(_retry_after(answer))
                continue
            self.status = "refused"  # not_running and the like: this racer cannot go on
            return


async def _close_quietly(ws: ClientConnection) -> None:
    """The closing handshake, given up after a while (the other end may never answer)."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(), 5)


def _kind(exc: BaseException) -> str:
    if isinstance(exc, InvalidStatus):
        return f"http {exc.response.status_code}"
    return exc.__class__.__name__


def _retry_after(frame: dict[str, Any]) -> float:
    """The wait an `internal` advises (`retry_after_ms`, docs/protocol.md), within 0.1..5 s."""
    with contextlib.suppress(TypeError, ValueError):
        return min(5.0, max(0.1, float(frame.get("retry_after_ms")) / 1000))
    return 0.5


async def open_races(base_url: str, ws_url: str, races: int, racers: int) -> list[Race]:
    """Create `races` races through the proxy, join `racers` racers to each, start them."""
    made: list[Race] = []
    for r in range(races):
        seed = f"cluster-{r}-{random.getrandbits(32)}"
        start = start_cell(WIDTH, HEIGHT, seed)
        game = await asyncio.to_thread(
            post_json,
            base_url + "/api/games/",
            {
                "mode": "race",
                "width": WIDTH,
                "height": HEIGHT,
                "mines": MINES,
                "seed": seed,
                "max_players": racers,
            },
        )
        race = Race(game["id"], seed, generate_board(WIDTH, HEIGHT, MINES, seed, start), start)
        race.racers = [Racer(race, i, ws_url) for i in range(racers)]
        for racer in race.racers:
            racer.make_plan()
        made.append(race)
    everyone = [p for race in made for p in race.racers]
    await asyncio.gather(*(p.join() for p in everyone))
    for p in everyone:
        answer = await p.request({"type": "ready"}, 30)
        assert answer["type"] == "ready", answer
    await asyncio.gather(*(asyncio.wait_for(p.started.wait(), 60) for p in everyone))
    return made
