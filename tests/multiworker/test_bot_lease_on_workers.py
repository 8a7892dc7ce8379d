"""A bot is driven by exactly one worker, and another takes over when that one is killed -9."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from itertools import count

import psycopg
import pytest

from games.engine import generate_board, start_cell
from games.engine.noguess import is_no_guess
from tests.multiworker.racing import http_json, join, watch
from tests.support.waiting import async_wait_until

pytestmark = pytest.mark.services


def seat(url: str, game_id: str) -> tuple[str, int, str]:
    """The bot's driver, its moves so far and its status."""
    with psycopg.connect(url) as conn:
        worker, moves, status = conn.execute(
            "SELECT s.worker, p.moves_count, p.status FROM bots_botseat s JOIN games_player p"
            " ON p.id = s.player_id WHERE s.game_id = %s",
            (game_id,),
        ).fetchone()
    return worker, moves, status


def no_guess_race_seed(width: int, height: int, mines: int) -> str:
    """A classic race's seed whose board needs no guess from its start cell. A bot reveals
    only cells its exact solver proves safe while there are any, and more knowledge keeps a
    proven cell proven: on such a board it never guesses, so never loses, whatever its own
    choices. On a random intermediate board it guesses at times, and lost within its first
    four moves in 4 of 2,000 boards tried: it was then no one's to take over, and the wait
    for another worker's move timed out."""
    for k in count():
        seed = f"bot-lease-{k}"
        start = start_cell(width, height, seed)
        if is_no_guess(generate_board(width, height, mines, seed, start), start):
            return seed
    raise AssertionError("unreachable")


def seat_once(
    url: str, game_id: str, check: Callable[[str, int, str], bool]
) -> Callable[[], tuple[str, int, str] | None]:
    """A predicate to wait on: the bot's seat (as `seat`) once `check` holds for it."""

    def predicate() -> tuple[str, int, str] | None:
        row = seat(url, game_id)
        return row if check(*row) else None

    return predicate


async def test_the_bots_worker_is_killed_and_another_drives_it_to_the_end(cluster, postgres):
    a, b = cluster.workers
    extra = cluster.start_worker()
    seed = no_guess_race_seed(16, 16, 40)
    state = http_json(a.url + "/api/games/", {"mode": "race", "preset": "intermediate",
                                              "bot": "quick", "seed": seed})  # fmt: skip
    game_id = state["id"]
    human, _ = await join(a.ws_url, game_id, "ada")
    # A connection on every worker, so each runs its bot pass.
    watchers = [(await watch(w.ws_url, game_id))[0] for w in (b, extra)]
    assert (await human.request({"type": "ready"}))["type"] == "ready"
    await human.until("started", timeout=10)

    worker, moves_before, _ = await async_wait_until(
        seat_once(postgres.url, game_id, lambda _driver, moves, _status: moves >= 3),
        message="the bot to make three moves",
        timeout=20,
        interval=0.2,
    )
    pids = {w.process.pid: w for w in (a, b, extra)}
    owner = next(w for pid, w in pids.items() if f":{pid}:" in worker)
    owner.kill9()
    killed_at = time.monotonic()

    new_worker, moves_taken_over, _ = await async_wait_until(
        seat_once(
            postgres.url,
            game_id,
            lambda driver, moves, _status: driver != worker and moves > moves_before,
        ),
        message="another worker to drive the bot on",
        timeout=30,
        interval=0.2,
    )
    taken_over = time.monotonic() - killed_at
    assert taken_over < 5 + 1 + 3  # the lease, a pass, slack
    survivors = [w for w in (a, b, extra) if w is not owner]
    assert any(f":{w.process.pid}:" in new_worker for w in survivors)

    # The new driver plays on (unless that move ended the bot's race): more moves, each seq
    # once, in order.
    await async_wait_until(
        seat_once(
            postgres.url,
            game_id,
            lambda _driver, moves, status: moves > moves_taken_over + 1 or status != "playing",
        ),
        message="the new driver's next moves",
        interval=0.2,
    )
    with psycopg.connect(postgres.url) as conn:
        seqs = [row[0] for row in conn.execute(
            "SELECT m.seq FROM games_move m JOIN games_player p ON p.id = m.player_id"
            " WHERE m.game_id = %s AND p.is_bot ORDER BY m.id", (game_id,),
        )]  # fmt: skip
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) > moves_before
    for client in [*watchers, human]:
        with contextlib.suppress(Exception):
            await client.close()
