"""The daily challenge (issue 14.6): one no-guess board per preset and UTC day for everyone,
an account's first run counted, and the board's secrets closed until the day is over."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client as HttpClient
from django.utils import timezone

from games.boards.stored import board_of
from games.daily.models import DailyChallenge, DailyRun
from games.daily.services import day_end, today
from games.engine import Reveal
from games.engine.commitment import commitment
from games.engine.noguess import is_no_guess
from games.errors import ServiceError
from games.models import Game, Player
from games.moves.services import move_apply
from games.races import lifecycle, selectors
from games.ratings.models import Rating

# Each test reads the UTC day, and so does the server it calls: midnight must not fall between.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_of_midnight")]


def logged_in(name: str, *, joined_days_ago: int = 2, rated_races: int = 5) -> HttpClient:
    """A logged-in account; by default an established one, whose first run of a day counts
    (docs/protocol.md 6.2: it existed before the day began and played 5 rated races)."""
    user = get_user_model().objects.create_user(name, password="Mines-sweep-42")
    user.date_joined = timezone.now() - timedelta(days=joined_days_ago)
    user.save(update_fields=["date_joined"])
    if rated_races:
        Rating.objects.create(user=user, preset="expert", variant="classic", mu=25, sigma=8,
                              display=1000, games=rated_races)  # fmt: skip
    client = HttpClient()
    client.force_login(user)
    return client


def start_run(client: HttpClient, preset: str = "beginner") -> dict:
    answer = client.post(f"/api/daily/{preset}/", "{}", content_type="application/json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def play(game_id: str, user=None, name: str = "guest", win: bool = True) -> None:
    """Play a run through the services: from the start cell, every safe cell (or a mine)."""
    game = Game.objects.get(pk=game_id)
    player = lifecycle.player_join(game_id=game_id, name=name, user=user).player
    board = board_of(game)
    move_apply(player_id=player.id, move=Reveal(*game.safe_cell))
    for index in range(board.size):
        if board.is_mine(index) != win:
            outcome = move_apply(player_id=player.id, move=Reveal(*board.xy(index)))
            if outcome.cells["status"] != "playing":
                return
    raise AssertionError("the game did not end")


def end_the_day(challenge: DailyChallenge) -> None:
    """Move a day into the past, as midnight would."""
    yesterday = today() - timedelta(days=1)
    DailyChallenge.objects.filter(pk=challenge.pk).update(day=yesterday)
    games = challenge.runs.values("game_id")
    Game.objects.filter(pk__in=games).update(secrets_at=day_end(yesterday))
    Player.objects.filter(game_id__in=games).update(
        finished_at=day_end(yesterday) - timedelta(hours=1)
    )


def test_everyone_gets_the_same_no_guess_board_and_accounts_one_counted_run():
    ann, bob = logged_in("ann"), logged_in("bob")
    runs = [start_run(ann), start_run(ann), start_run(bob)]
    assert [r["counted"] for r in runs] == [True, False, True]
    states = [r["game"] for r in runs]
    assert len({s["seed_commitment"] for s in states}) == 1
    assert len({tuple(s["start"]) for s in states}) == 1
    assert all(s["no_guess"] and not s["ranked"] and "seed" not in s for s in states)
    games = [Game.objects.get(pk=s["id"]) for s in states]
    boards = {tuple(map(tuple, board_of(g).mine_cells())) for g in games}
    assert len(boards) == 1
    challenge = DailyChallenge.objects.get(preset="beginner")
    assert challenge.day == today()
    assert challenge.seed_commitment == commitment(challenge.seed, challenge.seed_salt)
    assert is_no_guess(board_of(games[0]), games[0].safe_cell)
    overview = ann.get("/api/daily/").json()
    beginner = next(b for b in overview["boards"] if b["preset"] == "beginner")
    assert beginner["your_run"] == states[0]["id"] and beginner["runs"] == 3
    assert "seed" not in beginner and beginner["over"] is False
    assert {b["preset"] for b in overview["boards"]} == {"beginner", "intermediate", "expert"}


def test_a_finished_run_keeps_the_board_secret_until_the_day_is_over(client):
    ann = logged_in("ann")
    state = start_run(ann)["game"]
    user = get_user_model().objects.get(username="ann")
    play(state["id"], user=user)
    finished = selectors.game_state(game_id=state["id"])
    assert finished["status"] == "finished" and finished["results"][0]["status"] == "won"
    assert "seed" not in finished and "mine_cells" not in finished
    assert client.get(f"/api/games/{state['id']}/moves/").status_code == 409
    assert client.get(f"/api/games/{state['id']}/analysis/").status_code == 409
    with pytest.raises(ServiceError) as refused:
        lifecycle.spectator_check(game_id=state["id"])
    assert refused.value.code == "bad_message"
    day = today().isoformat()
    board = client.get(f"/api/daily/{day}/beginner/").json()
    assert "seed" not in board and [e["name"] for e in board["entries"]] == ["ann"]

    end_the_day(DailyChallenge.objects.get(preset="beginner"))
    opened = selectors.game_state(game_id=state["id"])
    assert opened["seed"] and opened["mine_cells"]
    assert client.get(f"/api/games/{state['id']}/moves/").status_code == 200
    lifecycle.spectator_check(game_id=state["id"])  # may watch the replay now
    yesterday = (today() - timedelta(days=1)).isoformat()
    past = client.get(f"/api/daily/{yesterday}/beginner/").json()
    assert (
        past["over"] is True
        and commitment(past["seed"], past["seed_salt"]) == (past["seed_commitment"])
    )
    archive = client.get("/api/daily/").json()["archive"]
    assert archive[0]["day"] == yesterday, archive
    assert archive[0]["presets"]["beginner"]["best"]["name"] == "ann", archive


def test_the_daily_leaderboard_ranks_counted_wins_by_time():
    runners = {name: logged_in(name) for name in ("ann", "bob", "cy")}
    users = {u.username: u for u in get_user_model().objects.all()}
    games = {name: start_run(client)["game"]["id"] for name, client in runners.items()}
    play(games["ann"], user=users["ann"])
    play(games["bob"], user=users["bob"])
    play(games["cy"], user=users["cy"], win=False)
    Player.objects.filter(game_id=games["ann"]).update(time_ms=20_000)
    Player.objects.filter(game_id=games["bob"]).update(time_ms=10_000)
    practice = start_run(runners["ann"])["game"]["id"]  # faster, but practice
    play(practice, user=users["ann"])
    Player.objects.filter(game_id=practice).update(time_ms=1_000)
    entries = HttpClient().get(f"/api/daily/{today().isoformat()}/beginner/").json()["entries"]
    assert [(e["name"], e["rank"], e["status"]) for e in entries] == [
        ("bob", 1, "won"), ("ann", 2, "won"), ("cy", None, "lost"),
    ]  # fmt: skip
    assert DailyRun.objects.filter(counted=True).count() == 3


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("post", "/api/daily/huge/", 404),
        ("get", "/api/daily/2020-01-01/beginner/", 404),
        ("get", f"/api/daily/{(timezone.now() + timedelta(days=3)).date()}/beginner/", 404),
        ("get", "/api/daily/2026-13-45/beginner/", 404),
        ("get", "/api/daily/2026-01-01/huge/", 404),
        ("get", "/api/daily/beginner/", 405),
        ("post", "/api/daily/", 405),
    ],
)
def test_bad_daily_requests(client, method, path, status):
    answer = getattr(client, method)(path, content_type="application/json")
    assert answer.status_code == status
    assert answer.json()["error"]["code"] in ("not_found", "method_not_allowed")
    assert not DailyChallenge.objects.exclude(day=today()).exists()


@pytest.mark.django_db(transaction=True)
async def test_a_run_over_the_websocket_starts_at_its_public_start_cell():
    from channels.db import database_sync_to_async

    from tests.play.helpers import Client, player

    runner = await database_sync_to_async(logged_in)("runner")
    state = (await database_sync_to_async(start_run)(runner))["game"]
    assert state["status"] == "lobby" and state["start"]
    client, welcome = await player(state["id"], "walker")
    assert welcome["boards"] == {welcome["you"]: []}  # nothing known before the first click
    x, y = state["start"]
    await client.send({"type": "reveal", "x": x, "y": y, "id": 1})
    started = await client.expect("started")
    assert started["start"] == [x, y]
    cells = await client.expect("cells")
    assert cells["re"] == 1 and cells["cells"] and cells["status"] == "playing"
    watcher = await Client(state["id"]).connect()
    refused = await watcher.request({"type": "hello", "role": "spectator"})
    assert (refused["type"], refused["code"]) == ("error", "bad_message")
    for socket in (client, watcher):
        await socket.close()


def test_another_site_cannot_spend_an_accounts_counted_run():
    """A form post (what another site could send with the session) is refused, as any change
    that does not say it is JSON (docs/protocol.md 3, v1.2)."""
    ann = logged_in("ann")
    refused = ann.post("/api/daily/beginner/", {"x": "1"})
    assert refused.status_code == 415
    assert refused.json()["error"]["code"] == "unsupported_media_type"
    assert HttpClient().post("/api/daily/beginner/").status_code == 415
    assert not DailyRun.objects.exists()
    assert start_run(ann)["counted"] is True


def test_only_an_established_accounts_run_counts_and_guests_play_past_days_only():
    """docs/protocol.md 6.2: a fresh second account, or one with few rated races, only practises;
    a guest cannot open today's board at all (it would learn it for someone else)."""
    fresh = logged_in("fresh", joined_days_ago=0)
    novice = logged_in("novice", rated_races=4)
    veteran = logged_in("veteran")
    assert [start_run(c)["counted"] for c in (fresh, novice, veteran)] == [False, False, True]
    assert [c.get("/api/daily/").json()["may_count"] for c in (fresh, novice, veteran)] == [
        False, False, True
    ]  # fmt: skip
    guest = HttpClient()
    refused = guest.post("/api/daily/beginner/", "{}", content_type="application/json")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "not_logged_in"
    assert guest.get("/api/daily/").json()["may_count"] is False
    assert DailyRun.objects.count() == 3


def test_a_marked_account_is_told_its_runs_do_not_count():
    """A marked account's runs are practice (docs/protocol.md 6.4), and GET /api/daily/ says so
    before it plays: `may_count` agrees with what a run does."""
    from games.fairplay.services import account_mark

    cheat = logged_in("cheat")
    assert cheat.get("/api/daily/").json()["may_count"] is True
    account_mark(user_id=get_user_model().objects.get(username="cheat").pk)
    assert cheat.get("/api/daily/").json()["may_count"] is False
    assert start_run(cheat)["counted"] is False


def test_a_game_page_learns_of_its_daily_run_and_its_player_may_reopen_it(client):
    """Issue 22.2: the run's page says counted or practice and when the secrets open, and the
    run's own account may watch its finished run on another device; nobody else may."""
    ann = logged_in("ann")
    state = start_run(ann)["game"]
    practice = start_run(ann)["game"]
    ann_user = get_user_model().objects.get(username="ann")
    play(state["id"], user=ann_user)
    run = client.get(f"/api/daily/runs/{state['id']}/").json()
    assert run == {
        "game": state["id"],
        "day": today().isoformat(),
        "preset": "beginner",
        "counted": True,
        "over": False,
        "ends_at": state["secrets_at"],
    }
    assert client.get(f"/api/daily/runs/{practice['id']}/").json()["counted"] is False
    solo = client.post("/api/games/", {"mode": "solo", "preset": "beginner"},
                       content_type="application/json").json()  # fmt: skip
    assert client.get(f"/api/daily/runs/{solo['id']}/").status_code == 404
    assert client.get("/api/daily/runs/no-such-game/").status_code == 404

    lifecycle.spectator_check(game_id=state["id"], user=ann_user)  # its own run
    bob = get_user_model().objects.create_user("bob", password="Mines-sweep-42")
    for who in ({"user": bob}, {"session_key": "someone-else"}, {}):
        with pytest.raises(ServiceError) as refused:
            lifecycle.spectator_check(game_id=state["id"], **who)
        assert refused.value.code == "bad_message"
