"""A worker's watch of a game (games/play/watching.py): every spectator's frames written once,
a spectator that cannot keep up skipped and welcomed afresh once drained, and a lost move
making the watch read its ground again (docs/protocol.md 4, v1.3)."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.layers import get_channel_layer
from websockets.frames import Opcode

from games.events import groups
from games.play import watching
from tests.edge.test_prebuilt_frames import parse_frame
from tests.play.race_helpers import race, start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _short_countdown(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0}


class Watcher:
    """A spectator as a watch sees it, whose socket's backlog the test sets."""

    def __init__(self, watch: watching.Watch, batch: bool = True, prebuilt: bool = False) -> None:
        self.watch = watch
        self.batch = batch
        self.prebuilt = prebuilt  # takes frames built once (a Daphne socket), else texts only
        self.texts: list[str] = []
        self.frames: list[bytes] = []
        self.backlog = 0
        self.resyncs = 0

    async def send_text(self, text: str) -> None:
        self.texts.append(text)

    def write_prebuilt(self, frame: bytes) -> bool:
        if not self.prebuilt:
            return False
        self.frames.append(frame)
        self.texts.append(parse_frame(frame).data.decode("utf-8"))
        return True

    def unsent_bytes(self) -> int | None:
        return self.backlog

    async def resync(self) -> None:
        self.resyncs += 1
        self.watch.attach(self, {"game": {"status": "running"}})

    def messages(self) -> list[dict]:
        out = []
        for text in self.texts:
            frame = json.loads(text)
            out += frame["messages"] if frame["type"] == "batch" else [frame]
        return out


async def until(condition, timeout: float = 5) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def attach(watch: watching.Watch, *watchers: Watcher) -> None:
    """Spectators attached as a hello attaches them, with a running game's welcome."""
    for watcher in watchers:
        watch.members += 1
        watch.attach(watcher, {"game": {"status": "running"}})


async def leave(watch: watching.Watch, watchers: list[Watcher], clients: list) -> None:
    """The spectators leave, then the test's own hold on the watch, then the racers."""
    for watcher in watchers:
        await watching.watch_leave(watch, watcher)
    await watching.watch_leave(watch, None)
    for client in clients:
        await client.close()


async def running_race_with_a_watch():
    game_id, (alice, bob), welcomes = await race()
    await start([alice, bob])
    watch = await watching.watch_join(game_id)
    return game_id, (alice, bob), welcomes, watch


async def test_spectators_at_one_point_share_one_batch_text():
    _, (alice, bob), (wa, _), watch = await running_race_with_a_watch()
    first, second = Watcher(watch), Watcher(watch)
    attach(watch, first, second)
    await alice.request({"type": "reveal", "x": 4, "y": 2})
    await until(lambda: first.texts and second.texts)
    assert first.texts[0] is second.texts[0]  # written once for both
    assert [m["type"] for m in first.messages()] == ["progress"]
    assert first.messages()[0]["player"] == wa["you"]
    await leave(watch, [first, second], [alice, bob])


async def test_a_batch_is_framed_once_for_every_spectator_at_one_point():
    _, (alice, bob), (wa, _), watch = await running_race_with_a_watch()
    first, second = Watcher(watch, prebuilt=True), Watcher(watch, prebuilt=True)
    one_by_one = Watcher(watch, batch=False, prebuilt=True)
    attach(watch, first, second, one_by_one)
    await alice.request({"type": "reveal", "x": 4, "y": 2})
    await until(lambda: first.frames and second.frames and one_by_one.frames)
    assert first.frames[0] is second.frames[0]  # the same bytes object: framed once
    frame = parse_frame(first.frames[0])
    assert frame.opcode == Opcode.TEXT and frame.fin
    assert [m["type"] for m in first.messages()] == ["progress"]
    assert first.messages()[0]["player"] == wa["you"]
    assert [json.loads(t)["type"] for t in one_by_one.texts] == ["progress"]  # not a batch
    await leave(watch, [first, second, one_by_one], [alice, bob])


async def test_a_spectator_that_cannot_keep_up_is_skipped_then_welcomed_afresh(settings):
    settings.MINERACE = {**settings.MINERACE, "SPECTATOR_BACKLOG_BYTES": 1000}
    _, (alice, bob), _, watch = await running_race_with_a_watch()
    fast, slow = Watcher(watch), Watcher(watch)
    attach(watch, fast, slow)
    slow.backlog = 10_000  # its reader has stopped reading
    for x in range(4):
        await alice.request({"type": "flag", "x": x, "y": 0})
        await until(lambda: len(fast.messages()) > x)  # noqa: B023 (awaited at once)
    assert slow.texts == [] and slow.resyncs == 0  # nothing queued to it, no welcome yet
    slow.backlog = 0  # drained
    await until(lambda: slow.resyncs == 1)
    await alice.request({"type": "flag", "x": 5, "y": 0})
    await until(lambda: slow.texts)
    assert [(m["type"], m["seq"]) for m in slow.messages()] == [("progress", 5)]
    await leave(watch, [fast, slow], [alice, bob])


async def test_a_move_lost_on_the_layer_makes_the_watch_read_its_ground_again():
    game_id, (alice, bob), (wa, _), watch = await running_race_with_a_watch()
    watcher = Watcher(watch)
    attach(watch, watcher)
    await alice.request({"type": "reveal", "x": 4, "y": 2})
    await bob.request({"type": "reveal", "x": 4, "y": 2})
    await until(lambda: watch.seqs == {wa["you"]: 1, bob_id(watch, wa): 1})
    opening = {tuple(cell) for cell in watch.ground.cells()}
    # Alice's next move is committed, and the layer loses it for this worker's watch (bob
    # hears it): her move after it skips a seq.
    layer = get_channel_layer()
    await layer.group_discard(groups.everyone(game_id), watch.channel)
    lost = await alice.request({"type": "flag", "x": 0, "y": 0})
    while (frame := await bob.recv())["type"] != "progress" or frame["seq"] != 2:
        pass  # published (bob heard it) while the watch was not listening
    await layer.group_add(groups.everyone(game_id), watch.channel)
    await alice.request({"type": "flag", "x": 1, "y": 0})
    await until(lambda: watcher.resyncs == 1)
    assert watch.seqs[wa["you"]] == 3 and lost["seq"] == 2
    assert {tuple(cell) for cell in watch.ground.cells()} == opening
    await leave(watch, [watcher], [alice, bob])


def bob_id(watch: watching.Watch, wa: dict) -> str:
    return next(player for player in watch.seqs if player != wa["you"])


class Gone(Watcher):
    """A spectator whose socket closed under the watch."""

    async def send_text(self, text: str) -> None:
        raise ConnectionError("Attempt to send on a closed protocol")


async def test_a_spectator_whose_socket_is_gone_does_not_stop_the_others():
    _, (alice, bob), _, watch = await running_race_with_a_watch()
    gone, present = Gone(watch, batch=False), Watcher(watch, batch=False)
    attach(watch, gone, present)
    await alice.request({"type": "reveal", "x": 4, "y": 2})
    await until(lambda: present.texts)
    assert gone not in watch.cursors  # dropped from the watch, not tried again
    await leave(watch, [gone, present], [alice, bob])
