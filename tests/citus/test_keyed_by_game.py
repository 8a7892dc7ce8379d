"""Every per-game query of a move, a finish and a spectator's welcome is keyed by the game id,
so games can be distributed by id later (Citus: docs/deploy.md section 10.5) with each of these
queries going to one node. The test lists the queries and fails on one that reads or writes a
per-game table without the game id in its WHERE (or its INSERT's values).

Runs on the default database (SQLite) and on PostgreSQL (test_keyed_by_game_on_postgres.py).
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.moves import services
from games.play.welcome import welcome_view
from tests.moves.test_move_store import A_MINE, OPENING, running_race

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_move_caches")]

# Tables whose rows belong to one game: distributed by game id, co-located with games_game.
PER_GAME = {
    "games_game": "id",
    "games_player": "game_id",
    "games_move": "game_id",
    "games_score": "game_id",
    "games_outboxevent": "game_id",
    "presence_connection": "game_id",
    "presence_playerpresence": "game_id",
    "fairplay_review": "game_id",
    "fairplay_report": "game_id",
    "ratings_ratingchange": "game_id",
    "tournaments_arenarace": "game_id",
}


def tables_of(sql: str) -> set[str]:
    return {t for t in PER_GAME if re.search(rf'\b"?{t}"?\b', sql)}


def keyed(sql: str, table: str) -> bool:
    """The statement names the game id of `table` as a condition or a written value."""
    column = PER_GAME[table]
    condition = rf'"?{table}"?\."?{column}"?\s*(=|IN\b)'
    bare = rf'\b"?{column}"?\s*(=|IN\b)'
    inserted = rf'INSERT INTO "?{table}"?\s*\([^)]*"?{column}"?'
    return any(re.search(p, sql, re.IGNORECASE) for p in (condition, bare, inserted))


def unkeyed(queries: list[dict]) -> list[str]:
    return [
        f"{table}: {q['sql']}"
        for q in queries
        for table in sorted(tables_of(q["sql"]))
        if not keyed(q["sql"], table)
    ]


def captured(action) -> list[dict]:
    with CaptureQueriesContext(connection) as context:
        action()
    return context.captured_queries


def test_a_move_a_finish_and_a_welcome_are_keyed_by_the_game():
    game, (alice, bob) = running_race(racers=2)
    of_game = {"game_id": game.id}  # as the game socket plays a move: it knows its game
    listing = {
        "move": captured(lambda: services.move_apply(player_id=alice.id, move=OPENING, **of_game)),
        "finish": captured(lambda: services.move_apply(player_id=bob.id, move=A_MINE, **of_game)),
        "welcome": captured(lambda: welcome_view(game_id=game.id, player_id=None, spectator=True)),
    }
    for name, queries in listing.items():
        print(f"--- {name}: {len(queries)} queries")
        for query in queries:
            print(query["sql"])
    problems = {name: unkeyed(queries) for name, queries in listing.items()}
    assert all(queries for queries in listing.values())
    assert problems == {name: [] for name in listing}, problems
