"""The quick-match socket, /ws/match/: seek, cancel, and `matched` when a race is made.

Speaks docs/protocol.md 5 and nothing else: the queue is games.matchmaking.services. Any worker's
pass may make the race; it sends `matched` to the seeker's channel, wherever that socket is.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from games.edge.frames import check_frame, frame_id, frame_text, frame_too_long, load_frame
from games.edge.socket_limits import admit_socket, check_hello_rate, client_address_of
from games.edge.socket_turns import FramesRunToTheEnd
from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.limits import sockets
from games.limits.buckets import Bucket
from games.matchmaking import services
from games.matchmaking.pairing import Company, company
from games.runtime.db import db

log = logging.getLogger(__name__)

COUNT_INTERVAL_S = 1.0  # `seeking` again at most once a second


def group_of(preset: str, no_guess: bool, no_flags: bool = False) -> str:
    return f"seek.{preset}.{int(no_guess)}{'.nf' if no_flags else ''}"


_passes: dict[asyncio.AbstractEventLoop, tuple[asyncio.Lock, list[bool]]] = {}
_detached: set[asyncio.Task] = set()  # passes started by a connection, running on their own


async def match_and_tell(channel_layer) -> None:
    """Run a pass now, or, if this worker is in one, once more right after it: on a busy
    worker every seek would otherwise start a pass of its own, all planning the same races."""
    lock, again = _passes.setdefault(asyncio.get_running_loop(), (asyncio.Lock(), [False]))
    if lock.locked():
        again[0] = True
        return
    async with lock:
        again[0] = True
        while again[0]:
            again[0] = False
            await _one_pass(channel_layer)


async def _one_pass(channel_layer) -> None:
    """Plan a pass, race each group and tell its seekers as soon as it commits, then tell
    every queue its size."""
    for seeker_ids, bot in await db(services.match_plan)():
        try:
            matches = await db(services.race_group)(seeker_ids=seeker_ids, bot=bot)
        except Exception:  # a bug must not keep the other groups from their races
            log.exception("no race for seekers %s", seeker_ids)
            continue
        for match in matches:
            try:
                await channel_layer.send(
                    match.channel, {"type": "match.found", "game": match.game, "token": match.token}
                )
            except Exception:  # a full or vanished channel must not keep the others untold
                log.exception("could not tell seeker %s of its race", match.channel)
    for queue, seekers in (await db(_all_queues)()).items():
        await channel_layer.group_send(
            group_of(*queue), {"type": "seek.waiting", "seekers": seekers}
        )


def _all_queues() -> dict[services.Queue, list[list[int | None]]]:
    """Every queue's seekers, as the layer carries them: each connection counts its own company
    from them (docs/protocol.md 5: never itself twice, nor a seeker it could not meet)."""
    kinds = services.queue_seekers()
    queues = [(p, ng, nf) for p in PRESETS for ng in (False, True) for nf in (False, True)]
    return {queue: [list(seeker) for seeker in kinds.get(queue, [])] for queue in queues}


class MatchConsumer(FramesRunToTheEnd, AsyncWebsocketConsumer):
    """One seeker's connection; a cancelled application still leaves the queue
    (games.edge.socket_turns): else its worker would keep its seek alive for others to pair."""

    async def connect(self) -> None:
        self.seek: dict[str, Any] | None = None
        self.me: tuple[int, int | None] = (0, None)  # the seek's id and account
        self.closed = False
        self.waiting_sent: Company | None = None
        self.last_count_at = 0.0
        self.count_task: asyncio.Task | None = None
        self.confirm_task: asyncio.Task | None = None
        conf = settings.MINERACE
        self.bucket = Bucket(conf["WS_RATE_PER_S"], conf["WS_RATE_BURST"])
        self.address = client_address_of(self.scope)
        if not await admit_socket(self, self.address):
            self.closed = True
            return

    async def disconnect(self, code: int) -> None:
        self.closed = True
        await sockets.socket_close(self.channel_name)
        for task in (self.count_task, self.confirm_task):
            if task is not None:
                task.cancel()
        if self.seek is not None:
            self.seek = None
            await db(services.seek_cancel)(channel=self.channel_name)
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def release_when_cancelled(self) -> None:
        if hasattr(self, "seek"):  # else cancelled before connect() began
            await self.disconnect(1006)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closed:
            return
        message: Any = None
        try:
            if text_data is None:
                raise ServiceError("bad_message", "frames must be text")
            if frame_too_long(text_data):
                await self.close(code=1009)
                return
            if not self.bucket.take().allowed:
                raise ServiceError("too_fast", "slow down: too many messages")
            message = load_frame(text_data)
            await self.on_message(check_frame(message), frame_id(message))
        except ServiceError as exc:
            await self.send_error(exc, message)
        except Exception:
            log.exception("quick-match frame failed")
            await self.send_error(ServiceError("internal", "the server failed; try again"), message)

    async def on_message(self, message: dict[str, Any], re: int | None) -> None:
        kind = message["type"]
        if kind == "ping":
            await self.send_frame({"type": "pong", "re": re})
        elif kind == "seek":
            await self.on_seek(message, re)
        elif kind == "cancel":
            await self.on_cancel(re)
        else:
            raise ServiceError("unknown_type", f"unknown message type '{kind[:32]}'")

    async def on_seek(self, message: dict[str, Any], re: int | None) -> None:
        if self.seek is not None:
            raise ServiceError("bad_message", "one seek per connection")
        await check_hello_rate(self.address)  # a seek is a hello: it makes a player
        seeker = await db(services.seek_start)(
            channel=self.channel_name,
            preset=message.get("preset"),
            no_guess=message.get("no_guess", False),
            no_flags=message.get("no_flags", False),
            name=message.get("name"),
            user=self.scope.get("user"),
            address=self.address,
        )
        self.seek = {
            "preset": seeker.preset,
            "no_guess": seeker.no_guess,
            "no_flags": seeker.no_flags,
        }
        self.me = (seeker.id, seeker.user_id)
        self.group = group_of(seeker.preset, seeker.no_guess, seeker.no_flags)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.waiting_sent = await db(self._company)()
        self.last_count_at = time.monotonic()
        await self.send_frame({**self._seeking(self.waiting_sent), "re": re})
        await match_and_tell(self.channel_layer)
        self.confirm_task = asyncio.ensure_future(self._confirm_soon())

    async def _confirm_soon(self) -> None:
        """Confirm this seek alive as soon as it may be (MATCH_CONFIRM_S after it), and try to
        pair it then, rather than at the worker's next pass, up to a second later. The pass
        runs apart: closing this connection cancels this task, and must not cut short a pass
        that is making (and telling) other seekers' races."""
        await asyncio.sleep(settings.MINERACE["MATCH_CONFIRM_S"])
        if self.seek is not None and not self.closed:
            await db(services.seek_confirm)(channel=self.channel_name)
            task = asyncio.ensure_future(match_and_tell(self.channel_layer))
            _detached.add(task)  # the loop keeps only a weak reference to a task
            task.add_done_callback(_detached.discard)

    async def on_cancel(self, re: int | None) -> None:
        if self.seek is None:
            raise ServiceError("bad_message", "there is no seek to cancel")
        self.seek = None
        await db(services.seek_cancel)(channel=self.channel_name)
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.send_frame({"type": "cancelled", "re": re})
        await match_and_tell(self.channel_layer)

    # ---- layer events ----------------------------------------------------------------------

    async def match_found(self, event: dict[str, Any]) -> None:
        if self.closed:
            return
        self.seek = None  # the row is gone with the match
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.send_frame({"type": "matched", "game": event["game"], "token": event["token"]})
        self.closed = True
        await self.close(code=1000)

    def _company(self) -> Company:
        """This seeker's company in the queue now (a read of the database)."""
        kinds = services.queue_seekers()
        queue = (self.seek["preset"], self.seek["no_guess"], self.seek["no_flags"])
        return company(self.me, kinds.get(queue, []))

    def _seeking(self, seen: Company) -> dict[str, Any]:
        """`seeking`'s fields; `note` only when something keeps another seeker apart."""
        note = {"note": seen.note} if seen.note else {}
        return {"type": "seeking", **self.seek, "waiting": seen.waiting, **note}

    async def seek_waiting(self, event: dict[str, Any]) -> None:
        """The queue changed: tell this seeker what it means for it, at most once a second."""
        if self.seek is None or self.closed:
            return
        seen = company(self.me, [(seek, account) for seek, account in event["seekers"]])
        if seen == self.waiting_sent:
            return
        wait = self.last_count_at + COUNT_INTERVAL_S - time.monotonic()
        if wait > 0:
            if self.count_task is None or self.count_task.done():
                self.count_task = asyncio.ensure_future(self._count_later(wait))
            return
        await self._send_count(seen)

    async def _count_later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        if self.seek is not None and not self.closed:
            await self._send_count(await db(self._company)())

    async def _send_count(self, seen: Company) -> None:
        if seen == self.waiting_sent:
            return
        self.waiting_sent = seen
        self.last_count_at = time.monotonic()
        await self.send_frame(self._seeking(seen))

    async def send_error(self, error: ServiceError, message: Any) -> None:
        re = frame_id(message) if isinstance(message, dict) else None
        await self.send_frame(
            {"type": "error", "code": error.code, "message": error.message, "re": re}
        )

    async def send_frame(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=frame_text(frame))
