"""The audit's farms (issue 32) replayed on two Daphne workers with PostgreSQL and Redis: nothing
moves (docs/protocol.md 6.2 and 3, v1.3).

- Collusion in quick match: one account clicks the start cell, its partner (on the other
  worker) resigns, race after race: every race is aborted (`decided` and `game_over` say so),
  no rating moves; played for real (3 moves before the resignation), only the pair's first 3
  rated races of the day change ratings, and the 4th says so in its `matched`.
- The same in an arena: aborted races score no points for anyone.
- A pair joined to several arenas (passes on both workers) is never in two undecided races at
  once.
- Fresh accounts of one address: their reports stop at the address's 20 a day, their arenas at
  its 3 upcoming, and the scheduled arenas still open the upcoming list.

The workers trust the test as their proxy, so each account's address is its X-Forwarded-For.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from games.engine import generate_board
from tests.multiworker.conftest import TRUSTED, make_cluster
from tests.multiworker.programs import Account, http_json, quick_match, sign_up
from tests.multiworker.test_signups_on_workers import api_signup
from tests.multiworker.test_tournaments_on_workers import new_arena, waiting
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services

addresses = (f"198.51.100.{k}" for k in itertools.count(120))
FARM = "203.0.113.60"  # the one address the farm's accounts act from


@pytest.fixture(scope="module")
def farm(postgres, tmp_path_factory):
    """Two workers with the server's own limits on sign-ups (the harness raises them), the
    server's arena calendar on, and no bot to join a lonely seeker."""
    cluster = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("farms"), **TRUSTED,
        MINERACE_SIGNUPS_PER_HOUR="3", MINERACE_SIGNUPS_PER_DAY="10",
        MINERACE_ARENA_PASS_S="0.5", MINERACE_MATCH_BOT_S="3600",
    )  # fmt: skip
    yield cluster
    cluster.stop()


def accounts(worker, prefix: str, count: int = 2) -> list[Account]:
    tag = uuid.uuid4().hex[:5]
    return [sign_up(worker.url, f"{prefix}{k}{tag}", next(addresses)) for k in range(count)]


async def seen(client: WsClient, kind: str, timeout: float = 15) -> dict:
    """The first frame of this type, among those already read or the next ones."""
    for frame in client.received:
        if frame["type"] == kind:
            return frame
    return await client.until(kind, timeout=timeout)


async def race(
    ws_urls: tuple[str, str], pair: tuple[Account, Account], tokens: tuple[str, str],
    game_id: str, partner_moves: int,
) -> tuple[dict, dict]:  # fmt: skip
    """The farm's race: the first account clicks the start cell; its partner makes
    `partner_moves` moves that change its board (0 or 3: the start cell, a flag, the flag
    taken off) and resigns; then the first resigns too, once the race is decided. `decided`
    and `game_over`, as both heard them (checked equal)."""
    clicker, partner = [
        await WsClient(url, game_id, headers=account.headers()).connect()
        for url, account in zip(ws_urls, pair, strict=True)
    ]
    try:
        welcomes = [
            await client.request({"type": "hello", "role": "player", "token": token}, 10)
            for client, token in ((clicker, tokens[0]), (partner, tokens[1]))
        ]
        assert all(w["type"] == "welcome" for w in welcomes), welcomes
        for client, welcome in zip((clicker, partner), welcomes, strict=True):
            if welcome["game"]["status"] != "running":  # else it started before this hello
                await seen(client, "started")
        x, y = welcomes[0]["game"]["start"]
        assert (await clicker.request({"type": "reveal", "x": x, "y": y}))["type"] == "cells"
        if partner_moves:
            opened = await partner.request({"type": "reveal", "x": x, "y": y})
            assert opened["type"] == "cells" and opened["status"] == "playing", opened
            game = welcomes[1]["game"]
            shown = {(cx, cy) for cx, cy, _ in opened["cells"]}
            hidden = next(
                (cx, cy) for cy in range(game["height"]) for cx in range(game["width"])
                if (cx, cy) not in shown
            )  # fmt: skip
            for _ in range(2):  # a flag, and the flag taken off: two more changes
                flagged = await partner.request({"type": "flag", "x": hidden[0], "y": hidden[1]})
                assert flagged["type"] == "cells", flagged
        await partner.request({"type": "resign"})
        decided = [await seen(client, "decided") for client in (clicker, partner)]
        assert decided[0]["results"] == decided[1]["results"]
        await clicker.request({"type": "resign"})  # after `decided`: it changes nothing
        over = [await seen(client, "game_over") for client in (clicker, partner)]
        assert over[0]["results"] == over[1]["results"]
        for heard in (decided, over):
            assert heard[0].get("aborted") == heard[1].get("aborted")
        return decided[0], over[0]
    finally:
        for client in (clicker, partner):
            await client.close()


def rating_changes(postgres_url: str, game_id: str) -> list[tuple[str, int | None, int | None]]:
    with psycopg.connect(postgres_url) as conn:
        return conn.execute(
            "SELECT p.name, c.before, c.after FROM ratings_ratingchange c"
            " JOIN games_player p ON p.id = c.player_id WHERE c.game_id = %s ORDER BY p.name",
            (game_id,),
        ).fetchall()


def rated_games(postgres_url: str, names: list[str]) -> dict[str, int]:
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute(
            "SELECT u.username, r.games FROM ratings_rating r JOIN auth_user u"
            " ON u.id = r.user_id WHERE u.username = ANY(%s)",
            (names,),
        ).fetchall()
    return {name: games for name, games in rows}


async def matched_pair(urls: tuple[str, str], pair: tuple[Account, Account]) -> list[dict]:
    """Both accounts seek a rated beginner race at once, each on its worker: their `matched`."""
    seeks = (quick_match(u, p, "beginner", no_guess=False) for u, p in zip(urls, pair, strict=True))
    return list(await asyncio.gather(*seeks))


async def test_a_click_and_a_resignation_in_quick_match_moves_no_rating(farm, postgres):
    """The audit reached 1,941 and first place on the ladder in 11 such races in 45 s."""
    a, b = farm.workers
    pair = tuple(accounts(a, "qm"))
    urls = (a.ws_url, b.ws_url)
    for _ in range(5):
        matched = await matched_pair(urls, pair)
        game = matched[0]["game"]
        assert game["id"] == matched[1]["game"]["id"] and game["rated"] is True
        tokens = (matched[0]["token"], matched[1]["token"])
        decided, over = await race(urls, pair, tokens, game["id"], partner_moves=0)
        for frame in (decided, over):
            assert (frame["aborted"], frame["aborted_because"]) == (True, "left_early")
            assert all(r["rating_before"] == r["rating_after"] for r in frame["results"])
        assert all(before == after for _, before, after in rating_changes(postgres.url,
                                                                          game["id"]))  # fmt: skip
    assert all(games == 0 for games in rated_games(postgres.url, [p.name for p in pair]).values())

    # Played for real (3 moves, then the resignation): the pair's first three rated races of
    # the day move ratings (the aborted five were not among them); the fourth is made unrated
    # and says so before it starts.
    told = []
    for k in range(4):
        # They take turns at winning, as a farm spreading its gains would: their ratings stay
        # near each other, so quick match pairs them at once.
        turn = (pair, urls) if k % 2 == 0 else (pair[::-1], urls[::-1])
        matched = await matched_pair(turn[1], turn[0])
        game = matched[0]["game"]
        told.append((game["rated"], game.get("unrated_because")))
        tokens = (matched[0]["token"], matched[1]["token"])
        decided, over = await race(turn[1], turn[0], tokens, game["id"], partner_moves=3)
        assert "aborted" not in decided and "aborted" not in over
        moved = {name for name, before, after in rating_changes(postgres.url, game["id"])
                 if before != after}  # fmt: skip
        assert moved == ({p.name for p in pair} if game["rated"] else set())
    assert told == [(True, None)] * 3 + [(False, "pair_daily_cap")]
    assert rated_games(postgres.url, [p.name for p in pair]) == {p.name: 3 for p in pair}


async def next_paired(sockets: list, seen_games: set[str], timeout: float = 20) -> list[dict]:
    """The next `paired` of a game not seen before, on each of these tournament sockets (a
    socket may be told the same `paired` twice, docs/protocol.md 7)."""
    frames = []
    for ws in sockets:
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout))
            if frame["type"] == "paired" and frame["game"]["id"] not in seen_games:
                frames.append(frame)
                break
    seen_games.update(f["game"]["id"] for f in frames)
    return frames


def entries(postgres_url: str, tournament_id: str) -> dict[str, tuple[int, int, int]]:
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute(
            "SELECT name, points, races, wins FROM tournaments_entry WHERE tournament_id = %s",
            (tournament_id,),
        ).fetchall()
    return {name: (points, races, wins) for name, points, races, wins in rows}


def join(worker, tournament_id: str, account: Account) -> None:
    http_json(f"{worker.url}/api/tournaments/{tournament_id}/join/", account, {})


async def test_a_click_and_a_resignation_in_an_arena_scores_no_points(farm, postgres):
    """The audit: points at 67 a minute, Diamond in 41 s."""
    a, b = farm.workers
    pair = tuple(accounts(a, "ar"))
    tournament_id = new_arena(postgres.url)
    for account in pair:
        join(a, tournament_id, account)
    sockets = [await waiting(a, tournament_id, pair[0]), await waiting(b, tournament_id, pair[1])]
    games: set[str] = set()
    try:
        for _ in range(4):
            frames = await next_paired(sockets, games)
            game = frames[0]["game"]
            assert game["id"] == frames[1]["game"]["id"]
            tokens = (frames[0]["token"], frames[1]["token"])
            decided, over = await race((a.ws_url, b.ws_url), pair, tokens, game["id"], 0)
            assert decided["aborted"] is True and over["aborted"] is True
        # Every race was scored for nobody: no point, no race, no win counted.
        assert entries(postgres.url, tournament_id) == {p.name: (0, 0, 0) for p in pair}
        # Played for real, taking turns at winning: their first three races against each other
        # in this arena score; the fourth's `paired` says it scores nothing, and it does not.
        points = []
        for k in range(4):
            frames = await next_paired(sockets, games)
            urls = (a.ws_url, b.ws_url)
            turn = (pair, urls) if k % 2 == 0 else (pair[::-1], urls[::-1])
            by_name = dict(zip([p.name for p in pair], frames, strict=True))
            told = [by_name[p.name] for p in turn[0]]
            assert {f.get("no_points_because") for f in told} == (
                {"pair_tournament_cap"} if k == 3 else {None}
            )
            tokens = (told[0]["token"], told[1]["token"])
            await race(turn[1], turn[0], tokens, told[0]["game"]["id"], 3)
            points.append(sum(p for p, _, _ in entries(postgres.url, tournament_id).values()))
        assert points[0] < points[1] < points[2] == points[3]
    finally:
        for ws in sockets:
            await ws.close()


def undecided_arena_races(postgres_url: str, name: str) -> list[tuple[str, str]]:
    """(tournament, game) of each arena race of this account not yet decided."""
    with psycopg.connect(postgres_url) as conn:
        return conn.execute(
            "SELECT r.tournament_id, r.game_id FROM tournaments_arenarace r"
            " JOIN games_game g ON g.id = r.game_id JOIN games_player p ON p.game_id = g.id"
            " JOIN auth_user u ON u.id = p.user_id WHERE u.username = %s AND g.decided_at IS NULL",
            (name,),
        ).fetchall()


async def watch_undecided(postgres_url: str, names: list[str], seconds: float) -> int:
    """Sample the accounts' undecided arena races until they have one (at most 30 s), then
    for `seconds` more: the most any of them had at once."""
    most = 0
    give_up = time.monotonic() + 30
    end = None
    while end is None or time.monotonic() < end:
        for name in names:
            held = await asyncio.to_thread(undecided_arena_races, postgres_url, name)
            most = max(most, len(held))
        if most and end is None:
            end = time.monotonic() + seconds
        assert time.monotonic() < give_up or most, "the pair was never paired"
        await asyncio.sleep(0.1)
    return most


async def test_a_pair_in_three_arenas_is_never_in_two_undecided_races(farm, postgres):
    """The audit: a pair joined to 6 arenas was paired in all 6 at once."""
    a, b = farm.workers
    pair = tuple(accounts(a, "six"))
    arenas = [new_arena(postgres.url) for _ in range(3)]
    sockets: dict[str, list] = {}
    for tournament_id in arenas:
        for account in pair:
            join(a, tournament_id, account)
        # Each arena's two sockets on both workers: every worker's passes try to pair them.
        sockets[tournament_id] = [
            await waiting(a, tournament_id, pair[0]), await waiting(b, tournament_id, pair[1])
        ]  # fmt: skip
    names = [p.name for p in pair]
    used: set[str] = set()
    try:
        for _ in range(2):
            # Passes run every 0.5 s on each worker: ten of them or so see the pair waiting.
            assert await watch_undecided(postgres.url, names, 3) == 1
            ((tournament_id, game_id),) = undecided_arena_races(postgres.url, names[0])
            assert undecided_arena_races(postgres.url, names[1]) == [(tournament_id, game_id)]
            frames = await next_paired(sockets[tournament_id], used)
            assert {f["game"]["id"] for f in frames} == {game_id}
            tokens = (frames[0]["token"], frames[1]["token"])
            await race((a.ws_url, b.ws_url), pair, tokens, game_id, 3)
        with psycopg.connect(postgres.url) as conn:
            (races,) = conn.execute(
                "SELECT count(*) FROM tournaments_arenarace WHERE tournament_id = ANY(%s)",
                (arenas,),
            ).fetchone()
        assert races >= 2
    finally:
        for pair_sockets in sockets.values():
            for ws in pair_sockets:
                await ws.close()


def finished_solo_games(worker, count: int) -> list[tuple[str, str]]:
    """(game, player) of `count` solo games a guest lost at once: the first cell, then a mine."""

    async def lose_one() -> tuple[str, str]:
        game = http_json(f"{worker.url}/api/games/", None, {"preset": "beginner", "seed": "rep"})
        client = await WsClient(worker.ws_url, game["id"]).connect()
        try:
            welcome = await client.request({"type": "hello", "role": "player", "name": "target"})
            first = (4, 4)
            board = generate_board(9, 9, 10, "rep", first)
            mine = next(board.xy(i) for i in range(board.size) if board.is_mine(i))
            await client.request({"type": "reveal", "x": first[0], "y": first[1]})
            lost = await client.request({"type": "reveal", "x": mine[0], "y": mine[1]})
            assert lost["status"] == "lost", lost
            return game["id"], welcome["you"]
        finally:
            await client.close()

    async def all_of_them() -> list[tuple[str, str]]:
        return [await lose_one() for _ in range(count)]

    return asyncio.run(all_of_them())


def post_from(url: str, account: Account, address: str, body: dict) -> tuple[int, dict]:
    headers = {**account.headers(), "X-Forwarded-For": address,
               "Content-Type": "application/json"}  # fmt: skip
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_fresh_accounts_of_one_address_file_20_reports_and_3_arenas(farm, postgres):
    """The audit: 60 reports in 5.9 s from 6 fresh accounts; 60 arenas in 13.5 s that filled
    the upcoming list (50 of 50) and hid the scheduled arenas. The farm's address signs up no
    more than its 3, so it borrows accounts made elsewhere: six, all acting from its address."""
    a, b = farm.workers
    mine = []
    for k in range(6):
        status, _, _ = api_signup(a.url, f"fresh{k}", FARM)
        assert status == (201 if k < 3 else 429)
        mine.append(sign_up(b.url, f"rep{k}{uuid.uuid4().hex[:4]}", next(addresses)))
    farmers = [Account(acc.name, acc.session, FARM) for acc in mine]
    eleven = finished_solo_games(a, 11)
    games = eleven[:10]
    reports = [(farmer, game, player) for farmer in farmers for game, player in games]

    def report(k: int) -> tuple[int, dict]:
        farmer, game, player = reports[k]
        url = f"{(a, b)[k % 2].url}/api/reports/"
        return post_from(url, farmer, FARM, {"game": game, "player": player, "reason": "bot"})

    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(report, range(len(reports))))
    assert len(answers) == 60
    assert sum(1 for status, _ in answers if status == 201) == 20
    refused = {(status, body["error"]["code"]) for status, body in answers if status != 201}
    assert refused == {(429, "rate_limited")}
    with psycopg.connect(postgres.url) as conn:
        (kept,) = conn.execute(
            "SELECT count(*) FROM fairplay_report WHERE address = %s", (FARM,)
        ).fetchone()
    assert kept == 20
    # An account from an address of its own meets its own cap: 10 a day.
    (loner,) = accounts(b, "lone", 1)
    filed = [
        post_from(f"{(a, b)[k % 2].url}/api/reports/", loner, loner.address,
                  {"game": game, "player": player, "reason": "bot"})
        for k, (game, player) in enumerate(eleven)
    ]  # fmt: skip
    assert [status for status, _ in filed] == [201] * 10 + [429]
    assert filed[-1][1]["error"]["code"] == "rate_limited"

    # Sooner than the server's next arenas: by start time alone, the farm's would come first.
    starts = datetime.now(UTC) + timedelta(minutes=3)

    def create(k: int) -> tuple[int, dict]:
        body = {"name": f"Farm {k}", "preset": "beginner", "no_guess": False,
                "starts_at": starts.isoformat().replace("+00:00", "Z"), "minutes": 30,
                "private": False}  # fmt: skip
        url = f"{(a, b)[k % 2].url}/api/tournaments/"
        return post_from(url, farmers[k % len(farmers)], FARM, body)

    with ThreadPoolExecutor(max_workers=12) as pool:
        made = list(pool.map(create, range(60)))
    assert sum(1 for status, _ in made if status == 201) == 3
    assert {(s, body["error"]["code"]) for s, body in made if s != 201} == {
        (409, "too_many_upcoming")
    }
    # The list keeps the server's calendar filled as it is read: read it, then the database.
    listed = http_json(f"{b.url}/api/tournaments/?status=upcoming")["tournaments"]
    with psycopg.connect(postgres.url) as conn:
        (upcoming,) = conn.execute(
            "SELECT count(*) FROM tournaments_tournament WHERE creator_address = %s"
            " AND starts_at > now()",
            (FARM,),
        ).fetchone()
        scheduled = [
            row[0]
            for row in conn.execute(
                "SELECT id FROM tournaments_tournament WHERE slot IS NOT NULL"
                " AND starts_at > now() ORDER BY starts_at, id"
            ).fetchall()
        ]
    assert upcoming == 3
    assert scheduled and [t["id"] for t in listed[: len(scheduled)]] == scheduled
    assert sum(1 for t in listed if t["name"].startswith("Farm ")) == 3
