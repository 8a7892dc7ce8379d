"""FramesRunToTheEnd: a cancelled application's frame finishes, then the connection is released."""

import asyncio

import pytest

from games.edge.socket_turns import FramesRunToTheEnd


class Consumer:
    """Stands in for Channels' consumer: dispatches what `receive` hands it until cancelled."""

    async def __call__(self, scope, receive, send) -> None:
        while True:
            await self.dispatch(await receive())

    async def dispatch(self, message: dict) -> None:
        await getattr(self, message["type"].replace(".", "_"))(message)


class Recording(FramesRunToTheEnd, Consumer):
    def __init__(self) -> None:
        self.done: list[str] = []
        self.in_frame = asyncio.Event()
        self.release = asyncio.Event()

    async def websocket_receive(self, message: dict) -> None:
        self.in_frame.set()
        await self.release.wait()  # a commit under way
        self.done.append("frame told")

    async def release_when_cancelled(self) -> None:
        self.done.append("released")


async def test_the_frame_under_way_finishes_before_the_connection_is_released():
    queue: asyncio.Queue = asyncio.Queue()
    consumer = Recording()
    application = asyncio.ensure_future(consumer({}, queue.get, None))
    await queue.put({"type": "websocket.receive"})
    await consumer.in_frame.wait()
    application.cancel()
    for _ in range(5):
        await asyncio.sleep(0)
    assert consumer.done == []  # the release waits for its turn
    consumer.release.set()
    with pytest.raises(asyncio.CancelledError):
        await application
    assert consumer.done == ["frame told", "released"]
