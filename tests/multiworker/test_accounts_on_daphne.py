"""A program's account on real Daphne workers, PostgreSQL and Redis (docs/protocol.md 3 v1.2, 6.1):
it signs up over HTTP, logs out and in on another worker, and plays a solo game over the
WebSocket as its account, carrying nothing but the session cookie. A bot account is refused
quick match there too, and the login throttle answers the API's 429."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

import psycopg
import pytest
from websockets.asyncio.client import connect

from games.engine import generate_board
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services

PASSWORD = "Mines-sweep-42"
SEED = "program-account"  # a chosen seed: the test knows the board once it picks the first cell
FIRST = (4, 4)


@dataclass
class Answer:
    status: int
    headers: Any
    body: Any

    def session(self) -> str:
        """The session cookie this answer sets."""
        cookies = SimpleCookie()
        for header in self.headers.get_all("Set-Cookie") or []:
            cookies.load(header)
        return cookies["sessionid"].value


def api(base: str, method: str, path: str, body: Any = None, session: str = "") -> Answer:
    """One call as a program makes it: JSON with its Content-Type, the cookie if it has one."""
    headers = {"Content-Type": "application/json"}
    if session:
        headers["Cookie"] = f"sessionid={session}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
            return Answer(response.status, response.headers, json.loads(raw) if raw else None)
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.headers, json.loads(error.read()))


def player_account(postgres_url: str, player_id: str) -> str | None:
    """The username of the account a player row belongs to, as the database has it."""
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute(
            "SELECT u.username FROM games_player p LEFT JOIN auth_user u ON u.id = p.user_id "
            "WHERE p.id = %s",
            (player_id,),
        ).fetchone()
    return row[0]


async def test_a_program_signs_up_logs_in_and_plays_as_its_account(cluster, postgres):
    a, b = cluster.workers
    signed = api(a.url, "POST", "/api/accounts/", {"username": "Minebot", "password": PASSWORD})
    assert (signed.status, signed.body) == (201, {"name": "Minebot", "bot": False})
    first_session = signed.session()
    assert api(b.url, "GET", "/api/me/", session=first_session).body["name"] == "Minebot"

    assert api(a.url, "DELETE", "/api/session/", session=first_session).status == 204
    assert api(b.url, "GET", "/api/me/", session=first_session).status == 401
    logged = api(b.url, "POST", "/api/session/", {"username": "minebot", "password": PASSWORD})
    assert (logged.status, logged.body) == (200, {"name": "Minebot", "bot": False})
    session = logged.session()
    me = api(a.url, "GET", "/api/me/", session=session)
    assert me.body == {"name": "Minebot", "bot": False, "marked": False}

    game = api(a.url, "POST", "/api/games/", {"preset": "beginner", "seed": SEED}, session)
    assert game.status == 201
    client = await WsClient(b.ws_url, game.body["id"], {"Cookie": f"sessionid={session}"}).connect()
    welcome = await client.request({"type": "hello", "role": "player"})  # no name: the account's
    assert welcome["type"] == "welcome", welcome
    (me_player,) = welcome["game"]["players"]
    assert (me_player["id"], me_player["name"], me_player["bot"]) == (
        welcome["you"], "Minebot", False,
    )  # fmt: skip
    board = generate_board(9, 9, 10, SEED, FIRST)
    opened: set[tuple[int, int]] = set()
    answer: dict[str, Any] = {}
    for cell in [FIRST, *(board.xy(i) for i in range(board.size) if not board.is_mine(i))]:
        if cell in opened:
            continue
        answer = await client.request({"type": "reveal", "x": cell[0], "y": cell[1]})
        assert answer["type"] == "cells", answer
        opened |= {(x, y) for x, y, _ in answer["cells"]}
        if answer["status"] != "playing":
            break
    assert answer["status"] == "won"
    over = await client.until("game_over")
    assert [(r["name"], r["bot"], r["status"]) for r in over["results"]] == [
        ("Minebot", False, "won")
    ]
    await client.close()
    assert player_account(postgres.url, welcome["you"]) == "Minebot"

    # Having played, the account can no longer become a bot account.
    refused = api(a.url, "POST", "/api/me/bot/", {}, session)
    assert (refused.status, refused.body["error"]["code"]) == (409, "has_games")


async def test_a_bot_account_is_refused_quick_match_on_daphne(cluster):
    a, b = cluster.workers
    signed = api(a.url, "POST", "/api/accounts/", {"username": "Seekbot", "password": PASSWORD})
    session = signed.session()
    assert api(b.url, "POST", "/api/me/bot/", {}, session).body == {"bot": True}
    ws = await connect(
        f"{b.ws_url}/ws/match/",
        origin=b.url,
        additional_headers={"Cookie": f"sessionid={session}"},
    )
    await ws.send(json.dumps({"type": "seek", "preset": "beginner", "no_guess": False, "id": 3}))
    refused = json.loads(await ws.recv())
    assert (refused["type"], refused["code"], refused["re"]) == ("error", "bot_forbidden", 3)
    await ws.close()


def test_the_login_throttle_answers_the_apis_429_on_daphne(cluster):
    """Last in this module: five failures lock this name from this client address."""
    a, b = cluster.workers
    api(a.url, "POST", "/api/accounts/", {"username": "Locked", "password": PASSWORD})
    wrong = {"username": "Locked", "password": "not-the-password"}
    for k in range(4):
        assert api((a, b)[k % 2].url, "POST", "/api/session/", wrong).status == 401
    for body in (wrong, {"username": "Locked", "password": PASSWORD}):
        locked = api(b.url, "POST", "/api/session/", body)
        assert (locked.status, locked.body["error"]["code"]) == (429, "rate_limited")
        assert int(locked.headers["Retry-After"]) > 0
