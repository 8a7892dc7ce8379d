"""One worker's spectators of one game: subscribed once, the common ground kept once, frames
batched and written once for all of them (docs/protocol.md 4, v1.3).

A worker holding spectators of a game holds one *watch* of it: a channel of its own in the
game's group, so each event reaches the worker once however many watch. The watch turns a move
into what spectators may see (its counts with 3BV solved, and the cells new in the common
ground, never the move's own cells) and hands its spectators everything since their last
frame at most SPECTATOR_BATCH_HZ times a second: one `batch` text, or the messages one by one
for a client that did not ask for batches, each written once for the worker. Racers do not
wait for any of it: their own connections are fed by the layer directly, and a batch yields
the loop every SEND_SLICE spectators.

A spectator whose socket has more than SPECTATOR_BACKLOG_BYTES unsent is skipped instead of
queued to; once its socket has drained it is sent a fresh welcome (`"resync": true`) in place
of what it missed. A watch that sees a racer's `seq` skip one (an event lost on the layer)
reads the ground again and sends every spectator a fresh welcome.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import Any, Protocol

from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from games.edge.frames import frame_text
from games.edge.prebuilt_frames import text_frame
from games.engine.common_ground import CommonGround
from games.events import groups
from games.play.frame_views import progress_of
from games.play.welcome import board_units, common_ground_now, welcome_view
from games.runtime.db import db
from games.timefmt import iso

log = logging.getLogger(__name__)

SEND_SLICE = 200  # spectators sent to between two yields of the loop


class Spectator(Protocol):
    """A spectator's connection as a watch sees it."""

    batch: bool

    async def send_text(self, text: str) -> None: ...

    def write_prebuilt(self, frame: bytes) -> bool:
        """Write a frame built once for all (False: not written, send the text instead)."""

    def unsent_bytes(self) -> int | None:
        """What its socket still holds to send (None: not known)."""

    async def resync(self) -> None:
        """Send it a fresh welcome (which attaches it again)."""


class Watch:
    """The spectators of one game on this worker, and what they are owed."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.members = 0  # spectators attached or on their way (a hello in progress)
        self.cursors: dict[Spectator, int] = {}  # where in `log` each spectator's next frame starts
        self.behind: set[Spectator] = set()  # skipped until a fresh welcome attaches them again
        self.log: list[dict[str, Any]] = []  # messages since the last flush
        self.ground: CommonGround | None = None
        self.seqs: dict[str, int] = {}
        self.started_at: datetime | None = None
        self.has_units = False  # the ground knows the board's 3BV units (once it is fixed)
        self.over = False  # game_over has been seen: the welcome's state may be older
        self.channel: str | None = None
        self.ready: asyncio.Future = asyncio.get_running_loop().create_future()
        self.early: list[dict[str, Any]] = []  # events heard before the ground was read
        self.wake = asyncio.Event()
        self.released = asyncio.Event()  # cleared while the boards of a game just over are read
        self.released.set()
        self.tasks: list[asyncio.Task] = []

    # ---- starting and stopping ---------------------------------------------------------------

    async def start(self) -> None:
        """Subscribe, then read the ground: an event committed after the read is heard."""
        try:
            layer = get_channel_layer()
            self.channel = await layer.new_channel(prefix="watch.")
            await layer.group_add(groups.everyone(self.game_id), self.channel)
            self._spawn(self._listen(layer))
            await self._read()
        except Exception as exc:
            self.ready.set_exception(exc)
            return
        self._spawn(self._send_batches())
        self.ready.set_result(None)

    async def _read(self) -> None:
        """(Re)read the ground from the rows; what is heard meanwhile waits, then follows."""
        self.ground = None
        ground, seqs, state = await db(common_ground_now)(game_id=self.game_id)
        self.ground, self.seqs = ground, seqs
        self.has_units = state.get("start") is not None
        self.started_at = _parse(state.get("started_at"))
        self.over = state["status"] == "finished"
        early, self.early = self.early, []
        for event in early:
            self.heard(event)

    async def reread(self) -> None:
        """A move was missed: read the ground again, and welcome every spectator afresh."""
        while True:
            try:
                await self._read()
                break
            except Exception:  # the database is away for a moment: what is heard waits
                log.exception("watch of game %s could not read its ground again", self.game_id)
                await asyncio.sleep(1)
        self.log.clear()
        for spectator in list(self.cursors):
            self.fall_behind(spectator)

    def _spawn(self, work: Any) -> None:
        """Run `work` as a task of this watch (cancelled when it stops)."""
        self.tasks = [task for task in self.tasks if not task.done()]
        self.tasks.append(asyncio.ensure_future(work))

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        if self.channel is not None:
            with contextlib.suppress(Exception):
                await get_channel_layer().group_discard(groups.everyone(self.game_id), self.channel)

    # ---- spectators --------------------------------------------------------------------------

    def attach(self, spectator: Spectator, view: dict[str, Any]) -> dict[str, Any]:
        """Add a spectator whose welcome is `view` (read from the database): while the game
        runs its boards are the common ground as this watch has it, and its frames start
        after it. Synchronous, so no message falls between the welcome and the first batch."""
        self.cursors[spectator] = len(self.log)
        self.behind.discard(spectator)
        if view["game"]["status"] == "finished":
            return view
        if self.ground is None:  # being read again: every spectator is welcomed after it
            view["common"] = []
            return view
        view["common"] = [list(cell) for cell in self.ground.cells()]
        view["seqs"] = dict(self.seqs)
        view["seen"] = dict(self.seqs)
        view["bbbv_solved"] = {racer: self.ground.solved(racer) for racer in self.seqs}
        return view

    def detach(self, spectator: Spectator) -> None:
        self.cursors.pop(spectator, None)
        self.behind.discard(spectator)

    def fall_behind(self, spectator: Spectator) -> None:
        """Skip a spectator until a fresh welcome, sent once its socket has drained."""
        if spectator not in self.behind:
            self.behind.add(spectator)
            self._spawn(self._resync_when_drained(spectator))

    async def _resync_when_drained(self, spectator: Spectator) -> None:
        interval = 1 / settings.MINERACE["SPECTATOR_BATCH_HZ"]
        while spectator in self.behind and (spectator.unsent_bytes() or 0) > 0:
            await asyncio.sleep(interval)
        if spectator in self.behind:
            try:
                await spectator.resync()
            except Exception:
                log.exception("a spectator of game %s could not be welcomed again", self.game_id)

    # ---- hearing the game --------------------------------------------------------------------

    async def _listen(self, layer: Any) -> None:
        while True:
            try:
                message = await layer.receive(self.channel)
            except Exception:  # the layer lost Redis: hear again, and read what was missed
                log.warning("watch of game %s lost its layer", self.game_id, exc_info=True)
                await asyncio.sleep(1)
                self._spawn(self.reread())
                continue
            if message.get("type") != "game.event":
                continue
            try:
                self.heard(message)
            except Exception:  # one bad event must not silence the game for its spectators
                log.exception("watch of game %s failed on %s", self.game_id, message.get("kind"))

    def heard(self, event: dict[str, Any]) -> None:
        """A layer event of the game: what its spectators may see of it, in order."""
        if self.ground is None:
            self.early.append(event)
            return
        kind, payload = event["kind"], event["payload"]
        ground = self.ground
        if kind == "move":
            player = payload["player"]
            if payload["seq"] <= self.seqs.get(player, 0):
                return  # already in the ground this watch read
            if payload["seq"] > self.seqs.get(player, 0) + 1:
                self.early.append(event)  # heard again after the read, dropped if in it
                self.ground = None  # what comes meanwhile waits for the read too
                self._spawn(self.reread())
                return
            self.seqs[player] = payload["seq"]
            added = ground.uncover(player, payload["cells"])
            self._add("progress", self._progress(payload))
            if added:
                self._add("common", {"cells": [list(cell) for cell in added]})
            return
        self._add(kind, payload)
        if kind == "joined":
            ground.add_racer(payload["player"]["id"])
            self.seqs.setdefault(payload["player"]["id"], 0)
        elif kind == "left":
            self._add_common(ground.remove_racer(payload["player"]))
            self.seqs.pop(payload["player"], None)
        elif kind == "finished":
            self._add_common(ground.finish(payload["player"]))
        elif kind in ("countdown", "started"):
            self.started_at = _parse(payload.get("started_at"))
            if not self.has_units:  # the board was fixed after the ground was read
                self.has_units = True
                self._spawn(self._read_units())
        elif kind == "game_over":
            self.over = True
            self.released.clear()
            self._spawn(self._boards_after(len(self.log)))

    async def _boards_after(self, index: int) -> None:
        """Every board is public once the game is over: a fresh welcome that holds them goes
        to the spectators right after game_over, before anything heard since (a rematch)."""
        try:
            view = await db(welcome_view)(game_id=self.game_id, player_id=None, spectator=True)
            view.pop("seen")
            welcome = {"type": "welcome", "role": "spectator", "you": None, **view}
            self.log.insert(index, {**welcome, "now": iso(timezone.now()), "resync": True})
            for spectator, start in self.cursors.items():
                if start >= index:  # welcomed after game_over: its welcome has the boards
                    self.cursors[spectator] = start + 1
        except Exception:
            log.exception("the boards of game %s could not be read at its end", self.game_id)
        finally:
            self.released.set()
            self.wake.set()

    async def _read_units(self) -> None:
        units = await db(board_units)(game_id=self.game_id)
        if units is not None:
            self.ground.set_units(units)

    def _progress(self, payload: dict[str, Any]) -> dict[str, Any]:
        """A move's counts as spectators see them: with 3BV solved, efficiency and 3BV/s now."""
        frame = progress_of(payload)
        solved = self.ground.solved(payload["player"])
        clicks = payload["progress"]["clicks"]
        seconds = None
        if self.started_at is not None:
            seconds = (timezone.now() - self.started_at).total_seconds()
        frame["progress"] = {
            **payload["progress"],
            "bbbv_solved": solved,
            "efficiency": solved / clicks if clicks else None,
            "bbbv_per_s": solved / seconds if seconds and seconds > 0 else None,
        }
        return frame

    def _add_common(self, cells: list) -> None:
        if cells:
            self._add("common", {"cells": [list(cell) for cell in cells]})

    def _add(self, kind: str, payload: dict[str, Any]) -> None:
        self.log.append({"type": kind, **payload})
        self.wake.set()

    # ---- sending -----------------------------------------------------------------------------

    async def _send_batches(self) -> None:
        """Hand every spectator what is new, at most SPECTATOR_BATCH_HZ times a second."""
        interval = 1 / settings.MINERACE["SPECTATOR_BATCH_HZ"]
        while True:
            await self.wake.wait()
            await self.released.wait()
            self.wake.clear()
            try:
                await self.flush()
            except Exception:
                log.exception("watch of game %s could not send a batch", self.game_id)
            await asyncio.sleep(interval)

    async def flush(self) -> None:
        """Send each spectator the messages since its last frame, each text written once and
        each WebSocket frame built once (games.edge.prebuilt_frames): no per-spectator
        encoding, and a spectator costs one write to its socket."""
        messages, self.log = self.log, []
        cursors = self.cursors
        self.cursors = {spectator: 0 for spectator in cursors}
        texts: list[str | None] = [None] * len(messages)
        frames: dict[tuple[bool, int], list[tuple[str, bytes]]] = {}
        built: dict[int, bytes] = {}

        def single(index: int) -> bytes:  # one message's own frame, for clients without batch
            if index not in built:
                built[index] = text_frame(texts[index])
            return built[index]

        limit = settings.MINERACE["SPECTATOR_BACKLOG_BYTES"]
        for number, (spectator, start) in enumerate(cursors.items()):
            if number and number % SEND_SLICE == 0:
                await asyncio.sleep(0)  # racers' frames go out between slices
            if start >= len(messages) or spectator not in self.cursors:
                continue  # nothing new for it, or it left during this flush
            if spectator in self.behind:
                continue
            if (spectator.unsent_bytes() or 0) > limit:
                self.fall_behind(spectator)  # its queue would only grow: a welcome later
                continue
            outgoing = frames.get((spectator.batch, start))
            if outgoing is None:
                for index in range(start, len(messages)):
                    if texts[index] is None:
                        texts[index] = frame_text(messages[index])
                if spectator.batch:
                    batch = '{"type":"batch","messages":[' + ",".join(texts[start:]) + "]}"
                    outgoing = [(batch, text_frame(batch))]
                else:
                    outgoing = [(texts[i], single(i)) for i in range(start, len(messages))]
                frames[(spectator.batch, start)] = outgoing
            try:
                for text, frame in outgoing:
                    if not spectator.write_prebuilt(frame):
                        await spectator.send_text(text)
            except Exception:  # its socket closed under it: the others still get theirs
                log.info("a spectator of game %s is gone", self.game_id, exc_info=True)
                self.detach(spectator)


def _parse(moment: str | None) -> datetime | None:
    return datetime.fromisoformat(moment.replace("Z", "+00:00")) if moment else None


_watches: dict[tuple[asyncio.AbstractEventLoop, str], Watch] = {}


async def watch_join(game_id: str) -> Watch:
    """This worker's watch of a game, started by its first spectator (then read)."""
    key = (asyncio.get_running_loop(), game_id)
    watch = _watches.get(key)
    if watch is None:
        watch = _watches[key] = Watch(game_id)
        watch._spawn(watch.start())
    watch.members += 1
    try:
        await asyncio.shield(watch.ready)
    except BaseException:
        await watch_leave(watch, None)
        raise
    return watch


async def watch_leave(watch: Watch, spectator: Spectator | None) -> None:
    """A spectator is gone: the last one stops the worker's watch of the game."""
    if spectator is not None:
        watch.detach(spectator)
    watch.members -= 1
    if watch.members > 0:
        return
    key = (asyncio.get_running_loop(), watch.game_id)
    if _watches.get(key) is watch:
        del _watches[key]
    await watch.stop()
