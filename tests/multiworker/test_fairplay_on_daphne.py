"""Programs against the screen (issue 20.6, issue 32.4; docs/protocol.md 6.3): the house bots'
brain plays as an account over a real Daphne on PostgreSQL and Redis, at 20, 50 and 100 ms a
click, at a steady 250 ms, and at 100 ms with a 1 s stall before every 12th click. Each
program wins ranked solo games of one preset (or plays rated races) until its account's
screened games hold 40 intervals: the game that brings it there is flagged by its window, at
the latest, and every earlier game that window holds is under review with it, each held off
the leaderboard, and so said in the account's own view. Nothing is let through
as a known gap: the windows of 6.3 reach back into a program's earlier games, so a beginner
win's few moves, or a few stalls, no longer hide a steady rhythm.
"""

from __future__ import annotations

import asyncio
import itertools

import psycopg
import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.programs import (
    Account,
    Pace,
    Played,
    http_json,
    play,
    quick_match,
    sign_up,
    solo_win,
)

pytestmark = pytest.mark.services

PACES = (Pace(20), Pace(50), Pace(100), Pace(250), Pace(100, stall_every=12, stall_ms=1000))
# Classic boards, where the brain must sometimes guess (it wins ~97 % and ~85 % of them), but
# expert's no-guess boards: a classic expert win takes ~2 games and sometimes 8, 55 s each at
# 250 ms a click. Both are ranked; the screen does not look at the variant.
NO_GUESS = {"beginner": False, "intermediate": False, "expert": True}
TRIES = 10
WINDOW = 40  # the server's default short window (config/settings.py), which the cluster runs
MAX_WINS = 12  # the brain's beginner wins have 4 intervals or more
addresses = (f"203.0.113.{k}" for k in itertools.count(1))


@pytest.fixture(scope="module")
def daphne(postgres, tmp_path_factory):
    """One worker that believes 127.0.0.1's X-Forwarded-For, so each program has an address
    of its own, as programs of different people do."""
    cluster = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("fairplay"), workers=1,
        MINERACE_TRUSTED_PROXIES="127.0.0.1",
    )  # fmt: skip
    yield cluster.workers[0]
    cluster.stop()


def review_row(postgres_url: str, player_id: str) -> dict:
    """The screen's row of a player: status, signals, timing, intervals, windows, counts."""
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute(
            "SELECT status, signals, timing, intervals, windows, counts, window_id "
            "FROM fairplay_review WHERE player_id = %s",
            (player_id,),
        ).fetchone()
    assert row is not None, f"player {player_id} was not screened"
    keys = ("status", "signals", "timing", "intervals", "windows", "counts", "window_id")
    return dict(zip(keys, row, strict=True))


def own_review(base_url: str, account: Account, game_id: str, player_id: str) -> str | None:
    """`review` in the account's own view of the game; a stranger's view has none."""
    mine = http_json(f"{base_url}/api/games/{game_id}/", account)
    stranger = http_json(f"{base_url}/api/games/{game_id}/")
    assert all("review" not in p for p in stranger["players"])
    (entry,) = [p for p in mine["players"] if p["id"] == player_id]
    return entry["review"]


class Program:
    """One program's account and the games it has had screened, oldest first."""

    def __init__(self, account: Account, pace: Pace) -> None:
        self.account, self.pace = account, pace
        self.games: list[Played] = []
        self.intervals = 0
        self.fired_at: int | None = None  # the game (1-based) first flagged when it ended

    def screened(self, postgres_url: str, played: Played) -> dict:
        row = review_row(postgres_url, played.player_id)
        self.games.append(played)
        self.intervals += len(row["intervals"])
        if row["signals"] and self.fired_at is None:
            self.fired_at = len(self.games)
            # game_over already knew: a held win is nobody's best and has no place.
            (over,) = [f for f in played.frames if f["type"] == "game_over"]
            (result,) = [r for r in over["results"] if r["player"] == played.player_id]
            assert not result.get("personal_best") and result.get("leaderboard_rank") is None
        print(f"{self.account.name} at {self.pace}: game {len(self.games)}, {self.intervals} "
              f"intervals, signals {sorted(row['signals'])}, windows {row['windows']}")  # fmt: skip
        return row

    def full(self) -> bool:
        return self.intervals >= WINDOW

    def check(self, postgres_url: str, base_url: str, preset: str, variant: str) -> None:
        """Flagged by the game that brought it to 40 intervals at the latest: that game's full
        window fires `reaction` or `metronome`, and every earlier game that window holds is
        under review with it (a game older than the window keeps its status, 6.3); each is
        off the board and so in the account's own view."""
        assert self.full(), f"{self.account.name} never reached {WINDOW} intervals"
        assert self.fired_at is not None and self.fired_at <= len(self.games), (
            f"a program passed the screen: {self.account.name} at {self.pace}"
        )
        last = self.games[-1]
        row = review_row(postgres_url, last.player_id)
        window_signals = {"reaction", "metronome"} & set(row["signals"])
        assert row["status"] == "under_review" and window_signals, (self.account.name, row)
        reached = {game for name in window_signals for game in row["signals"][name]["games"]}
        held = [last, *[p for p in self.games[:-1] if p.game_id in reached]]
        assert len(held) == len(reached) + 1
        for played in held:
            earlier = review_row(postgres_url, played.player_id)
            assert earlier["status"] == "under_review", (self.account.name, earlier)
            own = own_review(base_url, self.account, played.game_id, played.player_id)
            assert own == "under_review"
        board = http_json(f"{base_url}/api/leaderboards/{preset}/?variant={variant}")
        held_ids = {played.game_id for played in held}
        assert not held_ids & {e["game"] for e in board["entries"]}


@pytest.mark.parametrize("preset", ["beginner", "intermediate", "expert"])
async def test_programs_winning_ranked_solo_games_are_flagged_by_their_40th_interval(
    daphne, postgres, preset
):
    programs = [
        Program(sign_up(daphne.url, f"p{preset[:3]}{k}", next(addresses)), pace)
        for k, pace in enumerate(PACES)
    ]

    async def wins_until_full(program: Program) -> None:
        while not program.full():
            assert len(program.games) < MAX_WINS
            played, _ = await solo_win(
                daphne.url, daphne.ws_url, program.account, preset, program.pace, TRIES,
                NO_GUESS[preset],
            )  # fmt: skip
            assert played.status == "won"
            program.screened(postgres.url, played)

    await asyncio.gather(*(wins_until_full(program) for program in programs))
    variant = "no_guess" if NO_GUESS[preset] else "classic"
    for program in programs:
        program.check(postgres.url, daphne.url, preset, variant)


async def test_programs_in_rated_races_are_flagged_by_their_40th_interval(daphne, postgres):
    """Rated races per pace: two program accounts matched through /ws/match/ on a no-guess
    intermediate board (the brain never has to guess there, so both win), both screened,
    race after race (at most the pair's 3 rated races a day) until both hold 40 intervals."""
    pairs = [
        (Program(sign_up(daphne.url, f"racer{k}a", next(addresses)), pace),
         Program(sign_up(daphne.url, f"racer{k}b", next(addresses)), pace))
        for k, pace in enumerate(PACES)
    ]  # fmt: skip

    async def race(pair: tuple[Program, Program]) -> None:
        matched = await asyncio.gather(
            *(quick_match(daphne.ws_url, p.account, "intermediate", no_guess=True) for p in pair)
        )
        game = matched[0]["game"]
        assert game["rated"] and game["id"] == matched[1]["game"]["id"]
        played = await asyncio.gather(
            *(
                play(daphne.ws_url, p.account, game["id"], p.pace, token=m["token"])
                for p, m in zip(pair, matched, strict=True)
            )
        )
        results = http_json(f"{daphne.url}/api/games/{game['id']}/")["results"]
        for program, one in zip(pair, played, strict=True):
            row = program.screened(postgres.url, one)
            assert "rated" in row["counts"]
            (result,) = [r for r in results if r["player"] == one.player_id]
            assert result["rating_after"] is not None  # rated, and the change stands

    # One race at a time: pairs seeking together could be matched across (by rating).
    for pair in pairs:
        while not all(p.full() for p in pair):
            assert len(pair[0].games) < 3, "the pair's rated races of the day are spent"
            await race(pair)
    for pair in pairs:
        for program in pair:
            program.check(postgres.url, daphne.url, "intermediate", "no_guess")
            with psycopg.connect(postgres.url) as conn:
                games = conn.execute(
                    "SELECT r.games FROM ratings_rating r JOIN auth_user u ON u.id = r.user_id "
                    "WHERE u.username = %s",
                    (program.account.name,),
                ).fetchone()
            assert games == (len(program.games),)
