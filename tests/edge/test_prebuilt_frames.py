"""Frames built once for many sockets (games/edge/prebuilt_frames.py): each is a whole valid
text frame for a WebSocket client, whatever its length, and only an open, plain socket is
written to directly; and the walk from a consumer's send to Daphne's protocol gets through
every wrapper the deployed stack puts on the way."""

from __future__ import annotations

import functools
import socket

import pytest
from autobahn.twisted.websocket import WebSocketServerProtocol
from channels.auth import AuthMiddlewareStack
from hypothesis import given
from hypothesis import strategies as st
from twisted.internet import tcp
from websockets.frames import Frame
from websockets.streams import StreamReader

from games.edge.prebuilt_frames import protocol_of, send_now, text_frame, write_frame
from games.edge.socket_backlog import transport_of, unsent_bytes
from games.edge.unavailable import WebSocketGuard


def parse_frame(data: bytes) -> Frame:
    """One whole server frame, parsed as a WebSocket client parses it (it must be all of it)."""
    reader = StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        assert reader.at_eof()
        return done.value
    raise AssertionError("an incomplete frame")


@given(st.text(max_size=300) | st.sampled_from(["a" * 125, "b" * 126, "é" * 40_000, "c" * 65_536]))
def test_a_prebuilt_frame_is_one_whole_text_frame_of_its_text(text):
    frame = parse_frame(text_frame(text))
    assert frame.fin and frame.opcode.name == "TEXT"
    assert frame.data.decode("utf-8") == text


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)


def a_protocol(state: int) -> WebSocketServerProtocol:
    protocol = WebSocketServerProtocol()
    protocol.state = state
    protocol.send_queue = []
    protocol._perMessageCompress = None
    protocol.transport = Transport()
    return protocol


def test_only_an_open_plain_socket_is_written_to_directly():
    frame = text_frame("{}")
    open_socket = a_protocol(WebSocketServerProtocol.STATE_OPEN)
    assert write_frame(open_socket, frame) and open_socket.transport.written == [frame]
    for state in (WebSocketServerProtocol.STATE_CONNECTING, WebSocketServerProtocol.STATE_CLOSING,
                  WebSocketServerProtocol.STATE_CLOSED):  # fmt: skip
        protocol = a_protocol(state)
        assert not write_frame(protocol, frame) and protocol.transport.written == []
    queued = a_protocol(WebSocketServerProtocol.STATE_OPEN)
    queued.send_queue = [(b"x", True)]
    assert not write_frame(queued, frame) and queued.transport.written == []
    compressed = a_protocol(WebSocketServerProtocol.STATE_OPEN)
    compressed._perMessageCompress = object()
    assert not write_frame(compressed, frame) and compressed.transport.written == []
    assert not write_frame(None, frame)


def test_a_send_without_daphne_behind_it_has_no_protocol():
    async def send(message):  # the test communicator's kind of send
        pass

    assert protocol_of(send) is None


@pytest.mark.django_db(transaction=True)  # the auth middleware may look the session up
async def test_a_consumers_send_leads_to_daphnes_protocol_through_the_deployed_wrappers():
    """As config/asgi.py stacks them: the socket guard, then the session and auth middleware, around
    the consumer; Daphne's send is a partial of its reply handler and the protocol. Without
    this walk a slow spectator's backlog is never seen (games.play.watching skips on it)."""
    protocol = a_protocol(WebSocketServerProtocol.STATE_OPEN)
    given_sends = []

    async def consumer(scope, receive, send):
        given_sends.append(send)

    async def handle_reply(protocol, message):
        pass

    app = WebSocketGuard(AuthMiddlewareStack(consumer))
    scope = {"type": "websocket", "path": "/ws/games/x/watch/", "headers": []}
    await app(scope, None, functools.partial(handle_reply, protocol))
    (send,) = given_sends
    assert protocol_of(send) is protocol
    assert transport_of(send) is protocol.transport


class Reactor:
    """What a Twisted connection asks of its reactor when it must wait to write."""

    def __init__(self) -> None:
        self.writers: list = []

    def addWriter(self, selectable) -> None:
        self.writers.append(selectable)

    def removeWriter(self, selectable) -> None:
        pass


def test_a_frame_goes_to_the_kernel_at_once_and_only_what_it_refuses_is_queued():
    server, client = socket.socketpair()
    server.setblocking(False)
    reactor = Reactor()
    connection = tcp.Connection(server, None, reactor)
    connection.connected = True
    try:
        frame = text_frame('{"type":"batch","messages":[]}')
        send_now(connection, frame)
        assert client.recv(100) == frame and reactor.writers == []  # no loop turn waited for
        big = text_frame("x" * 100_000)
        while unsent_bytes(connection) == 0:  # the reader has stopped: the kernel fills up
            send_now(connection, big)
        assert reactor.writers == [connection]  # the rest waits for the socket, in order
        queued = unsent_bytes(connection)
        send_now(connection, frame)
        assert unsent_bytes(connection) == queued + len(frame)  # behind what was queued
    finally:
        server.close()
        client.close()
