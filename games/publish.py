"""Publishing events on the channel layer, from a consumer or from anywhere else."""

from __future__ import annotations

from collections.abc import Iterable

from channels.layers import get_channel_layer

from games.events import Event


def layer_message(event: Event, origin: str | None) -> dict:
    return {
        "type": "game.event",
        "kind": event.kind,
        "payload": event.payload,
        "origin": origin,
        "delay_ms": event.spectator_delay_ms,
    }


async def publish(events: Iterable[Event], origin: str | None = None) -> None:
    """group_send every event to its groups; `origin` is the connection that sent it directly."""
    layer = get_channel_layer()
    for event in events:
        message = layer_message(event, origin)
        for group in event.to:
            await layer.group_send(group, message)
