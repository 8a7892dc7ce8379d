"""The limits of the WebSocket edge (games/limits): who a socket is, how many it may open,
how fast it may say hello and move. A connection's own message rate is a limits.buckets.Bucket
the consumer holds."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings

from games.errors import ServiceError
from games.limits import buckets, sockets
from games.ops.metrics import ERRORS


def client_address_of(scope: dict[str, Any]) -> str:
    """The trusted client address (games.limits.address rewrote scope["client"])."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def admit_socket(consumer: Any, address: str) -> bool:
    """Accept the socket if its address is under WS_OPEN_PER_ADDRESS; else accept only to say
    why (`too_fast`) and close with 1008, so a client sees a reason, not a bare refusal."""
    await consumer.accept()
    if await sockets.socket_open(address, consumer.channel_name):
        return True
    cap = settings.MINERACE["WS_OPEN_PER_ADDRESS"]
    message = f"too many open connections from your address (at most {cap})"
    ERRORS.labels(code="too_fast").inc()
    error = {"type": "error", "code": "too_fast", "message": message, "re": None}
    await consumer.send(text_data=json.dumps(error))
    await consumer.close(code=1008)
    return False


async def check_hello_rate(address: str) -> None:
    conf = settings.MINERACE
    verdict = await buckets.atake("hello", address, conf["HELLO_RATE_PER_S"], conf["HELLO_BURST"])
    if not verdict.allowed:
        raise ServiceError(
            "too_fast", f"too many hellos from your address; try again in {verdict.retry_after_s} s"
        )


async def check_move_rate(player_id: str) -> None:
    """One player's moves over all its connections and workers."""
    conf = settings.MINERACE
    verdict = await buckets.atake(
        "moves", player_id, conf["PLAYER_MOVE_RATE_PER_S"], conf["PLAYER_MOVE_BURST"]
    )
    if not verdict.allowed:
        raise ServiceError("too_fast", "slow down: too many moves")
