"""Fuzzed frames on /ws/match/: seek and cancel with every field varied, and garbage.

Invariants (docs/protocol.md 5): a refused frame is answered by one `error`
with a documented code (never `internal`), its `re` the frame's integer id; the queue and the
games are as before it; the connection stays open (but for 1009 over 64 KiB) and still
answers `ping`. One connection seeks at a time and no seeker is given a bot, so no match is
made and the queue is the only state a frame can change.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from hypothesis import given, note

from games.matchmaking.models import Seeker
from games.models import Game
from tests.fuzz.budget import fuzz_settings
from tests.fuzz.edge_ws import MATCH_CODES, Frame, Socket, check_answer
from tests.fuzz.frames import MATCH_TYPES, scripts

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("account")]


def queue_of() -> dict[str, Any]:
    """The queue (without the lease each pass renews) and how many games there are."""
    seekers = Seeker.objects.order_by("id").values_list(
        "id", "channel", "preset", "no_guess", "name", "user_id", "rating", "created_at"
    )
    return {"seekers": list(seekers), "games": Game.objects.count()}


queue = database_sync_to_async(queue_of)


@fuzz_settings(40)
@given(script=scripts(MATCH_TYPES))
async def test_the_quick_match_socket_keeps_its_edge(script: list[Frame]) -> None:
    socket = await Socket("/ws/match/").connect()
    try:
        before = await queue()
        for frame in script:
            note(f"frame {frame!r}")
            got = await socket.exchange(frame)
            refused = check_answer(frame, got, MATCH_CODES)
            after = await queue()
            if refused:
                assert after == before, f"a refused frame changed the queue: {frame!r}"
            if got.closed is not None:
                return
            before = after
    finally:
        await socket.close()
    assert await database_sync_to_async(Seeker.objects.count)() == 0  # closing cancels
