"""Programs against the screen (issue 20, point 6): the house bots' brain plays as an account
over a real Daphne on PostgreSQL and Redis, at 20, 50 and 100 ms a click and at a steady
250 ms; each game it wins (a ranked solo game of each preset, a rated race) must be under
review when `game_over` goes out, in the screen's row and in the account's own view.

Two gaps of the signals as docs/protocol.md 6.3 defines them are known, and a game in one of them
is reported (xfail with its figures) instead of passing unseen:
- too few moves: a beginner win has fewer than 30 moves that change the board, so only `pace`
  judges it, and from 100 ms a click a program stays under beginner's ceiling of 12 3BV/s
  (so does one at 50 ms on a board of little 3BV: 13 moves, 11.4 3BV/s, seen in CI);
- between the signals: from 100 ms a click a program is slower than `reaction`'s 80 ms and
  under (or just over) the intermediate and expert ceilings, so only `metronome` can tell,
  and it does only while the intervals the server measures vary by less than 0.2 of their
  mean. They vary more when the program's own clicks do (its thinking, or a loaded machine
  starving it: "own variation" in the report is measured on its own clock) or when the server
  is loaded: `metronome` reads the server's clock at each move's step, which includes the
  server's queueing, and a standard deviation grows with a few stalls. The report adds the
  median absolute deviation over the median of the server's intervals, which stalls do not
  move (real players: 0.31 to 0.69).
Any other miss fails the test: at 20 and 50 ms a click, `reaction` or `pace` must flag every
win of 30 moves or more, if the program kept that pace (the median of its intervals on its own
clock; in CI, on a machine loaded enough, a 50 ms program once kept only 101 ms, and is judged
as the 100 ms one it was).
"""

from __future__ import annotations

import asyncio
import itertools
import statistics

import psycopg
import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.programs import (
    Account,
    Played,
    http_json,
    play,
    quick_match,
    sign_up,
    solo_win,
)

pytestmark = pytest.mark.services

PACES_MS = (20, 50, 100, 250)
# Classic boards, where the brain must sometimes guess (it wins ~97 % and ~85 % of them), but
# expert's no-guess boards: a classic expert win takes ~2 games and sometimes 8, 55 s each at
# 250 ms a click. Both are ranked; the screen does not look at the variant.
NO_GUESS = {"beginner": False, "intermediate": False, "expert": True}
TRIES = 10
# The server's defaults (config/settings.py), which the cluster runs with.
MIN_MOVES, METRONOME, REACTION_MS = 30, 0.2, 80
PACE_CEILING = {"beginner": 12.0, "intermediate": 9.0, "expert": 8.0}
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


def review_row(postgres_url: str, player_id: str) -> tuple[str | None, dict, dict, list]:
    """The screen's row of a player: status, signals, timing, what the game counted for."""
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute(
            "SELECT status, signals, timing, counts FROM fairplay_review WHERE player_id = %s",
            (player_id,),
        ).fetchone()
    assert row is not None, f"player {player_id} was not screened"
    return row


def own_review(base_url: str, account: Account, game_id: str, player_id: str) -> str | None:
    """`review` in the account's own view of the game; a stranger's view has none."""
    mine = http_json(f"{base_url}/api/games/{game_id}/", account)
    stranger = http_json(f"{base_url}/api/games/{game_id}/")
    assert all("review" not in p for p in stranger["players"])
    (entry,) = [p for p in mine["players"] if p["id"] == player_id]
    return entry["review"]


def own_variation(played: Played) -> float:
    """Standard deviation over mean of the program's intervals on its own clock."""
    gaps = [b - a for a, b in itertools.pairwise(played.sent_s)]
    return statistics.pstdev(gaps) / statistics.fmean(gaps)


def own_median_ms(played: Played) -> float:
    """The program's median interval on its own clock: its pace as it could keep it."""
    return 1000 * statistics.median(b - a for a, b in itertools.pairwise(played.sent_s))


def known_gap(preset: str, pace: float, timing: dict, bbbv_per_s: float) -> str | None:
    """Which known gap an unflagged program's win is in (module docstring), or None. `pace`
    is the slower of the pace asked for and the one the program kept (a machine loaded enough
    turns a 50 ms program into a 100 ms one, whose gap it then is in); one that kept under
    `reaction`'s 80 ms is in no gap."""
    if bbbv_per_s > PACE_CEILING[preset]:
        return None
    if timing["effective_moves"] < MIN_MOVES:
        return "too few moves"
    if pace < REACTION_MS:
        return None
    if timing["median_ms"] >= REACTION_MS and timing["variation"] >= METRONOME:
        return "between the signals"
    return None


def robust_spread(postgres_url: str, player_id: str) -> float:
    """Median absolute deviation over median of the intervals the server logged (every move
    of the brain changes the board): what a few stalls cannot move, unlike stdev / mean."""
    with psycopg.connect(postgres_url) as conn:
        times = [row[0] for row in conn.execute(
            "SELECT created_at FROM games_move WHERE player_id = %s ORDER BY seq", (player_id,)
        )]  # fmt: skip
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(times)]
    median = statistics.median(gaps)
    return statistics.median(abs(gap - median) for gap in gaps) / median


class Verdicts:
    """Each program's game, checked: flagged, or in a known gap (kept to report)."""

    def __init__(self, postgres_url: str, base_url: str) -> None:
        self.postgres_url, self.base_url = postgres_url, base_url
        self.gaps: list[str] = []

    def check(
        self, label: str, preset: str, pace: int, account: Account, played: Played
    ) -> list[str]:
        status, signals, timing, counts = review_row(self.postgres_url, played.player_id)
        (over,) = [f for f in played.frames if f["type"] == "game_over"]
        (result,) = [r for r in over["results"] if r["player"] == played.player_id]
        figures = (f"{label}: {result['bbbv_per_s']:.2f} 3BV/s, signals {signals}, timing "
                   f"{timing}, own variation {own_variation(played):.3f}, "
                   f"own median {own_median_ms(played):.0f} ms")  # fmt: skip
        print(figures)
        assert played.status == "won" and result["status"] == "won"
        if not signals:
            kept = max(pace, own_median_ms(played))
            gap = known_gap(preset, kept, timing, result["bbbv_per_s"])
            assert gap is not None, f"a program passed the screen: {figures}"
            spread = robust_spread(self.postgres_url, played.player_id)
            self.gaps.append(f"{gap}: {figures}, server MAD/median {spread:.3f}")
            return counts
        assert status == "under_review", figures
        # game_over already knew: a held win is nobody's personal best and has no place.
        assert not result.get("personal_best") and result.get("leaderboard_rank") is None
        assert own_review(self.base_url, account, played.game_id, played.player_id) == status
        variant = "no_guess" if over.get("ng_attempt") is not None else "classic"
        board = http_json(f"{self.base_url}/api/leaderboards/{preset}/?variant={variant}")
        assert account.name not in [e["name"] for e in board["entries"]]
        return counts

    def report(self) -> None:
        if self.gaps:
            pytest.xfail("known gaps of the signals:\n" + "\n".join(self.gaps))


@pytest.mark.parametrize("preset", ["beginner", "intermediate", "expert"])
async def test_a_program_winning_ranked_solo_games_is_flagged(daphne, postgres, preset):
    accounts = [
        sign_up(daphne.url, f"prog{preset[:3]}{pace}", next(addresses)) for pace in PACES_MS
    ]
    wins = await asyncio.gather(
        *(
            solo_win(daphne.url, daphne.ws_url, account, preset, pace, TRIES, NO_GUESS[preset])
            for account, pace in zip(accounts, PACES_MS, strict=True)
        )
    )
    verdicts = Verdicts(postgres.url, daphne.url)
    for account, pace, (played, games) in zip(accounts, PACES_MS, wins, strict=True):
        label = f"{preset} {pace} ms ({games} game(s) to a win)"
        assert verdicts.check(label, preset, pace, account, played) == ["leaderboard"]
    verdicts.report()


async def test_programs_in_rated_races_are_flagged(daphne, postgres):
    """A rated race per pace: two program accounts matched through /ws/match/ on a no-guess
    intermediate board (the brain never has to guess there, so both win), both screened."""
    pairs = [
        (sign_up(daphne.url, f"racer{pace}a", next(addresses)),
         sign_up(daphne.url, f"racer{pace}b", next(addresses)))
        for pace in PACES_MS
    ]  # fmt: skip

    async def race(pair: tuple[Account, Account], pace: int) -> tuple[str, list[Played]]:
        matched = await asyncio.gather(
            *(quick_match(daphne.ws_url, a, "intermediate", no_guess=True) for a in pair)
        )
        game = matched[0]["game"]
        assert game["rated"] and game["id"] == matched[1]["game"]["id"]
        played = await asyncio.gather(
            *(
                play(daphne.ws_url, a, game["id"], pace, token=m["token"])
                for a, m in zip(pair, matched, strict=True)
            )
        )
        return game["id"], played

    # One race at a time: pairs seeking together could be matched across (by rating).
    races = [await race(pair, pace) for pair, pace in zip(pairs, PACES_MS, strict=True)]
    verdicts = Verdicts(postgres.url, daphne.url)
    for pace, pair, (game_id, played) in zip(PACES_MS, pairs, races, strict=True):
        results = http_json(f"{daphne.url}/api/games/{game_id}/")["results"]
        for account, one in zip(pair, played, strict=True):
            label = f"race {pace} ms {account.name}"
            counts = verdicts.check(label, "intermediate", pace, account, one)
            assert "rated" in counts
            (result,) = [r for r in results if r["player"] == one.player_id]
            assert result["rating_after"] is not None  # rated, and the change stands
            with psycopg.connect(postgres.url) as conn:
                games = conn.execute(
                    "SELECT r.games FROM ratings_rating r JOIN auth_user u ON u.id = r.user_id "
                    "WHERE u.username = %s",
                    (account.name,),
                ).fetchone()
            assert games == (1,)
    verdicts.report()
