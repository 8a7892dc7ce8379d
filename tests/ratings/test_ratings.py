"""Ratings from rated races (docs/protocol.md 5): OpenSkill Plackett-Luce per account, preset and
variant, changed in the transaction that ends the race, shown in game_over and the tables."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from openskill.models import PlackettLuce

from games.boards.stored import board_of
from games.engine import Flag, Reveal
from games.models import Game
from games.moves.services import move_apply
from games.races import lifecycle
from games.races.clock import game_tick
from games.races.serializers import game_public
from games.races.spec import game_spec
from games.ratings.models import Rating
from games.ratings.scale import display

pytestmark = pytest.mark.django_db


def rated_race(names_and_users, no_guess=False) -> tuple[Game, list]:
    game = lifecycle.game_create(
        spec=game_spec({"mode": "race", "preset": "beginner", "no_guess": no_guess})
    )
    Game.objects.filter(pk=game.pk).update(rated=True)
    players = [
        lifecycle.player_join(game_id=game.id, name=name, user=user).player
        for name, user in names_and_users
    ]
    for p in players:
        lifecycle.player_ready(player_id=p.id)
    Game.objects.filter(pk=game.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    game_tick(game_id=game.id)
    game.refresh_from_db()
    return game, players


def win(game: Game, player) -> None:
    board = board_of(game)
    for index in range(board.size):
        if not board.is_mine(index):
            outcome = move_apply(player_id=player.id, move=Reveal(*board.xy(index)))
            if outcome.cells["status"] == "won":
                return


def changes(game: Game, player, count: int) -> None:
    """`count` moves that change the player's board without ending its game: flags on mines
    (docs/protocol.md 6.2 counts them; a racer needs 3 before a resignation lets the race count)."""
    board = board_of(game)
    mines = [board.xy(i) for i in range(board.size) if board.is_mine(i)]
    for x, y in mines[:count]:
        move_apply(player_id=player.id, move=Flag(x, y))


def accounts(*names):
    return [get_user_model().objects.create_user(username=n, password="pw-12345678") for n in names]


def test_a_rated_race_moves_its_accounts_ratings_and_game_over_shows_it(client):
    ada, bob = accounts("ada", "bob")
    game, (p_ada, p_bob, p_guest) = rated_race([("ada", ada), ("bob", bob), ("gus", None)])
    win(game, p_ada)
    changes(game, p_guest, 3)  # each played 3 moves before leaving: the race counts
    changes(game, p_bob, 3)
    lifecycle.player_resign(player_id=p_guest.id)
    events = lifecycle.player_resign(player_id=p_bob.id)
    game_over = next(e for e in events if e.kind == "game_over")
    assert "aborted" not in game_over.payload
    rows = {r["name"]: r for r in game_over.payload["results"]}
    assert [rows[n]["rank"] for n in ("ada", "bob", "gus")] == [1, 2, 3]  # ties by join order

    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 3])
    for name, [new] in zip(("ada", "bob"), expected[:2], strict=True):
        row = Rating.objects.get(user__username=name, preset="beginner", variant="classic")
        assert (row.mu, row.sigma, row.games) == (
            pytest.approx(new.mu),
            pytest.approx(new.sigma),
            1,
        )
        assert rows[name]["rating_before"] == 1000
        assert rows[name]["rating_after"] == display(new.mu, new.sigma) == row.display
    assert rows["ada"]["rating_after"] > rows["bob"]["rating_after"]
    assert (rows["gus"]["rating_before"], rows["gus"]["rating_after"]) == (None, None)
    assert not Rating.objects.filter(user=None).exists()

    game.refresh_from_db()
    state = game_public(game, list(game.players.order_by("joined_at")))
    news = ("personal_best", "leaderboard_rank")  # game_over's news of the moment only
    announced = [
        {k: v for k, v in r.items() if k not in news} for r in game_over.payload["results"]
    ]
    assert state["rated"] is True and state["results"] == announced

    table = client.get("/api/ratings/beginner/").json()
    assert (table["preset"], table["variant"]) == ("beginner", "classic")
    assert table["entries"] == []  # provisional after one race: not listed (docs/protocol.md 8)
    Rating.objects.update(games=10)  # as if settled: listed, with the current season's league
    table = client.get("/api/ratings/beginner/").json()
    assert [(e["rank"], e["name"], e["games"], e["provisional"]) for e in table["entries"]] == [
        (1, "ada", 10, False),
        (2, "bob", 10, False),
    ]
    assert {e["league"] for e in table["entries"]} == {"placement"}
    assert client.get("/api/ratings/beginner/?variant=no_guess").json()["entries"] == []
    page = client.get("/api/players/ada/").json()
    (current,) = page["ratings"]
    assert current["rating"] == rows["ada"]["rating_after"]
    assert current["history"] == [
        {"game": game.id, "at": current["history"][0]["at"], "rating": current["rating"]}
    ]
    assert current["league"] == "placement"


def test_variants_are_rated_apart_and_unrated_races_change_nothing(client):
    (ada, bob) = accounts("ada", "bob")
    game, (p_ada, p_bob) = rated_race([("ada", ada), ("bob", bob)], no_guess=True)
    win(game, p_ada)
    lifecycle.player_resign(player_id=p_bob.id)
    assert Rating.objects.get(user=ada, variant="no_guess").games == 1
    assert not Rating.objects.filter(variant="classic").exists()

    plain = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "beginner"}))
    players = [lifecycle.player_join(game_id=plain.id, name=n, user=u).player
               for n, u in (("ada", ada), ("bob", bob))]  # fmt: skip
    for p in players:
        lifecycle.player_ready(player_id=p.id)
    Game.objects.filter(pk=plain.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    game_tick(game_id=plain.id)
    events = []
    for p in players:
        events += lifecycle.player_resign(player_id=p.id)
    game_over = next(e for e in events if e.kind == "game_over")
    assert "rating_after" not in game_over.payload["results"][0]
    assert Rating.objects.get(user=ada, variant="no_guess").games == 1


def test_ratings_errors(client):
    assert client.get("/api/ratings/huge/").status_code == 404
    response = client.get("/api/ratings/expert/?variant=lucky")
    assert response.status_code == 400 and response.json()["error"]["field"] == "variant"


def test_a_rated_race_nobody_played_is_not_rated(client):
    """docs/protocol.md 6.2: two accounts matched, neither moves, both leave: nobody's rating moves,
    the results show each rating unchanged, and the race is in no rating history."""
    ada, bob = accounts("ada", "bob")
    _, (p_ada, p_bob) = rated_race([("ada", ada), ("bob", bob)])
    lifecycle.player_resign(player_id=p_ada.id)
    events = lifecycle.player_resign(player_id=p_bob.id)
    game_over = next(e for e in events if e.kind == "game_over")
    rows = {r["name"]: r for r in game_over.payload["results"]}
    for name in ("ada", "bob"):
        assert rows[name]["rating_before"] == rows[name]["rating_after"] == 1000
    assert not Rating.objects.filter(games__gt=0).exists()
    assert client.get("/api/ratings/beginner/").json()["entries"] == []
    assert client.get("/api/players/ada/").json()["ratings"] == []


def test_one_move_makes_a_race_rated_and_leaving_is_a_loss(client):
    """A racer who resigns ranks below one who stayed, even one who never moved (docs/protocol.md 2,
    v1.2): the leaver loses rating."""
    ada, bob = accounts("ada", "bob")
    game, (p_ada, _) = rated_race([("ada", ada), ("bob", bob)])
    move_apply(player_id=p_ada.id, move=Reveal(*game.safe_cell))  # ada opens more than bob
    changes(game, p_ada, 2)  # 3 moves that changed her board (docs/protocol.md 6.2, v1.3)
    lifecycle.player_resign(player_id=p_ada.id)  # ... and leaves
    game_tick_past_limit(game)
    rows = {r["name"]: r for r in game_over_results(game)}
    assert (rows["bob"]["rank"], rows["ada"]["rank"]) == (1, 2)
    assert rows["ada"]["rating_after"] < rows["ada"]["rating_before"] == 1000
    assert rows["bob"]["rating_after"] > 1000


def game_tick_past_limit(game: Game) -> None:
    """End the race by its time limit: the racer still playing becomes dnf but did not leave."""
    Game.objects.filter(pk=game.pk).update(started_at=timezone.now() - timedelta(hours=1))
    game_tick(game_id=game.id)


def game_over_results(game: Game) -> list[dict]:
    game.refresh_from_db()
    return game_public(game, list(game.players.order_by("joined_at")))["results"]


def test_a_race_that_ends_after_a_racers_mark_leaves_the_cheater_out():
    """A racer marked during the race (docs/protocol.md 6.4: its ratings frozen) takes no rating
    from anyone: no refund would give back a loss in a race that ended after the mark, so the
    others are rated among themselves, by their own order."""
    from games.fairplay.services import account_mark

    ada, bob, cheat = accounts("ada", "bob", "cheat")
    game, (p_ada, p_bob, p_cheat) = rated_race([("ada", ada), ("bob", bob), ("cheat", cheat)])
    move_apply(player_id=p_ada.id, move=Reveal(*game.safe_cell))
    account_mark(user_id=cheat.pk)
    win(game, p_cheat)
    changes(game, p_bob, 3)
    lifecycle.player_resign(player_id=p_bob.id)
    game_tick_past_limit(game)
    rows = {r["name"]: r for r in game_over_results(game)}
    assert [rows[n]["rank"] for n in ("cheat", "ada", "bob")] == [1, 2, 3]
    assert rows["ada"]["rating_after"] > rows["ada"]["rating_before"] == 1000  # first of the two
    assert rows["bob"]["rating_after"] < 1000
    assert rows["cheat"]["rating_after"] == rows["cheat"]["rating_before"]


def test_a_duel_with_a_cheater_marked_before_it_ends_moves_no_rating():
    from games.fairplay.services import account_mark

    ada, cheat = accounts("ada", "cheat")
    game, (p_ada, p_cheat) = rated_race([("ada", ada), ("cheat", cheat)])
    move_apply(player_id=p_ada.id, move=Reveal(*game.safe_cell))
    account_mark(user_id=cheat.pk)
    win(game, p_cheat)
    game_tick_past_limit(game)
    rows = {r["name"]: r for r in game_over_results(game)}
    assert rows["ada"]["rank"] == 2
    assert rows["ada"]["rating_after"] == rows["ada"]["rating_before"] == 1000
    assert Rating.objects.get(user=ada, preset="beginner").games == 0


def matched(players, came_after_s: dict[str, float | None]) -> None:
    """As quick match leaves its players (a presence row, offline from the match), then each
    says hello that many seconds after the match (None: never)."""
    from games.presence.models import PlayerPresence

    for player in players:
        game = player.game
        after = came_after_s[player.name]
        PlayerPresence.objects.create(
            player=player, game_id=game.id, online=after is not None, since=game.created_at,
            came_at=None if after is None else game.created_at + timedelta(seconds=after),
        )  # fmt: skip


def test_a_race_a_matched_player_never_came_to_is_not_rated(client):
    """docs/protocol.md 6.2: the one who came and won gains nothing, the no-show loses nothing."""
    ada, bob = accounts("ada", "bob")
    game, (p_ada, p_bob) = rated_race([("ada", ada), ("bob", bob)])
    matched([p_ada, p_bob], {"ada": 1, "bob": None})
    win(game, p_ada)
    events = lifecycle.player_resign(player_id=p_bob.id)  # bob's dnf by ABANDON_S
    rows = {
        r["name"]: r for r in next(e for e in events if e.kind == "game_over").payload["results"]
    }
    for name in ("ada", "bob"):
        assert rows[name]["rating_before"] == rows[name]["rating_after"] == 1000
    assert not Rating.objects.filter(games__gt=0).exists()


def test_a_race_a_matched_player_came_to_after_the_grace_is_not_rated(client, settings):
    settings.MINERACE = {**settings.MINERACE, "MATCH_HELLO_GRACE_S": 10}
    ada, bob = accounts("ada", "bob")
    game, (p_ada, p_bob) = rated_race([("ada", ada), ("bob", bob)])
    matched([p_ada, p_bob], {"ada": 1, "bob": 11})
    win(game, p_ada)
    lifecycle.player_resign(player_id=p_bob.id)
    assert not Rating.objects.filter(games__gt=0).exists()


def test_a_race_both_matched_players_came_to_in_time_is_rated(client, settings):
    settings.MINERACE = {**settings.MINERACE, "MATCH_HELLO_GRACE_S": 10}
    ada, bob = accounts("ada", "bob")
    game, (p_ada, p_bob) = rated_race([("ada", ada), ("bob", bob)])
    matched([p_ada, p_bob], {"ada": 1, "bob": 9})
    win(game, p_ada)
    lifecycle.player_resign(player_id=p_bob.id)
    assert Rating.objects.filter(games=1).count() == 2
