"""One click and a resignation is not a game (docs/protocol.md 6.2, v1.3): a racer who resigned or
was dropped before 3 moves that changed its board, by the moment the race is decided, aborts
it for ratings and points; `decided`, `game_over` and the public state say `aborted`."""

import pytest

from games.engine import Reveal
from games.models import Game
from games.moves.services import move_apply
from games.races import lifecycle
from games.races.aborting import board_changes
from games.races.serializers import game_public
from games.ratings.models import Rating, RatingChange
from games.ratings.selectors import pair_rated_today
from games.tournaments.models import ArenaRace
from tests.ratings.test_ratings import accounts, changes, rated_race, win
from tests.tournaments.arena import arena, entry_of, lose, player_of, start
from tests.tournaments.test_services import pair_two

pytestmark = pytest.mark.django_db


def frame(events, kind: str) -> dict:
    return next(e for e in events if e.kind == kind).payload


def public(game: Game) -> dict:
    game.refresh_from_db()
    return game_public(game, list(game.players.order_by("joined_at")))


def test_a_click_and_a_resignation_moves_no_rating_and_every_frame_says_aborted():
    ada, bob = accounts("ada", "bob")
    game, (p_ada, p_bob) = rated_race([("ada", ada), ("bob", bob)])
    move_apply(player_id=p_bob.id, move=Reveal(*game.safe_cell))
    # Two more clicks on the open start cell change nothing: still 1 move that changed it.
    for _ in range(2):
        move_apply(player_id=p_bob.id, move=Reveal(*game.safe_cell))
    p_bob.refresh_from_db()
    assert p_bob.moves_count == 3 and board_changes(game, p_bob, 3) == 1
    events = lifecycle.player_resign(player_id=p_bob.id)  # decides it: ada is first whatever
    decided = frame(events, "decided")
    assert (decided["aborted"], decided["aborted_because"]) == (True, "left_early")
    for row in decided["results"]:
        assert row["rating_after"] == row["rating_before"] == 1000
    assert public(game)["aborted"] is True
    over = frame(win_events(game, p_ada), "game_over")
    assert over["aborted"] is True
    assert [(r["name"], r["rating_before"], r["rating_after"]) for r in over["results"]] == [
        ("ada", 1000, 1000),
        ("bob", 1000, 1000),
    ]
    assert not Rating.objects.filter(games__gt=0).exists()
    assert not RatingChange.objects.filter(counted=True).exists()
    assert pair_rated_today(ada.pk, bob.pk) == 0  # an aborted race is not one of the day's 3


def win_events(game: Game, player) -> list:
    """Win the race, returning the events of the winning move's finish."""
    from games.boards.stored import board_of

    board = board_of(game)
    for index in range(board.size):
        if not board.is_mine(index):
            outcome = move_apply(player_id=player.id, move=Reveal(*board.xy(index)))
            if outcome.cells["status"] == "won":
                return outcome.events
    raise AssertionError("no win")


def test_three_moves_that_changed_the_board_then_a_resignation_is_rated():
    ada, bob = accounts("ada", "bob")
    game, (_, p_bob) = rated_race([("ada", ada), ("bob", bob)])
    changes(game, p_bob, 3)
    decided = frame(lifecycle.player_resign(player_id=p_bob.id), "decided")
    assert "aborted" not in decided and "aborted" not in public(game)
    rows = {r["name"]: r for r in decided["results"]}
    assert rows["ada"]["rating_after"] > 1000 > rows["bob"]["rating_after"]
    assert pair_rated_today(ada.pk, bob.pk) == 1


def test_a_slow_racer_aborts_nothing_nor_a_resignation_after_decided():
    ada, bob = accounts("ada", "bob")
    game, (p_ada, p_bob) = rated_race([("ada", ada), ("bob", bob)])
    win(game, p_ada)  # decided here: bob never moved, and had not left
    over = frame(lifecycle.player_resign(player_id=p_bob.id), "game_over")
    assert "aborted" not in over
    assert Rating.objects.filter(games=1).count() == 2


def test_a_race_nobody_moved_in_is_aborted_as_no_moves():
    ada, bob = accounts("ada", "bob")
    _, (p_ada, p_bob) = rated_race([("ada", ada), ("bob", bob)])
    lifecycle.player_resign(player_id=p_ada.id)
    over = frame(lifecycle.player_resign(player_id=p_bob.id), "game_over")
    assert (over["aborted"], over["aborted_because"]) == (True, "no_moves")


def test_a_casual_race_is_never_judged():
    """A race that counts for nothing has nothing to abort: its frames say nothing of it."""
    ada, bob = accounts("ada", "bob")
    game, (_, p_bob) = rated_race([("ada", ada), ("bob", bob)])
    Game.objects.filter(pk=game.pk).update(rated=False)
    events = lifecycle.player_resign(player_id=p_bob.id)
    assert "aborted" not in frame(events, "decided")


def test_an_arena_race_with_a_click_and_a_resignation_scores_nothing():
    tournament = arena()
    (ann, bea), game_id = pair_two(tournament)
    game = start(game_id)
    move_apply(player_id=player_of(game_id, bea).id, move=Reveal(*game.safe_cell))
    events = lifecycle.player_resign(player_id=player_of(game_id, bea).id)
    assert frame(events, "decided")["aborted"] is True
    a, b = entry_of(tournament, ann), entry_of(tournament, bea)
    assert (a.points, a.races, a.wins, a.game_id) == (0, 0, 0, "")  # free again, no points
    assert (b.points, b.races) == (0, 0)
    assert ArenaRace.objects.get(game_id=game_id).scored


def test_an_arena_race_lost_by_a_click_on_a_mine_is_scored():
    """Losing at once is playing (only leaving is not): the winner scores as ever."""
    tournament = arena()
    (ann, bea), game_id = pair_two(tournament)
    game = start(game_id)
    move_apply(player_id=player_of(game_id, ann).id, move=Reveal(*game.safe_cell))
    lose(game, player_of(game_id, bea))
    assert entry_of(tournament, ann).points == 2
