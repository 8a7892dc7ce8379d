"""What a bot account may do, and what it never reaches (docs/protocol.md 6.1): its players show
`bot`, its games are never ranked or rated (a race it joins stops being either, for everyone),
it may not seek, its daily runs never count, and nothing it plays reaches a leaderboard, a
personal best or a rating list. The server's own bots are bot accounts too."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client as HttpClient
from django.utils import timezone

from config.asgi import application
from games.accounts.models import Account
from games.boards.stored import board_of
from games.daily.models import DailyRun
from games.engine import Reveal
from games.errors import ServiceError
from games.matchmaking.models import Seeker
from games.models import Game, PersonalBest, Player, PlayerStatus, Score
from games.moves.services import move_apply
from games.names import name_skeleton
from games.races import lifecycle
from games.races.clock import game_tick
from games.races.spec import GameSpec
from games.ratings.models import Rating, RatingChange
from games.scores.records import score_record
from tests.accounts.support import (
    PASSWORD,
    become_bot,
    call,
    error_of,
    session_of,
    sign_up,
    socket_as,
    with_cookie,
)
from tests.play.helpers import create_game, player
from tests.scores.play import play_solo

User = get_user_model()


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0,
                         "PRESENCE_INTERVAL_S": 0}  # fmt: skip


def bot_account(name: str = "Sweepbot") -> tuple[HttpClient, object]:
    """A program's bot account, signed up and upgraded over HTTP; its logged-in client."""
    http = HttpClient()
    sign_up(http, name)
    become_bot(http)
    return http, User.objects.get(username=name)


def person(name: str = "Ada") -> tuple[HttpClient, object]:
    http = HttpClient()
    sign_up(http, name)
    return http, User.objects.get(username=name)


def started(game_id: str) -> None:
    """Past the countdown now, as the clock would be a moment later."""
    Game.objects.filter(pk=game_id).update(starts_at=timezone.now() - timedelta(seconds=1))
    game_tick(game_id=game_id)


# ---- races -------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_bot_joining_a_race_unranks_it_for_everyone_and_shows_in_its_results():
    game_id = await create_game(mode="race", preset="beginner")  # ranked: a preset, no seed
    ada, ada_welcome = await player(game_id, "ada")
    assert ada_welcome["game"]["ranked"] is True
    http, _ = await database_sync_to_async(bot_account)()
    program = await socket_as(game_id, await database_sync_to_async(session_of)(http))
    welcome = await program.request({"type": "hello", "role": "player"})
    assert (welcome["game"]["ranked"], welcome["game"]["rated"]) == (False, False)
    flags = {p["name"]: (p["bot"], p["is_bot"]) for p in welcome["game"]["players"]}
    assert flags == {"ada": (False, False), "Sweepbot": (True, False)}
    joined = await ada.expect("joined")  # the others learn it with the join itself
    assert joined["player"] == {"id": welcome["you"], "name": "Sweepbot", "bot": True}
    assert (joined["ranked"], joined["rated"]) == (False, False)
    state = await database_sync_to_async(call)(HttpClient(), "GET", f"/api/games/{game_id}/")
    assert state.json()["ranked"] is False

    for client in (ada, program):
        assert (await client.request({"type": "ready"}))["type"] == "ready"
    for client in (ada, program):
        while (await client.recv())["type"] != "started":
            pass
    for client in (ada, program):
        await client.request({"type": "resign"})
    over = await ada.recv()
    while over["type"] != "game_over":
        over = await ada.recv()
    assert {r["name"]: r["bot"] for r in over["results"]} == {"ada": False, "Sweepbot": True}
    assert not await database_sync_to_async(Score.objects.exists)()  # unranked: no score
    final = await database_sync_to_async(call)(HttpClient(), "GET", f"/api/games/{game_id}/")
    assert {r["name"]: r["bot"] for r in final.json()["results"]} == {"ada": False,
                                                                      "Sweepbot": True}  # fmt: skip
    for client in (ada, program):
        await client.close()


@pytest.mark.django_db
def test_a_rated_race_a_bot_joins_changes_no_rating():
    """A quick-match race (rated) that a bot account joins is rated no more: its end writes no
    rating or rating change for anyone, and the rating list stays as it was."""
    _, ada = person("Ada")
    _, bot = bot_account()
    game = lifecycle.game_create(spec=GameSpec(
        mode="race", preset="beginner", width=9, height=9, mines=10, max_players=2, seed=None,
        no_guess=False))  # fmt: skip
    Game.objects.filter(pk=game.pk).update(rated=True)
    players = [lifecycle.player_join(game_id=game.id, name=None, user=u).player for u in (ada, bot)]
    assert Game.objects.filter(pk=game.pk, rated=False, ranked=False).exists()
    for p in players:
        lifecycle.player_ready(player_id=p.id)
    started(game.id)
    for p in players:
        lifecycle.player_resign(player_id=p.id)
    assert Game.objects.get(pk=game.pk).status == "finished"
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert HttpClient().get("/api/ratings/beginner/").json()["entries"] == []


@pytest.mark.django_db
def test_the_rating_list_shows_people_only_and_says_so():
    _, ada = person("Ada")
    _, bot = bot_account()
    for user in (ada, bot):  # should a bot account ever hold a rating, it is not listed
        Rating.objects.create(user=user, preset="beginner", variant="classic", mu=25.0,
                              sigma=8.3, display=1000, games=10,
                              rated_at=timezone.now())  # fmt: skip
    entries = HttpClient().get("/api/ratings/beginner/").json()["entries"]
    assert [(e["name"], e["bot"]) for e in entries] == [("Ada", False)]


@pytest.mark.django_db
def test_a_game_a_bot_account_creates_is_never_ranked():
    http, _ = bot_account()
    made = call(http, "POST", "/api/games/", {"preset": "beginner"})
    assert made.status_code == 201 and made.json()["ranked"] is False
    people = call(HttpClient(), "POST", "/api/games/", {"preset": "beginner"})
    assert people.json()["ranked"] is True


# ---- scores ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_bot_accounts_solo_win_reaches_no_leaderboard_best_or_page():
    _, bot = bot_account()
    game = play_solo("beginner", "Sweepbot", user=bot)  # made ranked by a guest's request
    assert game.status == "finished" and game.players.get().status == PlayerStatus.WON
    assert game.ranked is False
    assert not Score.objects.exists() and not PersonalBest.objects.exists()
    board = HttpClient().get("/api/leaderboards/beginner/").json()
    assert board["entries"] == []
    state = HttpClient().get(f"/api/games/{game.id}/").json()
    assert [(p["bot"], p["is_bot"]) for p in state["players"]] == [(True, False)]
    assert [r["bot"] for r in state["results"]] == [True]
    page = HttpClient().get("/api/players/Sweepbot/").json()
    assert (page["bot"], page["recent"]) == (True, [])
    # A person's page says bot: false, and a person's win is on the leaderboard as ever.
    _, ada = person("Ada")
    play_solo("beginner", "Ada", user=ada)
    assert HttpClient().get("/api/players/Ada/").json()["bot"] is False
    names = [e["name"] for e in HttpClient().get("/api/leaderboards/beginner/").json()["entries"]]
    assert names == ["Ada"]


@pytest.mark.django_db
def test_a_bot_players_score_is_never_written_even_in_a_ranked_game():
    """Belt and braces: should a ranked game ever hold a bot account's player, no score."""
    game = Game.objects.create(mode="solo", preset="beginner", width=9, height=9, mines=10,
                               ranked=True, seed="x", seed_commitment="x", status="finished",
                               bbbv=20, safe_x=4, safe_y=4)  # fmt: skip
    bot_player = Player.objects.create(
        game=game, name="Sweepbot", name_key=name_skeleton("Sweepbot"), token_hash="t",
        status=PlayerStatus.WON, time_ms=5000, clicks=25, finished_at=timezone.now(), bot=True,
    )  # fmt: skip
    assert score_record(game=game, player=bot_player) is None
    assert not Score.objects.exists()


# ---- quick match -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_bot_account_may_not_seek_and_a_person_still_may():
    http, _ = await database_sync_to_async(bot_account)()
    session = await database_sync_to_async(session_of)(http)
    seeker = WebsocketCommunicator(application, "/ws/match/", headers=with_cookie(session))
    assert (await seeker.connect())[0]
    await seeker.send_json_to({"type": "seek", "preset": "beginner", "no_guess": False, "id": 7})
    refused = await seeker.receive_json_from(timeout=3)
    assert (refused["type"], refused["code"], refused["re"]) == ("error", "bot_forbidden", 7)
    assert not await database_sync_to_async(Seeker.objects.exists)()
    await seeker.send_json_to({"type": "ping", "id": 8})  # the connection stays open
    assert await seeker.receive_json_from(timeout=3) == {"type": "pong", "re": 8}
    await seeker.disconnect()

    human_http, _ = await database_sync_to_async(person)()
    human = WebsocketCommunicator(
        application,
        "/ws/match/",
        headers=with_cookie(await database_sync_to_async(session_of)(human_http)),
    )
    assert (await human.connect())[0]
    await human.send_json_to({"type": "seek", "preset": "beginner", "no_guess": False, "id": 1})
    assert (await human.receive_json_from(timeout=3))["type"] == "seeking"
    await human.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_lonely_seeker_still_races_a_house_bot_unrated(settings):
    settings.MINERACE = {**settings.MINERACE, "MATCH_BOT_S": 0, "WS_RATE_PER_S": 1000}
    seeker = WebsocketCommunicator(
        application, "/ws/match/", headers=[(b"origin", b"http://localhost")]
    )
    assert (await seeker.connect())[0]
    await seeker.send_json_to({"type": "seek", "preset": "beginner", "no_guess": False,
                               "name": "loner", "id": 1})  # fmt: skip
    frame = await seeker.receive_json_from(timeout=3)
    while frame["type"] == "seeking":
        frame = await seeker.receive_json_from(timeout=5)
    assert frame["type"] == "matched", frame
    game = frame["game"]
    assert (game["rated"], game["ranked"], game["max_players"]) == (False, False, 2)
    flags = {p["name"]: (p["bot"], p["is_bot"]) for p in game["players"]}
    assert flags == {"loner": (False, False), "Bot 0.8 3BV/s": (True, True)}
    bot_user = await database_sync_to_async(
        lambda: Player.objects.get(game_id=game["id"], is_bot=True).user_id
    )()
    assert await database_sync_to_async(
        Account.objects.filter(user_id=bot_user, bot=True, house="relaxed").exists
    )()
    await seeker.disconnect()


# ---- daily -------------------------------------------------------------------------------


def play_daily(game_id: str, user) -> None:
    """Win a daily run through the services, from its public start cell."""
    game = Game.objects.get(pk=game_id)
    player = lifecycle.player_join(game_id=game_id, name=None, user=user).player
    board = board_of(game)
    move_apply(player_id=player.id, move=Reveal(*game.safe_cell))
    for index in range(board.size):
        if not board.is_mine(index):
            outcome = move_apply(player_id=player.id, move=Reveal(*board.xy(index)))
            if outcome.cells["status"] != "playing":
                return


def established(user) -> None:
    """Old enough for a day's run to count (docs/protocol.md 6.2); the rated races are waived by
    the `daily_counts` fixture, since a bot account can never have any."""
    user.date_joined = timezone.now() - timedelta(days=2)
    user.save(update_fields=["date_joined"])


@pytest.fixture
def daily_counts(monkeypatch):
    """A day's first run counts without rated races behind it: so only the bot rule is left
    to keep a bot account's run from counting."""
    from games.daily import services

    monkeypatch.setattr(services, "ESTABLISHED_RATED_RACES", 0)


@pytest.mark.django_db
@pytest.mark.usefixtures("clear_of_midnight")  # it reads today's board
def test_a_bot_accounts_daily_run_never_counts(daily_counts):
    http, bot = bot_account()
    people, ada = person("Ada")
    for user in (bot, ada):
        established(user)
    assert http.get("/api/daily/").json()["may_count"] is False
    assert people.get("/api/daily/").json()["may_count"] is True
    run = call(http, "POST", "/api/daily/beginner/")
    assert run.status_code == 201 and run.json()["counted"] is False
    assert call(people, "POST", "/api/daily/beginner/").json()["counted"] is True
    play_daily(run.json()["game"]["id"], bot)
    today = timezone.now().date().isoformat()
    assert HttpClient().get(f"/api/daily/{today}/beginner/").json()["entries"] == []


@pytest.mark.django_db
@pytest.mark.usefixtures("clear_of_midnight")  # it reads today's board
def test_a_run_counted_before_the_upgrade_is_left_out_once_played_as_a_bot(daily_counts):
    """An account may start its counted run, turn into a bot (it has played nothing yet),
    then play the run: its player is a bot's, and the day's leaderboard leaves it out."""
    http, turncoat = person("Turncoat")
    established(turncoat)
    run = call(http, "POST", "/api/daily/beginner/")
    assert run.json()["counted"] is True
    become_bot(http)
    play_daily(run.json()["game"]["id"], User.objects.get(username="Turncoat"))
    assert DailyRun.objects.get().counted is True
    today = timezone.now().date().isoformat()
    assert HttpClient().get(f"/api/daily/{today}/beginner/").json()["entries"] == []


# ---- the server's own bots ---------------------------------------------------------------


@pytest.mark.django_db
def test_race_a_bot_seats_a_house_bot_account_and_claims_its_name(client):
    body = {"mode": "race", "preset": "beginner", "bot": "quick"}
    first = call(client, "POST", "/api/games/", body).json()
    second = call(client, "POST", "/api/games/", body).json()
    for state in (first, second):
        assert (state["ranked"], state["rated"]) == (False, False)
        (seat,) = state["players"]
        assert (seat["name"], seat["bot"], seat["is_bot"]) == ("Bot 2.8 3BV/s", True, True)
    bots = Player.objects.filter(is_bot=True)
    assert bots.count() == 2 and len({p.user_id for p in bots}) == 1  # one account per level
    assert Account.objects.get(user_id=bots[0].user_id).house == "quick"
    # A guest can no longer call itself by a house bot's name.
    game_id = call(client, "POST", "/api/games/", {"preset": "beginner"}).json()["id"]
    with pytest.raises(ServiceError) as refused:
        lifecycle.player_join(game_id=game_id, name="bot 2.8 3bv/s")
    assert refused.value.code == "name_taken"
    assert error_of(call(client, "POST", "/api/session/",
                         {"username": "Bot 2.8 3BV/s", "password": PASSWORD})) == (
        401, "bad_login", None)  # fmt: skip


@pytest.mark.django_db
def test_no_guest_may_call_itself_a_house_bot_even_before_that_bot_has_played():
    """Issue 20: a guest named `Bot 2.8 3BV/s` passed for the house bot; any case too."""
    from games.errors import ServiceError
    from games.races import lifecycle

    for name in ("Bot 2.8 3BV/s", "BOT 0.8 3BV/S", "bot 1.6 3bv/s", "Bot 1.6 3BV/s "):
        with pytest.raises(ServiceError) as refused:
            lifecycle.guest_name(name=name)
        assert refused.value.code == "name_taken", name
    assert lifecycle.guest_name(name="Bot fan") == "Bot fan"
