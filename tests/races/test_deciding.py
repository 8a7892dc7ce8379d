"""Deciding a race (docs/protocol.md 2.2) through the services: `decided` goes out once, the
ratings move then and only then, the ranks stay fixed whatever the last racer does next, and
the hook a tournament will use is called in the deciding transaction."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.boards.stored import board_of
from games.engine import Reveal
from games.models import Game
from games.moves.services import move_apply
from games.races import deciding, lifecycle
from games.races.clock import game_tick
from games.races.serializers import game_public
from games.races.spec import game_spec
from games.ratings.models import Rating, RatingChange

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_move_caches")]


def running_race(*names_and_users, rated=False) -> tuple[Game, list]:
    game = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "beginner"}))
    Game.objects.filter(pk=game.pk).update(rated=rated)
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


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def one(events, kind):
    [event] = [e for e in events if e.kind == kind]
    return event.payload


def safe_cells(game: Game) -> list[tuple[int, int]]:
    board = board_of(game)
    return [board.xy(i) for i in range(board.size) if not board.is_mine(i)]


def a_mine(game: Game) -> Reveal:
    board = board_of(game)
    return Reveal(*board.xy(min(board.mines)))


def win(game: Game, player) -> list:
    """Reveal every safe cell until the win; every event the moves produced."""
    events = []
    for cell in safe_cells(game):
        outcome = move_apply(player_id=player.id, move=Reveal(*cell))
        events += outcome.events
        if outcome.cells["status"] == "won":
            return events
    raise AssertionError("no win")


def accounts(*names):
    return [get_user_model().objects.create_user(username=n, password="pw-12345678") for n in names]


def test_a_rated_duel_is_decided_and_rated_at_the_first_win_and_only_once():
    ada, bob = accounts("ada", "bob")
    game, (p_ada, p_bob) = running_race(("ada", ada), ("bob", bob), rated=True)
    move_apply(player_id=p_bob.id, move=Reveal(*game.safe_cell))
    events = win(game, p_ada)
    assert kinds(events)[-2:] == ["finished", "decided"]
    assert one(events, "decided")["winner"] == p_ada.id
    decided = one(events, "decided")["results"]
    assert [(r["rank"], r["name"], r["status"]) for r in decided] == [
        (1, "ada", "won"),
        (2, "bob", "playing"),
    ]
    # The rating moved at the decided moment, in that transaction, and the frame says by how much.
    after = {r.user.username: r.display for r in Rating.objects.select_related("user")}
    assert decided[0]["rating_after"] == after["ada"] > decided[0]["rating_before"] == 1000
    assert decided[1]["rating_after"] == after["bob"] < 1000
    assert all(r["bbbv"] is None and r["bbbv_solved"] is None for r in decided)  # bob still races

    # Bob plays on: his moves are recorded, nothing is decided again, nothing is rated again.
    more = move_apply(player_id=p_bob.id, move=Reveal(*safe_cells(game)[-1]))
    assert "decided" not in kinds(more.events)
    over = lifecycle.player_resign(player_id=p_bob.id)
    assert kinds(over) == ["finished", "game_over"]
    final = one(over, "game_over")["results"]
    assert [(r["rank"], r["rating_before"], r["rating_after"]) for r in final] == [
        (r["rank"], r["rating_before"], r["rating_after"]) for r in decided
    ]
    assert RatingChange.objects.filter(game=game).count() == 2
    assert {r.games for r in Rating.objects.all()} == {1}


def test_ranks_fixed_at_decided_stand_when_the_last_racer_then_resigns():
    """A won, C lost with less than B, B still playing: decided (B second). B then resigns,
    which would rank it below C; the ranks fixed at decided stand in game_over."""
    game, (a, b, c) = running_race(("ann", None), ("ben", None), ("cat", None))
    safe = safe_cells(game)
    move_apply(player_id=b.id, move=Reveal(*game.safe_cell))
    move_apply(player_id=c.id, move=a_mine(game))  # cat opens nothing
    events = win(game, a)
    decided = one(events, "decided")["results"]
    assert [(r["name"], r["rank"]) for r in decided] == [("ann", 1), ("ben", 2), ("cat", 3)]
    move_apply(player_id=b.id, move=Reveal(*safe[-1]))
    over = one(lifecycle.player_resign(player_id=b.id), "game_over")["results"]
    assert [(r["name"], r["rank"], r["status"]) for r in over] == [
        ("ann", 1, "won"),
        ("ben", 2, "dnf"),
        ("cat", 3, "lost"),
    ]
    game.refresh_from_db()
    state = game_public(game, list(game.players.all()))
    assert [(r["name"], r["rank"]) for r in state["results"]] == [
        ("ann", 1),
        ("ben", 2),
        ("cat", 3),
    ]


def test_a_duel_whose_loser_is_ahead_is_decided_by_the_others_move_that_passes_it():
    game, (ann, ben) = running_race(("ann", None), ("ben", None))
    opened = move_apply(player_id=ann.id, move=Reveal(*game.safe_cell)).cells["progress"]
    lost = move_apply(player_id=ann.id, move=a_mine(game))
    assert kinds(lost.events) == ["move", "finished"]  # ann is ahead: ben may still lose below
    level = move_apply(player_id=ben.id, move=Reveal(*game.safe_cell))
    assert kinds(level.events) == ["move"]  # level on cells: ann got there first
    game.refresh_from_db()
    assert game.decided_at is None and game.deciding_racer == ben.id

    shown = {tuple(c[:2]) for c in level.cells["cells"]}
    beyond = next(cell for cell in safe_cells(game) if cell not in shown)
    passing = move_apply(player_id=ben.id, move=Reveal(*beyond))
    assert passing.cells["progress"]["revealed"] > opened["revealed"]
    assert kinds(passing.events) == ["move", "decided"]
    decided = one(passing.events, "decided")["results"]
    assert [(r["name"], r["rank"], r["status"]) for r in decided] == [
        ("ben", 1, "playing"),
        ("ann", 2, "lost"),
    ]
    game.refresh_from_db()
    assert game.decided_at is not None and game.deciding_racer == ""
    state = game_public(game, list(game.players.all()))
    assert state["decided_at"] is not None and state["decided"] == decided  # a page reloaded

    assert one(passing.events, "decided")["winner"] == ben.id  # ann lost: ben has won

    over = move_apply(player_id=ben.id, move=a_mine(game))
    assert kinds(over.events) == ["move", "finished", "game_over"]
    final = one(over.events, "game_over")["results"]
    assert [(r["name"], r["rank"]) for r in final] == [("ben", 1), ("ann", 2)]
    assert one(over.events, "game_over")["winner"] == ben.id  # his later mine changes nothing


def test_when_both_hit_a_mine_the_first_placed_first_and_nobody_won():
    """Issue 22.6: a racer read "You finished #1 of 2" and the page "nobody finished"; the
    ranking now says both: ann is first, and nobody won the race."""
    game, (ann, ben) = running_race(("ann", None), ("ben", None))
    move_apply(player_id=ann.id, move=Reveal(*game.safe_cell))
    move_apply(player_id=ann.id, move=a_mine(game))
    events = move_apply(player_id=ben.id, move=a_mine(game)).events
    assert one(events, "decided")["winner"] is None
    over = one(events, "game_over")
    assert over["winner"] is None
    assert [(r["name"], r["rank"], r["status"]) for r in over["results"]] == [
        ("ann", 1, "lost"),
        ("ben", 2, "lost"),
    ]
    game.refresh_from_db()
    assert game_public(game, list(game.players.all()))["winner"] is None


def test_a_duel_is_decided_when_the_opponent_resigns():
    """Issue 22: after the opponent resigned, the race stayed "Race on!" until the board was
    cleared."""
    game, (_ann, ben) = running_race(("ann", None), ("ben", None))
    move_apply(player_id=ben.id, move=Reveal(*game.safe_cell))
    events = lifecycle.player_resign(player_id=ben.id)
    assert kinds(events) == ["finished", "decided"]
    assert [(r["name"], r["rank"]) for r in one(events, "decided")["results"]] == [
        ("ann", 1),
        ("ben", 2),
    ]


def test_the_time_limit_decides_and_ends_a_race_in_one_go():
    game, (ann, _ben) = running_race(("ann", None), ("ben", None))
    move_apply(player_id=ann.id, move=Reveal(*game.safe_cell))
    Game.objects.filter(pk=game.pk).update(started_at=timezone.now() - timedelta(hours=1))
    events = game_tick(game_id=game.id)
    assert kinds(events) == ["finished", "finished", "decided", "game_over"]
    assert one(events, "game_over")["winner"] is None  # the time limit: nobody won
    decided, over = one(events, "decided")["results"], one(events, "game_over")["results"]
    assert [(r["name"], r["rank"]) for r in decided] == [(r["name"], r["rank"]) for r in over]
    assert decided[0]["bbbv"] is not None  # nobody plays any more: the board's figures show


def test_the_decided_hook_is_called_once_in_the_deciding_transaction(monkeypatch):
    calls = []

    def hook(game, standings, now):
        calls.append(
            (game.id, [(p.rank, p.player.name) for p in standings], Game.objects.get(pk=game.id))
        )
        return []

    monkeypatch.setattr(deciding, "_HOOKS", {})
    deciding.decided_hook_register("test", hook)
    game, (ann, ben) = running_race(("ann", None), ("ben", None))
    win(game, ann)
    lifecycle.player_resign(player_id=ben.id)
    [(game_id, standings, row)] = calls
    assert (game_id, standings) == (game.id, [(1, "ann"), (2, "ben")])
    assert row.decided_at is not None  # it ran after the decision was written, before commit
