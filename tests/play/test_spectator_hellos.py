"""Spectators' hellos a few at a time (games/play/spectator_hellos.py): while a worker's turn
for spectators is taken, a spectator's hello waits for it, and a racer's move is answered
meanwhile; once the turn is given back, the waiting spectator is welcomed."""

from __future__ import annotations

import pytest

from games.play import spectator_hellos
from tests.play.helpers import Client
from tests.play.race_helpers import race, start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _one_at_a_time(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0,
                         "SPECTATOR_HELLOS_AT_ONCE": 1}  # fmt: skip
    spectator_hellos._gates.clear()  # a gate sized by this test's setting
    yield
    spectator_hellos._gates.clear()


async def test_a_spectator_waits_its_turn_while_racers_play_on():
    game_id, (alice, bob), (wa, _) = await race()
    await start([alice, bob])
    gate = spectator_hellos.gate()
    await gate.acquire()  # another spectator's hello is under way on this worker
    watcher = await Client(game_id).connect()
    await watcher.send({"type": "hello", "role": "spectator", "id": 1})
    answer = await alice.request({"type": "reveal", "x": 4, "y": 2})
    assert answer["type"] == "cells" and answer["player"] == wa["you"]  # not behind it
    assert len(gate._waiters or ()) == 1  # the spectator's hello, waiting for its turn
    gate.release()
    welcome = await watcher.recv(timeout=5)
    assert welcome["type"] == "welcome" and welcome["re"] == 1 and welcome["role"] == "spectator"
    assert gate._value == 1  # its turn given back
    for client in (watcher, alice, bob):
        await client.close()
