"""A player's moves counted in its connection's process while it has one connection, in the
shared bucket once it has more (games.edge.socket_limits.MoveLimit, issue 23.2). The shared
bucket here is the process's (no Redis); tests/multiworker/test_move_limit_on_workers.py counts
the Redis commands of real workers."""

import pytest

from games.limits import buckets
from tests.play.helpers import Client, create_game

pytestmark = pytest.mark.django_db(transaction=True)

CUSTOM = {"width": 30, "height": 16, "mines": 99, "seed": "limits"}


def limits(settings, **values):
    settings.MINERACE = {**settings.MINERACE, **values}


@pytest.fixture
def shared_takes(monkeypatch):
    """Every take from the shared bucket of a player's moves, as (cost, cap)."""
    taken = []
    atake = buckets.atake

    async def counting(kind, key, rate_per_s, burst, *, cost=1, cap=None):
        if kind == "moves":
            taken.append((cost, cap))
        return await atake(kind, key, rate_per_s, burst, cost=cost, cap=cap)

    monkeypatch.setattr(buckets, "atake", counting)
    return taken


async def test_one_connection_counts_its_moves_itself(settings, shared_takes):
    limits(settings, PLAYER_MOVE_BURST=5, PLAYER_MOVE_RATE_PER_S=0.001)
    game_id = await create_game(**CUSTOM)
    alone = await Client(game_id).connect()
    welcome = await alone.request({"type": "hello", "role": "player", "name": "solo"})
    answers = [await alone.request({"type": "flag", "x": k, "y": 0}) for k in range(7)]
    assert [a["type"] for a in answers] == ["cells"] * 5 + ["error"] * 2
    assert {a["code"] for a in answers[5:]} == {"too_fast"}
    assert shared_takes == [(1, None)]  # the first move only: how many are left
    await alone.close()
    assert shared_takes[1][0] == 0 and shared_takes[1][1] < 1  # the count handed back

    # A reconnect starts from that count, not from a fresh burst.
    again = await Client(game_id).connect()
    await again.request({"type": "hello", "role": "player", "token": welcome["token"]})
    refused = await again.request({"type": "flag", "x": 9, "y": 1})
    assert (refused["type"], refused["code"]) == ("error", "too_fast")
    await again.close()


async def test_a_second_connection_moves_the_first_to_the_shared_bucket(settings, shared_takes):
    limits(settings, PLAYER_MOVE_BURST=6, PLAYER_MOVE_RATE_PER_S=0.001)
    game_id = await create_game(**CUSTOM)
    first = await Client(game_id).connect()
    welcome = await first.request({"type": "hello", "role": "player", "name": "twins"})
    for k in range(3):  # counted in the first connection's process: 3 left
        assert (await first.request({"type": "flag", "x": k, "y": 0}))["type"] == "cells"
    assert len(shared_takes) == 1
    second = await Client(game_id).connect()
    await second.request({"type": "hello", "role": "player", "token": welcome["token"]})
    await first.nothing_more()  # the first has heard of the second by now
    # The first's next move goes to the shared bucket, capped at the 3 it had left.
    assert (await first.request({"type": "flag", "x": 3, "y": 0}))["type"] == "cells"
    assert shared_takes[-1] == (1, pytest.approx(3, abs=0.01))
    answers = [await (first, second)[k % 2].request({"type": "flag", "x": k, "y": 1})
               for k in range(4)]  # fmt: skip
    assert [a["type"] for a in answers] == ["cells", "cells", "error", "error"]
    assert len(shared_takes) == 6  # every move since the second connection
    for client in (first, second):
        await client.close()
    assert len(shared_takes) == 6  # nothing to hand back: neither counts alone
