"""Layers on the machine's Redis standing for workers, and reading what reaches a channel."""

from __future__ import annotations

import asyncio
import uuid

from games.events.local_layer import ColocatedChannelLayer, ColocatedLoopLayer


def new_layer(url: str = "redis://127.0.0.1:6379/0", prefix: str = "") -> ColocatedChannelLayer:
    return ColocatedChannelLayer(hosts=[url], prefix=prefix or f"coloc-{uuid.uuid4().hex[:8]}")


def loop_layer(layer: ColocatedChannelLayer) -> ColocatedLoopLayer:
    return layer._get_layer()


async def received(layer: ColocatedChannelLayer, channel: str, timeout: float = 5) -> dict:
    return await asyncio.wait_for(layer.receive(channel), timeout)


async def nothing_more(layer: ColocatedChannelLayer, channel: str) -> bool:
    """True when the channel's queue is empty after the loop has had time to deliver."""
    await asyncio.sleep(0.3)
    return loop_layer(layer).channels[channel].empty()
