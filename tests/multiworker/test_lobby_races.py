"""Lobby actions that race each other, on two Daphne workers and PostgreSQL.

A racer's `ready` and its own `leave` sent at once from two connections on two workers once
started a one-player race in 17 of 20 trials: `ready` counted the players before `leave`'s delete
committed, and `leave` read the game as still in the lobby. Both now lock the game's players and
the game before they look.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.multiworker.racing import create_race, http_json, join, resume

pytestmark = pytest.mark.services

TRIALS = 12


async def one_trial(a, b) -> tuple[str, str, int]:
    """Alice is ready; Bob says `ready` on worker a and `leave` on worker b at once.
    Returns (ready's answer, leave's answer, players in the game once it left the lobby)."""
    game_id = create_race(a.url)
    alice, _ = await join(a.ws_url, game_id, "alice")
    bob, welcome = await join(a.ws_url, game_id, "bob")
    bob_twin, _ = await resume(b.ws_url, game_id, welcome["token"])
    assert (await alice.request({"type": "ready"}))["type"] == "ready"
    ready, leave = await asyncio.gather(
        bob.request({"type": "ready"}), bob_twin.request({"type": "leave"})
    )
    state = http_json(f"{a.url}/api/games/{game_id}/")
    for client in (alice, bob, bob_twin):
        await client.close()
    players = len(state["players"]) if state["status"] != "lobby" else -1
    return ready["type"], leave.get("code", leave["type"]), players


async def test_a_ready_and_a_leave_at_once_never_start_a_race_of_one(cluster):
    a, b = cluster.workers
    outcomes = [await one_trial(a, b) for _ in range(TRIALS)]
    for ready, leave, players in outcomes:
        if leave == "left":
            # Bob left first: his ready came too late, and Alice alone stays in the lobby.
            assert ready == "error" and players == -1, outcomes
        else:
            # Bob's ready won: the countdown began with both, and leaving was refused.
            assert (ready, leave, players) == ("ready", "not_running", 2), outcomes
