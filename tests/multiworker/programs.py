"""A program that plays Minerace from an account, as anyone may write one against the public
protocol: it signs up through the page, sends its session cookie on the WebSocket handshake,
and reveals what the house bots' brain (games/bots/brain.next_cell) picks, one click every
`pace_ms` (the next click goes out `pace_ms` after the last one, or at once if the answer and
the brain's thinking took longer)."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect

from games.bots.brain import next_cell
from tests.support.wsclient import WsClient

PASSWORD = "Mines-sweep-42"


@dataclass
class Account:
    """A signed-up account's session, seen from one client address (the trusted proxy's
    X-Forwarded-For)."""

    name: str
    session: str
    address: str

    def headers(self) -> dict[str, str]:
        return {"Cookie": f"sessionid={self.session}", "X-Forwarded-For": self.address}


def sign_up(base_url: str, name: str, address: str) -> Account:
    """Create the account through the sign-up page, which logs it in: its session cookie. The
    sign-up comes from `address` too (where the workers trust the test as their proxy), as
    sign-ups per address are limited (docs/protocol.md 3)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.addheaders = [("X-Forwarded-For", address)]
    with opener.open(f"{base_url}/accounts/signup/", timeout=10) as page:
        html = page.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    form = {"csrfmiddlewaretoken": token, "username": name, "password1": PASSWORD,
            "password2": PASSWORD}  # fmt: skip
    with opener.open(
        f"{base_url}/accounts/signup/", urllib.parse.urlencode(form).encode(), timeout=10
    ):
        pass
    sessions = [cookie.value for cookie in jar if cookie.name == "sessionid"]
    assert sessions, f"the sign-up of {name} did not log it in"
    return Account(name, sessions[0], address)


def http_json(url: str, account: Account | None = None, body: dict | None = None) -> Any:
    headers = {"Origin": url.split("/api")[0], **(account.headers() if account else {})}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


@dataclass
class Played:
    """One game a program played: how it ended, and where."""

    game_id: str
    player_id: str
    status: str
    clicks: int
    frames: list[dict[str, Any]] = field(default_factory=list)
    sent_s: list[float] = field(default_factory=list)  # the program's clock at each click


@dataclass(frozen=True)
class Pace:
    """A program's rhythm: one click every `ms`, and (with `stall_every`) a stall of
    `stall_ms` more before every `stall_every`-th click, as a program that waits on something
    now and then."""

    ms: float
    stall_every: int = 0
    stall_ms: float = 0

    def gap_s(self, click: int) -> float:
        stalled = self.stall_every and click % self.stall_every == self.stall_every - 1
        return (self.ms + (self.stall_ms if stalled else 0)) / 1000

    def __str__(self) -> str:
        stall = f" + {self.stall_ms:.0f} ms every {self.stall_every}th" if self.stall_every else ""
        return f"{self.ms:.0f} ms{stall}"


async def play(
    ws_url: str,
    account: Account,
    game_id: str,
    pace_ms: float | Pace,
    token: str | None = None,
) -> Played:
    """Join (or resume with a quick match's token) and play until the game ends for it."""
    pace = pace_ms if isinstance(pace_ms, Pace) else Pace(pace_ms)
    client = await WsClient(ws_url, game_id, headers=account.headers()).connect()
    try:
        hello = {"type": "hello", "role": "player"}
        hello.update({"token": token} if token else {"name": account.name})
        welcome = await client.request(hello, timeout=10)
        assert welcome["type"] == "welcome", welcome
        game = welcome["game"]
        width, height, mines = game["width"], game["height"], game["mines"]
        start = game["start"]
        if game["mode"] == "race" and game["status"] != "running":
            await client.until("started", timeout=30)
        revealed = {
            y * width + x: v for x, y, v in welcome["boards"].get(welcome["you"], [])
            if isinstance(v, int)
        }  # fmt: skip
        first = None if start is None or game["mode"] == "solo" else start[1] * width + start[0]
        loop = asyncio.get_running_loop()
        due = loop.time()
        clicks = 0
        sent: list[float] = []
        while True:
            cell = next_cell(width, height, mines, revealed, seed=clicks, start=first)
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)  # the program's own pace, not a wait for the server
            due = max(due, loop.time()) + pace.gap_s(clicks)
            sent.append(loop.time())
            answer = await client.request(
                {"type": "reveal", "x": cell % width, "y": cell // width}, timeout=30
            )
            assert answer["type"] == "cells", answer
            clicks += 1
            for x, y, v in answer["cells"]:
                if isinstance(v, int):
                    revealed[y * width + x] = v
            if answer["status"] != "playing":
                await client.until("game_over", timeout=120)  # a race: when the others end
                you = welcome["you"]
                return Played(game_id, you, answer["status"], clicks, client.received, sent)
    finally:
        await client.close()


async def solo_win(
    base_url: str,
    ws_url: str,
    account: Account,
    preset: str,
    pace_ms: float | Pace,
    tries: int,
    no_guess: bool = False,
) -> tuple[Played, int]:
    """Ranked solo games of this preset until the program wins one (the brain guesses where
    nothing is proven, and a classic board may need a guess): the win, and the games played."""
    for attempt in range(1, tries + 1):
        body = {"preset": preset, "no_guess": no_guess}
        game = http_json(f"{base_url}/api/games/", account, body)
        assert game["ranked"], game
        played = await play(ws_url, account, game["id"], pace_ms)
        if played.status == "won":
            return played, attempt
    raise AssertionError(f"{account.name} won no {preset} game in {tries}")


async def quick_match(ws_url: str, account: Account, preset: str, no_guess: bool) -> dict:
    """Seek a rated race on /ws/match/ and return the `matched` frame (game and token)."""
    origin = ws_url.replace("ws://", "http://")
    async with connect(
        f"{ws_url}/ws/match/", origin=origin, additional_headers=account.headers()
    ) as ws:
        await ws.send(json.dumps({"type": "seek", "preset": preset, "no_guess": no_guess,
                                  "id": 1}))  # fmt: skip
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert frame["type"] in ("seeking", "matched"), frame
            if frame["type"] == "matched":
                return frame
