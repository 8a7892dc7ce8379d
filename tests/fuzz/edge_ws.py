"""A WebSocket that sends one fuzzed frame at a time and reads everything it caused, and what
docs/protocol.md 4 and 5 promise of the answer.

After each frame the socket sends a `ping` of its own: frames on a connection are handled in
order, so everything the server answered to the fuzzed frame comes before that `pong`, and the
`pong` itself shows the consumer is alive. Events other connections cause travel through the
channel layer and may come at any time; they are never errors, so they cannot be mistaken for
an answer.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.edge.frames import CLOSE_FRAME_BYTES, MAX_FRAME_BYTES
from games.edge.validation import is_integer
from tests.fuzz.budget import COUNTS
from tests.play.helpers import ORIGIN

# docs/protocol.md 4: every code an `error` on /ws/games/<id>/ may carry.
GAME_CODES = {
    "bad_json", "bad_message", "unknown_type", "bad_cell", "bad_name", "name_taken", "game_full",
    "bad_token", "not_a_player", "not_running", "too_big", "too_fast",
}  # fmt: skip
# docs/protocol.md 5 on /ws/match/, with the frame-level codes of 4.
MATCH_CODES = {
    "bad_json", "bad_message", "unknown_type", "bad_name", "name_taken", "too_big", "too_fast",
}  # fmt: skip
TIMEOUT_S = 20  # only against a hang: an answer normally takes milliseconds

_sync_ids = itertools.count(7_340_032_000_001)


@dataclass(frozen=True)
class Frame:
    """A frame to send: text, or bytes for a binary frame."""

    text: str | None = None
    data: bytes | None = None

    def message(self) -> Any:
        """The JSON value of a text frame the server would parse (None otherwise)."""
        if self.text is None or len(self.text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
            return None
        try:
            return json.loads(self.text, parse_constant=_refuse)
        except (ValueError, RecursionError):
            return None

    def expected_codes(self) -> set[str] | None:
        """The right codes when the frame is refused before any rule of the game applies."""
        if self.text is None:
            return {"bad_message"}
        if len(self.text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
            return {"too_big"}
        try:
            value = json.loads(self.text, parse_constant=_refuse)
        except (ValueError, RecursionError):
            return {"bad_json"}
        if not isinstance(value, dict) or not isinstance(value.get("type"), str):
            # Nested past the parser's recursion limit (which depends on the stack of the
            # caller): JSON, but the server may give up parsing it.
            return {"bad_message", "bad_json"} if nesting(self.text) > 100 else {"bad_message"}
        return None

    def closes(self) -> bool:
        """Over 64 KiB of UTF-8 the server closes with 1009 instead of answering."""
        if self.text is None:
            return False
        return len(self.text.encode("utf-8", "surrogatepass")) > CLOSE_FRAME_BYTES

    def client_id(self) -> int | None:
        message = self.message()
        if isinstance(message, dict) and is_integer(message.get("id")):
            return message["id"]
        return None

    def with_tokens(self, tokens: dict[str, str]) -> Frame:
        """The frame with each token placeholder replaced by a real token (JSON-quoted)."""
        if self.text is None:
            return self
        text = self.text
        for placeholder, token in tokens.items():
            text = text.replace(json.dumps(placeholder), json.dumps(token))
        return Frame(text=text)

    def __repr__(self) -> str:
        shown = self.text if self.text is not None else self.data
        return f"Frame({shown[:400]!r}{'...' if len(shown) > 400 else ''}, {len(shown)})"


def _refuse(name: str) -> Any:
    raise ValueError(name)


def nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON text (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


@dataclass
class Exchange:
    """What came back after one frame, up to its sync `pong`, or the close code."""

    frames: list[dict[str, Any]] = field(default_factory=list)
    closed: int | None = None

    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "error"]


class Socket:
    def __init__(self, path: str) -> None:
        self.ws = WebsocketCommunicator(application, path, headers=ORIGIN)
        self.open = False

    async def connect(self) -> Socket:
        connected, _ = await self.ws.connect(timeout=TIMEOUT_S)
        assert connected
        self.open = True
        return self

    async def send(self, frame: Frame) -> None:
        # As Daphne passes a frame on (send_to() cannot send an empty one).
        if frame.data is not None:
            await self.ws.send_input({"type": "websocket.receive", "bytes": frame.data})
        else:
            await self.ws.send_input({"type": "websocket.receive", "text": frame.text})
        COUNTS["ws frames"] += 1

    async def output(self) -> dict[str, Any] | int:
        """The next frame as JSON, or the close code."""
        message = await self.ws.receive_output(timeout=TIMEOUT_S)
        if message["type"] == "websocket.close":
            self.open = False
            return message.get("code", 1000)
        assert message["type"] == "websocket.send", message
        return json.loads(message["text"])

    async def exchange(self, frame: Frame) -> Exchange:
        """Send a frame, then a ping; collect what came before the pong."""
        await self.send(frame)
        COUNTS["ws fuzzed frames"] += 1
        sync = next(_sync_ids)
        await self.send(Frame(text=json.dumps({"type": "ping", "id": sync})))
        result = Exchange()
        while True:
            out = await self.output()
            if isinstance(out, int):
                result.closed = out
                return result
            if out.get("type") == "pong" and out.get("re") == sync:
                return result
            result.frames.append(out)

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """A set-up step: send with an id, return the frame that answers it."""
        sync = next(_sync_ids)
        await self.send(Frame(text=json.dumps({**message, "id": sync})))
        while True:
            out = await self.output()
            assert not isinstance(out, int), f"closed {out} while setting up"
            if out.get("re") == sync:
                return out

    async def wait_for(self, kind: str) -> dict[str, Any]:
        while True:
            out = await self.output()
            assert not isinstance(out, int), f"closed {out} while waiting for {kind}"
            if out.get("type") == kind:
                return out

    async def close(self) -> None:
        await self.ws.disconnect()


def check_answer(frame: Frame, got: Exchange, codes: set[str]) -> bool:
    """The answer keeps the protocol's promises; True when the frame was refused."""
    if frame.closes():
        assert got.closed == 1009, (frame, got)
        return True
    assert got.closed is None, f"closed {got.closed} after {frame!r}: {got.frames}"
    errors = got.errors()
    assert len(errors) <= 1, got.frames
    wanted = frame.client_id()
    if not errors:
        if wanted is not None:  # the direct answer of an accepted frame carries its id
            assert any(f.get("re") == wanted for f in got.frames), (frame, got.frames)
        return False
    error = errors[0]
    assert error["code"] in codes, f"undocumented code {error} for {frame!r}"
    assert isinstance(error.get("message"), str) and error["message"], error
    expected = frame.expected_codes()
    if expected is not None:
        assert error["code"] in expected, (frame, error)
    elif error["code"] != "too_fast":
        assert error.get("re") == wanted, (frame, error)
    return True
