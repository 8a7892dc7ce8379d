"""The client's address, as the trusted reverse proxy reports it.

A request from a trusted proxy (MINERACE["TRUSTED_PROXIES"], addresses or CIDR networks) is
attributed to the rightmost X-Forwarded-For hop that is not itself a trusted proxy: each proxy
appends the address it saw, so everything left of that hop was written by the client and
proves nothing. A request from anywhere else is its peer's address, whatever it claims.

`ClientAddressMiddleware` wraps the whole ASGI application, so HTTP (Django's REMOTE_ADDR)
and WebSockets (scope["client"]) agree on who a client is, and every limit keys on that.
Daphne's own --proxy-headers must stay off: it believes the leftmost hop.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(entries: Iterable[str]) -> list[Network]:
    """'10.0.0.1', '10.0.0.0/8', '::1' -> networks; a bad entry is a configuration error."""
    return list(_networks(tuple(entries)))


@functools.lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Any, trusted: list[Network]) -> bool:
    return address is not None and any(address in network for network in trusted)


def client_address(peer: str | None, forwarded_for: list[str], trusted: list[Network]) -> str:
    """The address limits key on: see the module's docstring. `forwarded_for` holds every
    X-Forwarded-For header's value, in order."""
    peer_ip = _ip(peer) if peer else None
    if not _trusted(peer_ip, trusted):
        return str(peer_ip) if peer_ip is not None else (peer or "unknown")
    hops = [hop for value in forwarded_for for hop in value.split(",")]
    for hop in reversed(hops):
        hop_ip = _ip(hop)
        if hop_ip is None:
            break  # garbage where a proxy should have written an address: stop believing
        if not _trusted(hop_ip, trusted):
            return str(hop_ip)
    return str(peer_ip)  # only proxies on the way (or nothing usable): the nearest one


class ClientAddressMiddleware:
    """Rewrite scope["client"] to the trusted client address, for HTTP and WebSockets."""

    def __init__(self, app: Any, trusted: Iterable[str] | None = None) -> None:
        self.app = app
        self.trusted_entries = trusted

    def trusted(self) -> list[Network]:
        if self.trusted_entries is not None:
            return parse_networks(self.trusted_entries)
        from django.conf import settings

        return parse_networks(settings.MINERACE["TRUSTED_PROXIES"])

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if scope["type"] in ("http", "websocket"):
            peer = scope.get("client")
            forwarded = [
                value.decode("latin-1")
                for name, value in scope.get("headers", [])
                if name.lower() == b"x-forwarded-for"
            ]
            address = client_address(peer[0] if peer else None, forwarded, self.trusted())
            scope = {**scope, "client": [address, peer[1] if peer else 0]}
        return await self.app(scope, receive, send)
