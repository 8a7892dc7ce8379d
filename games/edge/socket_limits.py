"""The limits of the WebSocket edge (games/limits): who a socket is, how many it may open,
how fast it may say hello and move. A connection's own message rate is a limits.buckets.Bucket
the consumer holds; so is its player's move count while the player has no other connection
(MoveLimit)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.edge.frames import frame_text
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
    await consumer.send(text_data=frame_text(error))
    await consumer.close(code=1008)
    return False


async def check_hello_rate(address: str) -> None:
    conf = settings.MINERACE
    verdict = await buckets.atake("hello", address, conf["HELLO_RATE_PER_S"], conf["HELLO_BURST"])
    if not verdict.allowed:
        raise ServiceError(
            "too_fast", f"too many hellos from your address; try again in {verdict.retry_after_s} s"
        )


class MoveLimit:
    """One player's moves (PLAYER_MOVE_RATE_PER_S in bursts of PLAYER_MOVE_BURST over all its
    connections and workers) as one of its connections counts them.

    A player with one connection is counted in that connection's own process: no Redis command
    per move. Its first move is taken from the shared bucket, which says how many tokens the
    player has left (a reconnect does not bring a fresh burst), and a clean close hands the
    count back to it. Once the player has another connection, on any worker (`share`: told at
    that connection's hello), every move is taken from the shared bucket, the first one capped
    at what this connection had left, for the rest of the connection's life. Between the other
    connection's hello and this one hearing of it, the two count apart: docs/protocol.md.
    """

    def __init__(self, player_id: str, *, shared: bool) -> None:
        self.player_id = player_id
        self.shared = shared
        self.local: buckets.Bucket | None = None  # the count in this process, once synced

    def share(self) -> None:
        """Another connection of the player opened: count in the shared bucket from now on."""
        self.shared = True

    async def check(self) -> None:
        """Spend one move, or raise `too_fast` (the move is not played)."""
        rate, burst = _move_rate()
        if self.local is not None and not self.shared:
            self.local.rate_per_s, self.local.burst = rate, burst  # settings may have changed
            verdict = self.local.take()
        else:
            cap = None if self.local is None else self.local.level()
            verdict = await buckets.atake("moves", self.player_id, rate, burst, cap=cap)
            if self.shared:
                self.local = None
            elif verdict.tokens is not None:  # None: Redis failed, try to sync next move
                self.local = buckets.Bucket(rate, burst, tokens=verdict.tokens)
        if not verdict.allowed:
            raise ServiceError("too_fast", "slow down: too many moves")

    async def close(self) -> None:
        """Hand this connection's count back to the shared bucket (spending nothing), so the
        player's next connection starts from it."""
        if self.local is not None:
            rate, burst = _move_rate()
            level, self.local = self.local.level(), None
            await buckets.atake("moves", self.player_id, rate, burst, cost=0, cap=level)


def _move_rate() -> tuple[float, int]:
    conf = settings.MINERACE
    return conf["PLAYER_MOVE_RATE_PER_S"], conf["PLAYER_MOVE_BURST"]
