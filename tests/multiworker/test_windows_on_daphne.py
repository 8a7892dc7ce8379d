"""The windows' limits of docs/protocol.md 6.3 on two real Daphne workers (PostgreSQL, Redis):
a program's account wins ranked beginner games over WebSockets, alternating workers, with
steady clicks, and the figures stored with each screened game show which earlier games its
windows reached.

- A cleared game's intervals never enter a later window: the moderator clears one game in
  the admin's queue, and the next game's window reaches the games around it, never it.
- A window that fires puts under review only the earlier games it reached that ended within
  the last 7 days: those moved back 8 days in the database keep their status.
- A window reaches at most MINERACE_FAIRPLAY_WINDOW_GAMES earlier games (lowered to 2 here).

Each scenario runs on workers of its own, whose environment sets the windows' sizes and
floors so that a window fires (or never fills) whatever the brain's clicks happen to be.
"""

from __future__ import annotations

import itertools
from datetime import timedelta

import psycopg
import pytest

from tests.multiworker.conftest import Cluster, make_cluster
from tests.multiworker.programs import Account, Played, sign_up, solo_win
from tests.multiworker.test_fairplay_on_daphne import review_row
from tests.multiworker.test_records_on_daphne import Browser

pytestmark = pytest.mark.services

PACE_MS = 20  # steady; no signal below judges the pace itself, the floors are set around it
TRIES = 10
NEVER_FULL = "100000"  # a window of this many intervals never fills: it judges nothing
# A beginner board has 71 safe cells, so a win has at most 70 intervals of its own.
MOST_OWN = 70
QUEUE = "/admin/fairplay/review/"
addresses = (f"203.0.113.{k}" for k in itertools.count(101))


def cluster_of(postgres, tmp_path, **env: str) -> Cluster:
    """Two workers where only the signal a scenario sets can fire: no pace ceiling (the
    program is far faster than a person), no metronome, a long window that never fills."""
    settings = {
        "MINERACE_TRUSTED_PROXIES": "127.0.0.1",
        "MINERACE_FAIRPLAY_PACE_BEGINNER": "1000000",
        "MINERACE_FAIRPLAY_WINDOW_LONG": NEVER_FULL,
        "MINERACE_FAIRPLAY_METRONOME_SHORT": "0",
        "MINERACE_FAIRPLAY_METRONOME_LONG": "0",
        **env,
    }
    return make_cluster(postgres, "redis://127.0.0.1:6379/0", tmp_path, **settings)


def restart(cluster: Cluster, **env: str) -> None:
    """The same cluster (database, Redis prefix, sessions) with its workers' environment
    changed, as an operator changes a setting."""
    count = len(cluster.workers)
    cluster.stop()
    cluster.workers = []
    cluster.env.update(env)
    for _ in range(count):
        cluster.start_worker()


async def win(cluster: Cluster, account: Account, k: int) -> Played:
    """A ranked beginner win on worker k % 2."""
    worker = cluster.workers[k % len(cluster.workers)]
    played, _ = await solo_win(worker.url, worker.ws_url, account, "beginner", PACE_MS, TRIES)
    assert played.status == "won"
    return played


def status_of(postgres_url: str, played: Played) -> str | None:
    return review_row(postgres_url, played.player_id)["status"]


def make_moderator(postgres_url: str, name: str) -> None:
    """Staff holding games.review_game, as an operator makes a moderator."""
    with psycopg.connect(postgres_url) as conn:
        conn.execute("UPDATE auth_user SET is_staff = true WHERE username = %s", (name,))
        conn.execute(
            "INSERT INTO auth_user_user_permissions (user_id, permission_id) "
            "SELECT u.id, p.id FROM auth_user u, auth_permission p "
            "JOIN django_content_type c ON p.content_type_id = c.id "
            "WHERE u.username = %s AND p.codename = 'review_game' AND c.app_label = 'games'",
            (name,),
        )


def review_id(postgres_url: str, played: Played) -> int:
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute(
            "SELECT id FROM fairplay_review WHERE player_id = %s", (played.player_id,)
        ).fetchone()
    return row[0]


def move_back(postgres_url: str, games: list[Played], by: timedelta) -> None:
    """The games ended `by` earlier than they did (the game's and its players' end)."""
    ids = [played.game_id for played in games]
    with psycopg.connect(postgres_url) as conn:
        for table in ("games_game", "games_player"):
            column = "id" if table == "games_game" else "game_id"
            conn.execute(
                f"UPDATE {table} SET finished_at = finished_at - %s WHERE {column} = ANY(%s)",
                (by, ids),
            )


async def test_a_cleared_games_intervals_never_enter_a_later_window(postgres, tmp_path):
    """Every win is under review (`pace`, its ceiling lowered below any win); the moderator
    clears the second in the admin on the other worker; the fourth game's window, which
    reaches back through every earlier game, holds the first and third and not the second."""
    cluster = cluster_of(
        postgres, tmp_path, MINERACE_FAIRPLAY_PACE_BEGINNER="0.001",
        MINERACE_FAIRPLAY_WINDOW_SHORT=NEVER_FULL,
    )  # fmt: skip
    try:
        account = sign_up(cluster.workers[0].url, "steady_a", next(addresses))
        games = [await win(cluster, account, k) for k in range(3)]
        for played in games:
            row = review_row(postgres.url, played.player_id)
            assert row["status"] == "under_review" and "pace" in row["signals"], row
        sign_up(cluster.workers[1].url, "mod_a", next(addresses))
        make_moderator(postgres.url, "mod_a")
        moderator = Browser(cluster.workers[1].url, "mod_a")
        action = {"action": "clear", "_selected_action": [review_id(postgres.url, games[1])]}
        page = moderator.post(QUEUE, action)
        assert "Cleared 1 game(s)." in page
        assert [status_of(postgres.url, p) for p in games] == [
            "under_review", "cleared", "under_review",
        ]  # fmt: skip

        fourth = await win(cluster, account, 3)
        row = review_row(postgres.url, fourth.player_id)
        window = row["windows"][NEVER_FULL]
        assert window["games"] == [games[2].game_id, games[0].game_id], window
        sizes = [len(review_row(postgres.url, p.player_id)["intervals"]) for p in games]
        assert window["size"] == len(row["intervals"]) + sizes[2] + sizes[0]
    finally:
        cluster.stop()


async def test_a_window_that_fires_holds_only_earlier_games_of_the_last_7_days(postgres, tmp_path):
    """Wins that no window judges until the account's games (but the latest) hold 71
    intervals; all but the latest are moved back 8 days; then the window is set to the
    latest's intervals + 71, so the next win's window fills and reaches the latest and at
    least one game before it whatever its own count (at most 70), and `reaction` fires (its
    floor above any click). The latest goes under review with it; the older ones it reached
    keep their status."""
    cluster = cluster_of(
        postgres, tmp_path, MINERACE_FAIRPLAY_REACTION_MS="1000000",
        MINERACE_FAIRPLAY_WINDOW_SHORT=NEVER_FULL,
    )  # fmt: skip
    try:
        account = sign_up(cluster.workers[0].url, "steady_b", next(addresses))
        games: list[Played] = []
        sizes: list[int] = []
        while len(games) < 2 or sum(sizes[:-1]) <= MOST_OWN:
            assert len(games) < 20, sizes
            played = await win(cluster, account, len(games))
            row = review_row(postgres.url, played.player_id)
            assert row["status"] is None and not row["signals"], row
            games.append(played)
            sizes.append(len(row["intervals"]))
        move_back(postgres.url, games[:-1], timedelta(days=8))
        n = str(sizes[-1] + MOST_OWN + 1)
        restart(cluster, MINERACE_FAIRPLAY_WINDOW_SHORT=n)

        fired = await win(cluster, account, len(games))
        row = review_row(postgres.url, fired.player_id)
        assert row["status"] == "under_review", row
        reaction = row["signals"]["reaction"]
        assert reaction["window"] == int(n) and reaction["size"] == int(n), reaction
        assert reaction["games"] == row["windows"][n]["games"]
        by_id = {played.game_id: played for played in games}
        reached = [by_id[game_id] for game_id in reaction["games"]]
        assert reached[0] is games[-1] and len(reached) >= 2, reaction
        latest = review_row(postgres.url, games[-1].player_id)
        assert latest["status"] == "under_review" and latest["signals"]["reaction"] == reaction
        assert latest["window_id"] == review_id(postgres.url, fired)
        for older in reached[1:]:  # ended 8 days ago: reached, not put under review
            earlier = review_row(postgres.url, older.player_id)
            assert earlier["status"] is None and earlier["window_id"] is None, earlier
            assert not earlier["signals"], earlier
    finally:
        cluster.stop()


async def test_a_window_reaches_at_most_the_settings_number_of_earlier_games(postgres, tmp_path):
    """MINERACE_FAIRPLAY_WINDOW_GAMES=2 and a window that never fills: the fourth win's window
    takes every interval of the third and second games, and none of the first."""
    cluster = cluster_of(
        postgres, tmp_path, MINERACE_FAIRPLAY_WINDOW_GAMES="2",
        MINERACE_FAIRPLAY_WINDOW_SHORT=NEVER_FULL,
    )  # fmt: skip
    try:
        account = sign_up(cluster.workers[0].url, "steady_c", next(addresses))
        games = [await win(cluster, account, k) for k in range(4)]
        rows = [review_row(postgres.url, played.player_id) for played in games]
        window = rows[3]["windows"][NEVER_FULL]
        assert window["games"] == [games[2].game_id, games[1].game_id], window
        own = [len(row["intervals"]) for row in rows]
        assert window["size"] == own[3] + own[2] + own[1], (window, own)
        assert rows[2]["windows"][NEVER_FULL]["games"] == [games[1].game_id, games[0].game_id]
    finally:
        cluster.stop()
