"""Driving bots on a worker's event loop: a pass each second claims the bot seats nobody
drives, and one task per claimed seat plays it move by move, through the one move service,
until its race ends or another worker holds the lease. What a bot does next is games/bots';
its brain runs in the board process (games.boards.search)."""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async

from games.boards.search import run_apart
from games.bots import services as bots
from games.bots.brain import next_cell
from games.engine import Reveal
from games.errors import ServiceError
from games.events.delivery import publish
from games.moves.on_loop import move_play
from games.runtime.db import db
from games.runtime.periodic import Pass

log = logging.getLogger(__name__)

PASS_INTERVAL_S = 1.0
_driving: dict[str, asyncio.Task] = {}


async def bots_pass() -> None:
    for player_id in await db(bots.seats_claim)():
        task = _driving.get(player_id)
        if task is None or task.done():
            _driving[player_id] = asyncio.ensure_future(drive(player_id))


async def drive(player_id: str) -> None:
    """Play one bot until its race is over for it."""
    number = 0
    while True:
        try:
            step = await db(bots.step_plan)(player_id=player_id, number=number)
            if step.kind == "stop":
                return
            await asyncio.sleep(step.delay_s)
            if step.kind == "wait":
                continue
            cell = await sync_to_async(run_apart, thread_sensitive=False)(next_cell, *step.args)
            width = step.args[0]
            move = Reveal(cell % width, cell // width)
            outcome = await move_play(player_id=player_id, move=move)
            number += 1
            await publish(outcome.events)
        except ServiceError as exc:
            if exc.events:
                await publish(exc.events)
            if exc.code in ("not_running", "not_a_player"):
                continue  # the race ended under it: the next plan says stop
            log.warning("bot %s: %s", player_id, exc)
            await asyncio.sleep(1)
        except Exception:
            log.exception("bot %s failed a step", player_id)
            await asyncio.sleep(1)


# A game's worker drives the bots of its races; a quick-match worker, the bot a seeker alone
# too long is given.
PASS = Pass("bots", lambda: PASS_INTERVAL_S, bots_pass, frozenset({"game", "match"}))
