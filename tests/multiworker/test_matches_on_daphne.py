"""A match on real Daphne workers, PostgreSQL and Redis (docs/protocol.md 9.4): offered on one
worker, accepted on the other; each racer says hello to the race with the token the match gives
its session, presses ready, and the race runs as any race; a resignation loses the race, the
score moves between races and the next race waits for both to be ready; first to two ends it."""

from __future__ import annotations

import psycopg
import pytest

from games.engine import generate_board, start_cell
from tests.multiworker.test_accounts_on_daphne import PASSWORD, api
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services


def signed_up(worker, name: str) -> str:
    answer = api(worker.url, "POST", "/api/accounts/", {"username": name, "password": PASSWORD})
    assert answer.status == 201, answer.body
    return answer.session()


async def race_once(
    cluster, postgres, match_id: str, sessions: dict[str, str], loser: str, moves: int = 3
) -> tuple[dict, list[dict]]:
    """Both racers join the current race with their tokens, get ready; `loser` opens `moves`
    cells once it runs (3: the race is played, docs/protocol.md 6.2), then resigns. Returns the
    match's state after, and the `decided` each racer heard."""
    a, b = cluster.workers
    clients = {}
    for (name, session), worker in zip(sessions.items(), (a, b), strict=True):
        state = api(worker.url, "GET", f"/api/matches/{match_id}/", session=session).body
        race = state["current"]
        client = await WsClient(worker.ws_url, race["game"]).connect()
        welcome = await client.request({"type": "hello", "role": "player", "token": state["token"]})
        assert welcome["type"] == "welcome", welcome
        assert welcome["game"]["match"]["id"] == match_id
        me = next(p for p in welcome["game"]["players"] if p["id"] == welcome["you"])
        assert me["name"] == name and me["status"] == "joined"
        clients[name] = client
    for client in clients.values():
        answer = await client.request({"type": "ready"})
        assert answer["type"] != "error", answer
    for client in clients.values():
        await client.until("started", timeout=10)
    with psycopg.connect(postgres.url) as conn:
        (seed,) = conn.execute(
            "SELECT seed FROM games_game WHERE id = %s", (race["game"],)
        ).fetchone()
    start = start_cell(9, 9, seed)
    board = generate_board(9, 9, 10, seed, start)
    opened: set[tuple[int, int]] = set()
    for _ in range(moves):
        cell = start if not opened else next(
            board.xy(i) for i in range(board.size)
            if not board.is_mine(i) and board.xy(i) not in opened
        )  # fmt: skip
        answer = await clients[loser].request({"type": "reveal", "x": cell[0], "y": cell[1]})
        assert answer["type"] == "cells", answer
        opened |= {(x, y) for x, y, _ in answer["cells"]}
        if answer["status"] != "playing":
            break
    resigned = await clients[loser].request({"type": "resign"})
    assert resigned["type"] != "error", resigned
    heard = []
    for client in clients.values():
        heard.append(await client.until("decided", timeout=10))
        await client.close()
    return api(a.url, "GET", f"/api/matches/{match_id}/", session=sessions[loser]).body, heard


async def test_a_match_of_two_races_on_two_workers(cluster, postgres):
    a, b = cluster.workers
    sessions = {"Matcha": signed_up(a, "Matcha"), "Matchb": signed_up(b, "Matchb")}
    body = {"opponent": "Matchb", "preset": "beginner", "first_to": 2, "win_by": 1,
            "max_races": 3, "rated": True}  # fmt: skip
    offer = api(a.url, "POST", "/api/matches/", body, sessions["Matcha"])
    assert (offer.status, offer.body["status"]) == (201, "offered")
    match_id = offer.body["id"]
    accepted = api(b.url, "POST", f"/api/matches/{match_id}/accept/", {}, sessions["Matchb"])
    assert accepted.body["status"] == "playing"

    state, _ = await race_once(cluster, postgres, match_id, sessions, loser="Matchb")
    assert state["score"] == {"Matcha": 1, "Matchb": 0}
    assert state["status"] == "playing" and state["current"]["number"] == 2
    first_game = state["races"][0]["game"]
    rated = api(b.url, "GET", f"/api/games/{first_game}/").body
    assert rated["rated"] is True and rated["match"]["race"] == 1
    rows = rated.get("results") or rated["decided"]
    assert all(r["rating_after"] is not None for r in rows)  # rated race by race

    state, _ = await race_once(cluster, postgres, match_id, sessions, loser="Matchb")
    assert (state["status"], state["winner"], state["score"]) == (
        "finished", "Matcha", {"Matcha": 2, "Matchb": 0})  # fmt: skip
    assert [r["winner"] for r in state["races"]] == ["Matcha", "Matcha"]


async def test_a_click_and_a_resignation_in_a_rated_match_moves_no_rating(cluster, postgres):
    """docs/protocol.md 6.2 (v1.3), the third way two accounts race (after quick match and
    arenas, tests/multiworker/test_farms_on_workers.py): a match's race in which the loser
    clicks once and resigns is aborted, on both workers, and no rating moves."""
    a, b = cluster.workers
    sessions = {"Farma": signed_up(a, "Farma"), "Farmb": signed_up(b, "Farmb")}
    body = {"opponent": "Farmb", "preset": "beginner", "first_to": 2, "win_by": 1,
            "max_races": 3, "rated": True}  # fmt: skip
    match_id = api(a.url, "POST", "/api/matches/", body, sessions["Farma"]).body["id"]
    api(b.url, "POST", f"/api/matches/{match_id}/accept/", {}, sessions["Farmb"])
    state, heard = await race_once(cluster, postgres, match_id, sessions, loser="Farmb", moves=1)
    assert len(heard) == 2
    for decided in heard:
        assert (decided["aborted"], decided["aborted_because"]) == (True, "left_early")
        assert all(r["rating_before"] == r["rating_after"] for r in decided["results"])
    game = api(b.url, "GET", f"/api/games/{state['races'][0]['game']}/").body
    assert game["rated"] is True and game["aborted"] is True
    with psycopg.connect(postgres.url) as conn:
        changes = conn.execute(
            "SELECT before, after FROM ratings_ratingchange WHERE game_id = %s",
            (game["id"],),
        ).fetchall()
    assert all(before == after for before, after in changes)
