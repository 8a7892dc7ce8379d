"""Who a client is (games.limits.address): the rightmost hop a trusted proxy did not write."""

import json

import pytest
from channels.testing import ApplicationCommunicator

from config.asgi import application
from games.limits.address import client_address, parse_networks

PROXIES = parse_networks(["10.0.0.1", "10.1.0.0/16", "::1"])


@pytest.mark.parametrize(
    ("peer", "forwarded", "expected"),
    [
        # No proxy in front: the peer, whatever it claims.
        ("198.51.100.9", ["1.2.3.4"], "198.51.100.9"),
        ("198.51.100.9", [], "198.51.100.9"),
        # nginx appends the address it saw; the client's own words are to its left.
        ("10.0.0.1", ["1.2.3.4, 203.0.113.5"], "203.0.113.5"),
        ("10.0.0.1", ["203.0.113.5"], "203.0.113.5"),
        # Two proxies: a load balancer (10.1.x) then nginx, each appending.
        ("10.0.0.1", ["6.6.6.6, 203.0.113.5, 10.1.2.3"], "203.0.113.5"),
        # Several headers are one list, in order.
        ("10.0.0.1", ["6.6.6.6", "203.0.113.5"], "203.0.113.5"),
        # Garbage where a proxy's hop should be: believe nothing past it.
        ("10.0.0.1", ["203.0.113.5, nonsense"], "10.0.0.1"),
        # Only proxies on the way: the nearest.
        ("10.0.0.1", ["10.1.0.7"], "10.0.0.1"),
        ("10.0.0.1", [], "10.0.0.1"),
        # IPv6, with brackets and a port, and IPv4-mapped peers.
        ("::1", ["[2001:db8::7]:443"], "2001:db8::7"),
        ("::ffff:10.0.0.1", ["203.0.113.5"], "203.0.113.5"),
        ("::ffff:198.51.100.9", ["203.0.113.5"], "198.51.100.9"),
        (None, ["203.0.113.5"], "unknown"),
    ],
)
def test_client_address(peer, forwarded, expected):
    assert client_address(peer, forwarded, PROXIES) == expected


def test_with_no_trusted_proxy_the_header_is_never_believed():
    assert client_address("127.0.0.1", ["1.2.3.4"], []) == "127.0.0.1"


async def create_status(peer: str, forwarded: str | None) -> int:
    """POST /api/games/ through the whole ASGI application, from `peer`."""
    headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")]
    if forwarded is not None:
        headers.append((b"x-forwarded-for", forwarded.encode()))
    scope = {
        "type": "http", "method": "POST", "path": "/api/games/", "raw_path": b"/api/games/",
        "query_string": b"", "headers": headers, "client": [peer, 5555],
        "server": ["127.0.0.1", 8000], "scheme": "http", "http_version": "1.1",
        "asgi": {"version": "3.0"},
    }  # fmt: skip
    communicator = ApplicationCommunicator(application, scope)
    body = json.dumps({"preset": "beginner"}).encode()
    await communicator.send_input({"type": "http.request", "body": body})
    start = await communicator.receive_output(5)
    await communicator.receive_output(5)
    await communicator.wait()
    return start["status"]


@pytest.mark.django_db(transaction=True)
async def test_http_limits_key_on_the_trusted_client_address(settings):
    """One creation per address here: a client behind the proxy cannot choose its address by
    writing its own X-Forwarded-For, and a peer that is no proxy cannot either."""
    settings.MINERACE = {
        **settings.MINERACE,
        "TRUSTED_PROXIES": ["10.0.0.1"],
        "CREATE_BURST": 1,
        "CREATE_RATE_PER_MIN": 1,
    }
    assert await create_status("10.0.0.1", "6.6.6.6, 203.0.113.5") == 201
    assert await create_status("10.0.0.1", "7.7.7.7, 203.0.113.5") == 429
    assert await create_status("10.0.0.1", "203.0.113.6") == 201
    assert await create_status("198.51.100.9", "203.0.113.7") == 201
    assert await create_status("198.51.100.9", "203.0.113.8") == 429
