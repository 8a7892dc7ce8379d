"""A decided race (docs/protocol.md 2.2) on two Daphne workers with PostgreSQL and Redis: the racer
who decides it is on one worker, the racer still playing and a spectator on the other; every
connection hears `decided` once, the ratings are written once in the deciding transaction
(a kill -9 of the decider's worker afterwards loses nothing), and game_over keeps the ranks."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from tests.multiworker.programs import sign_up
from tests.multiworker.racing import board, create_race, ready_and_start, safe_cells_in_order
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services


def rate(postgres_url: str, game_id: str) -> None:
    """Make the race rated, as quick match creates it (its seed stays the tests' own)."""
    with psycopg.connect(postgres_url) as conn:
        conn.execute("UPDATE games_game SET rated = true WHERE id = %s", (game_id,))


def rating_rows(postgres_url: str, game_id: str) -> tuple[list[tuple], str, list[tuple]]:
    """(the race's rating changes, its status, every account's rated games count)."""
    with psycopg.connect(postgres_url) as conn:
        changes = conn.execute(
            "SELECT player_id, before, after, rank FROM ratings_ratingchange WHERE game_id = %s "
            "ORDER BY rank",
            (game_id,),
        ).fetchall()
        (status,) = conn.execute(
            "SELECT status FROM games_game WHERE id = %s", (game_id,)
        ).fetchone()
        games = conn.execute(
            "SELECT user_id, games FROM ratings_rating ORDER BY user_id"
        ).fetchall()
    return changes, status, games


async def account_joins(ws_url: str, game_id: str, account) -> tuple[WsClient, dict]:
    client = await WsClient(ws_url, game_id, headers=account.headers()).connect()
    welcome = await client.request({"type": "hello", "role": "player"})
    assert welcome["type"] == "welcome", welcome
    return client, welcome


async def spectator(ws_url: str, game_id: str) -> WsClient:
    client = await WsClient(ws_url, game_id).connect()
    assert (await client.request({"type": "hello", "role": "spectator"}))["type"] == "welcome"
    return client


async def win(client: WsClient) -> dict:
    for x, y in safe_cells_in_order(board()):
        answer = await client.request({"type": "reveal", "x": x, "y": y})
        if answer["status"] == "won":
            return answer
    raise AssertionError("no win")


def ranks(frame: dict) -> list[tuple[int, str, int | None, int | None]]:
    return [(r["rank"], r["name"], r["rating_before"], r["rating_after"]) for r in frame["results"]]


async def test_decided_crosses_workers_once_and_rates_once_surviving_a_kill9(cluster, postgres):
    decider_worker, other_worker = cluster.workers
    ada = sign_up(decider_worker.url, "ada", "198.51.100.1")
    bea = sign_up(other_worker.url, "bea", "198.51.100.2")
    game_id = create_race(decider_worker.url)
    rate(postgres.url, game_id)
    ada_client, _ = await account_joins(decider_worker.ws_url, game_id, ada)
    bea_client, _ = await account_joins(other_worker.ws_url, game_id, bea)
    watcher = await spectator(other_worker.ws_url, game_id)
    await ready_and_start([ada_client, bea_client], [watcher])
    opening = safe_cells_in_order(board())
    await bea_client.request({"type": "reveal", "x": opening[0][0], "y": opening[0][1]})

    await win(ada_client)  # on the decider's worker
    mine = await ada_client.until("decided", timeout=10)
    theirs = await bea_client.until("decided", timeout=10)  # crossed to the other worker
    watched = await watcher.until("decided", timeout=10)
    assert ranks(mine) == ranks(theirs) == ranks(watched)
    assert [(r["rank"], r["name"], r["status"]) for r in theirs["results"]] == [
        (1, "ada", "won"),
        (2, "bea", "playing"),
    ]
    (_, ada_before, ada_after), (_, bea_before, bea_after) = [x[1:] for x in ranks(theirs)]
    assert ada_after > ada_before and bea_after < bea_before

    # Written in the deciding transaction: there while the race still runs.
    changes, status, games = rating_rows(postgres.url, game_id)
    assert status == "running" and [(c[1], c[2], c[3]) for c in changes] == [
        (ada_before, ada_after, 1),
        (bea_before, bea_after, 2),
    ]
    assert [g for _, g in games] == [1, 1]

    decider_worker.kill9()  # nothing of the decision may depend on that worker any more
    late = opening[-1]
    answer = await bea_client.request({"type": "reveal", "x": late[0], "y": late[1]})
    assert answer["type"] == "cells" and answer["status"] == "playing"  # she may play on
    await bea_client.request({"type": "resign"})
    over = await bea_client.until("game_over", timeout=10)
    assert ranks(over) == ranks(theirs)
    assert ranks(await watcher.until("game_over", timeout=10)) == ranks(theirs)
    assert len(bea_client.of_type("decided")) == len(watcher.of_type("decided")) == 1
    assert rating_rows(postgres.url, game_id)[0] == changes  # not rated again at the end
    assert [g for _, g in rating_rows(postgres.url, game_id)[2]] == [1, 1]
    for client in (bea_client, watcher):
        await client.close()
    cluster.workers.remove(decider_worker)
    cluster.start_worker()


async def test_two_racers_finishing_at_once_on_two_workers_decide_it_once(cluster, postgres):
    """The last winning click on one worker and a resignation on the other, sent together:
    whichever commits second sees the first under the game's lock, so one decides. (They once
    deadlocked: tests/races/deciding_locks.py shows why, on PostgreSQL.)"""
    first, second = cluster.workers[-2:]
    cai = sign_up(first.url, "cai", "198.51.100.3")
    dov = sign_up(second.url, "dov", "198.51.100.4")
    game_id = create_race(first.url)
    rate(postgres.url, game_id)
    cai_client, _ = await account_joins(first.ws_url, game_id, cai)
    dov_client, _ = await account_joins(second.ws_url, game_id, dov)
    await ready_and_start([cai_client, dov_client])
    cells = safe_cells_in_order(board())
    await dov_client.request({"type": "reveal", "x": cells[0][0], "y": cells[0][1]})
    remaining = set(cells)
    for x, y in cells:  # every safe cell but one (the board's last cell opens nothing else)
        if (x, y) in remaining and len(remaining) > 1:
            answer = await cai_client.request({"type": "reveal", "x": x, "y": y})
            assert answer["status"] == "playing", answer
            remaining -= {(c[0], c[1]) for c in answer["cells"]}
    [last] = remaining
    await asyncio.gather(
        cai_client.send({"type": "reveal", "x": last[0], "y": last[1]}),
        dov_client.send({"type": "resign"}),
    )
    for client in (cai_client, dov_client):
        # The other's `decided` crosses the layer and may come after this worker's game_over.
        while not (client.of_type("game_over") and client.of_type("decided")):
            await client.recv(timeout=10)
        assert (await client.request({"type": "ping"}))["type"] == "pong"
        assert len(client.of_type("decided")) == 1
        [decided], [over] = client.of_type("decided"), client.of_type("game_over")
        assert ranks(decided) == ranks(over)
    changes, status, _ = rating_rows(postgres.url, game_id)
    assert status == "finished" and len(changes) == 2
    for client in (cai_client, dov_client):
        await client.close()


async def test_a_click_and_a_resignation_aborts_the_race_on_every_worker(cluster, postgres):
    """docs/protocol.md 6.2 (v1.3): eve clicks once on one worker and resigns; fay, on the other,
    wins later. Both workers' frames say `aborted`, and no rating moved in the database."""
    first, second = cluster.workers[-2:]
    eve = sign_up(first.url, "eve", "198.51.100.5")
    fay = sign_up(second.url, "fay", "198.51.100.6")
    game_id = create_race(first.url)
    rate(postgres.url, game_id)
    eve_client, _ = await account_joins(first.ws_url, game_id, eve)
    fay_client, _ = await account_joins(second.ws_url, game_id, fay)
    watcher = await spectator(second.ws_url, game_id)
    await ready_and_start([eve_client, fay_client], [watcher])
    x, y = safe_cells_in_order(board())[0]
    await eve_client.request({"type": "reveal", "x": x, "y": y})
    await eve_client.request({"type": "resign"})
    for client in (eve_client, fay_client, watcher):
        decided = await client.until("decided", timeout=10)
        assert (decided["aborted"], decided["aborted_because"]) == (True, "left_early")
    await win(fay_client)
    for client in (fay_client, watcher):
        over = await client.until("game_over", timeout=10)
        assert over["aborted"] is True
        assert {(r["rating_before"], r["rating_after"]) for r in over["results"]} == {(1000, 1000)}
    changes, status, _ = rating_rows(postgres.url, game_id)
    assert status == "finished" and {(c[1], c[2]) for c in changes} == {(1000, 1000)}
    # Neither account has a rated game counted (the module's other tests rate their own).
    with psycopg.connect(postgres.url) as conn:
        counted = conn.execute(
            "SELECT r.games FROM ratings_rating r JOIN auth_user u ON u.id = r.user_id"
            " WHERE u.username IN ('eve', 'fay')"
        ).fetchall()
    assert all(count == 0 for (count,) in counted)
    for client in (eve_client, fay_client, watcher):
        await client.close()
