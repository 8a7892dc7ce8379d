"""Lean spectators for the spectator bench: thousands of WebSocket readers per client process.

The `websockets` client costs a coroutine, a queue and a UTF-8 decode per frame and socket;
2,000 of them on the 2 cores the workers also run on measured the client more than the
server. Here a spectator is an asyncio Protocol over a raw socket: it sends the upgrade and
one masked `hello`, then only splits the frames it receives (answering pings and closes),
counting them. Only every `sample`-th spectator parses its frames (orjson) to time each
`progress` it is handed; every spectator keeps its last frames unparsed, read at the end to
say whether it saw each racer's last move.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import time
from collections import deque
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import orjson

KEPT_FRAMES = 16  # a spectator's last frames, read at the end (4 s of batches at 4 Hz)
TEXT, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x8, 0x9, 0xA, 0x0


def client_frame(opcode: int, payload: bytes) -> bytes:
    """One masked frame, as a client must send it (RFC 6455 5.3)."""
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return header + mask + masked


class LeanSpectator(asyncio.Protocol):
    """One spectator's socket: handshake, hello, then frames counted (and parsed if sampled)."""

    def __init__(self, request: bytes, hello: bytes, sampled: bool,
                 on_frame: Callable[[LeanSpectator, bytes, float], None]) -> None:  # fmt: skip
        self.request, self.hello, self.sampled, self.on_frame = request, hello, sampled, on_frame
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.upgraded = False
        self.opened: asyncio.Future = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future = asyncio.get_running_loop().create_future()
        self.frames = 0
        self.last: deque[bytes] = deque(maxlen=KEPT_FRAMES)
        self.fragments: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"closed before the upgrade: {exc!r}"))
        if not self.closed.done():
            self.closed.set_result(None)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(self.buffer[:end]).split(b"\r\n", 1)[0]
            del self.buffer[: end + 4]
            if b" 101 " not in status + b" ":
                self.opened.set_exception(ConnectionError(status.decode("latin-1")))
                self.transport.close()
                return
            self.upgraded = True
            self.transport.write(client_frame(TEXT, self.hello))
            self.opened.set_result(None)
        self._frames(time.time())

    def _frames(self, now: float) -> None:
        buffer = self.buffer
        while len(buffer) >= 2:
            first, second = buffer[0], buffer[1]
            length, offset = second & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, offset = struct.unpack_from("!H", buffer, 2)[0], 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, offset = struct.unpack_from("!Q", buffer, 2)[0], 10
            if len(buffer) < offset + length:
                return
            payload = bytes(buffer[offset : offset + length])  # servers never mask
            del buffer[: offset + length]
            opcode, final = first & 0x0F, first & 0x80
            if opcode == PING:
                self.transport.write(client_frame(PONG, payload))
            elif opcode == CLOSE:
                self.transport.write(client_frame(CLOSE, payload[:2]))
                self.transport.close()
                return
            elif opcode in (TEXT, 0x2, CONTINUATION):
                self.fragments.append(payload)
                if final:
                    message = b"".join(self.fragments)
                    self.fragments = []
                    self.frames += 1
                    self.last.append(message)
                    self.on_frame(self, message, now)

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(client_frame(CLOSE, struct.pack("!H", 1000)))
            self.transport.close()


def upgrade_request(url: str, origin: str) -> bytes:
    parts = urlsplit(url)
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {origin}\r\n\r\n").encode()  # fmt: skip


def messages_of(frame: bytes) -> list[dict[str, Any]]:
    """The messages of one frame: a `batch`'s, or the frame itself."""
    message = orjson.loads(frame)
    return message.get("messages", [message]) if message.get("type") == "batch" else [message]


async def watch(ws_url: str, game_id: str, count: int, sample: int, open_per_s: float,
                start_wall: float, end_wall: float, first_number: int = 0) -> dict:  # fmt: skip
    """`count` spectators of a game from now to end_wall (+5 s for the last batches): the
    arrival times of sampled progress frames, frames counted in [start_wall, end_wall], fresh
    welcomes, and what each saw last of every racer."""
    loop = asyncio.get_running_loop()
    parts = urlsplit(ws_url)
    url = f"{ws_url}/ws/games/{game_id}/watch/"
    origin = ws_url.replace("ws://", "http://")
    hello = orjson.dumps({"type": "hello", "role": "spectator", "batch": True})
    arrivals: list[tuple[str, int, float]] = []
    counted = [0, 0]  # frames in the window, fresh welcomes

    def on_frame(spectator: LeanSpectator, frame: bytes, now: float) -> None:
        if start_wall <= now <= end_wall:
            counted[0] += 1
        if frame.startswith(b'{"type":"welcome"') and b'"resync":true' in frame:
            counted[1] += 1
        if spectator.sampled:
            for message in messages_of(frame):
                if message.get("type") == "progress":
                    arrivals.append((message["player"], message["seq"], now))

    async def one(number: int) -> LeanSpectator:
        spectator = LeanSpectator(upgrade_request(url, origin), hello,
                                  (first_number + number) % sample == 0, on_frame)  # fmt: skip
        await loop.create_connection(lambda: spectator, parts.hostname, parts.port)
        await asyncio.wait_for(spectator.opened, 60)
        return spectator

    opening = []
    began = time.monotonic()
    for number in range(count):
        opening.append(asyncio.ensure_future(one(number)))
        await asyncio.sleep(max(0.0, began + (number + 1) / open_per_s - time.monotonic()))
    outcomes = await asyncio.gather(*opening, return_exceptions=True)
    spectators = [o for o in outcomes if isinstance(o, LeanSpectator)]
    errors: dict[str, int] = {}
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            errors[str(outcome)[:80]] = errors.get(str(outcome)[:80], 0) + 1
    await asyncio.sleep(max(0.0, end_wall + 5 - time.time()))
    closed_early = sum(1 for s in spectators if s.closed.done())
    last_seq = []
    for spectator in spectators:
        seen: dict[str, int] = {}
        for frame in spectator.last:
            for message in messages_of(frame):
                if message.get("type") == "progress":
                    seen[message["player"]] = max(seen.get(message["player"], 0), message["seq"])
                elif message.get("type") == "welcome":
                    for player, seq in (message.get("seqs") or {}).items():
                        seen[player] = max(seen.get(player, 0), seq)
        last_seq.append(seen)
        spectator.close()
    return {"arrivals": arrivals, "frames": counted[0], "resyncs": counted[1],
            "last_seq": last_seq, "opened": len(spectators), "closed_early": closed_early,
            "errors": errors, "cpu_s": time.process_time()}  # fmt: skip


def watch_in_process(job: dict) -> dict:
    """A client process's spectators (multiprocessing's entry point)."""
    return asyncio.run(watch(**job))
