"""Close codes as a real client sees them through Daphne (the in-process communicator does not
go through Daphne's WebSocket protocol, which once turned 1008 and 1009 into 1011)."""

from __future__ import annotations

import json
import shutil

import pytest
from websockets.exceptions import ConnectionClosed

from tests.multiworker.racing import http_json
from tests.support.servers import Daphne, base_env, migrated_sqlite_template
from tests.support.waiting import async_wait_until
from tests.support.wsclient import WsClient


@pytest.fixture(scope="module")
def daphne(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("close-codes")
    shutil.copyfile(migrated_sqlite_template(), workdir / "db.sqlite3")
    env = base_env(DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}")
    worker = Daphne(env, workdir / "daphne.log").start()
    yield worker
    worker.stop()


async def closed_with(client: WsClient) -> int:
    """Read until the server closes the connection; the close code it sent."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(100):
            await client.recv(timeout=5)
    assert closed.value.rcvd is not None, "the server sent no close frame"
    return closed.value.rcvd.code


async def test_twenty_errors_in_a_row_close_with_1008(daphne):
    game = http_json(daphne.url + "/api/games/", {"preset": "beginner"})
    client = await WsClient(daphne.ws_url, game["id"]).connect()
    for _ in range(20):
        await client.ws.send("nope")
    assert await closed_with(client) == 1008
    assert [f["code"] for f in client.of_type("error")] == ["bad_json"] * 20
    assert "Traceback" not in daphne.log_text()


async def test_a_frame_over_64_kib_closes_with_1009(daphne):
    game = http_json(daphne.url + "/api/games/", {"preset": "beginner"})
    client = await WsClient(daphne.ws_url, game["id"]).connect()
    await client.ws.send("x" * 70_000)
    assert await closed_with(client) == 1009
    assert "Traceback" not in daphne.log_text()


async def test_frames_buffered_behind_a_1009_are_ignored_and_the_spectator_is_let_go(daphne):
    """A spectator sends an oversized frame and, before the close reaches it, more frames: the
    server must handle none of them, and must still release the connection (its spectator
    count), which once leaked when a late send failed and disconnect() never ran."""
    game = http_json(daphne.url + "/api/games/", {"mode": "race", "preset": "beginner"})
    client = await WsClient(daphne.ws_url, game["id"]).connect()
    assert (await client.request({"type": "hello", "role": "spectator"}))["type"] == "welcome"
    state = f"{daphne.url}/api/games/{game['id']}/"
    await async_wait_until(
        lambda: http_json(state)["spectators"] == 1, message="the spectator to be counted"
    )
    await client.ws.send("x" * 70_000)
    for k in range(5):
        await client.ws.send(json.dumps({"type": "ping", "id": 100 + k}))
    assert await closed_with(client) == 1009
    assert not [f for f in client.received if f["type"] == "pong"]
    await async_wait_until(
        lambda: http_json(state)["spectators"] == 0, message="the closed spectator to be released"
    )
    assert "Traceback" not in daphne.log_text()
