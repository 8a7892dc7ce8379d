"""Garbage against every /api/ route and method, through the ASGI application as Daphne calls
it: bodies of any JSON value, almost-JSON, deep nesting, huge numbers, NaN, lone surrogates,
bytes that are not UTF-8, any Content-Type and Content-Length, and hostile query strings.

Invariants (docs/protocol.md 3): never a 500, a documented status and code, the error shape on
every error, and a refused POST creates no game.
"""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone
from hypothesis import assume, given, note

from games.models import Game, GameStatus
from games.races import lifecycle
from games.races.spec import game_spec
from tests.fuzz import known_bugs
from tests.fuzz.budget import fuzz_settings
from tests.fuzz.edge_http import assert_documented, creates_game, request
from tests.fuzz.http_inputs import Garbage, fill, garbage, parsed
from tests.scores.play import play_solo

pytestmark = pytest.mark.django_db(transaction=True)


def _known_games() -> dict[str, str]:
    """A solo game and a race in the lobby, and a finished ranked game won by alice."""
    solo = lifecycle.game_create(spec=game_spec({"preset": "beginner"}))
    race = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "beginner"}))
    finished = play_solo("beginner", "alice", win=True)
    assert finished.status == GameStatus.FINISHED
    return {
        "<solo>": solo.id,
        "<race>": race.id,
        "<finished>": finished.id,
        "<player>": finished.players.get().id,
        "<today>": timezone.now().date().isoformat(),
    }


def _count_games() -> int:
    return Game.objects.count()


@fuzz_settings(100)
@given(g=garbage)
async def test_every_api_route_answers_garbage_as_documented(g: Garbage) -> None:
    known = await _known()
    path, query = fill(g, known)
    assume(not known_bugs.http(unquote(path), parsed(g.body)))
    headers = []
    if g.content_type is not None:
        headers.append((b"content-type", g.content_type))
    lengths = {"right": str(len(g.body)), "huge": "99999999999", "small": "1", "junk": "12a"}
    if g.length in lengths:
        headers.append((b"content-length", lengths[g.length].encode()))
    note(f"{g.method} {path}?{query!r} {headers!r} body={g.body[:500]!r}")
    before = await database_sync_to_async(_count_games)()
    answer = await request(g.method, path, query, g.body, headers)
    assert_documented(answer, g.method, unquote(path))
    created = 1 if creates_game(g.method, unquote(path), answer.status) else 0
    assert await database_sync_to_async(_count_games)() == before + created, str(answer)


_games: dict[str, str] = {}


async def _known() -> dict[str, str]:
    """The known games, made once per test (the database is emptied after each test)."""
    if (
        not _games
        or not await database_sync_to_async(Game.objects.filter(pk=_games["<solo>"]).exists)()
    ):
        _games.clear()
        _games.update(await database_sync_to_async(_known_games)())
    return _games
