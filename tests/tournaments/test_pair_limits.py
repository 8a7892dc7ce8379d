"""What keeps two accounts from farming one another in arenas (docs/protocol.md 6.2, v1.3):
only their first 3 races against each other in one tournament score points, which `paired`
says before the race starts; and one account is never in two undecided races of different
arenas at once."""

import pytest

from games.tournaments import services
from games.tournaments.models import ArenaRace
from tests.tournaments.arena import arena, entry_of, joined_and_waiting, lose, player_of, start
from tests.tournaments.arena import win as win_race

pytestmark = pytest.mark.django_db


def pair_again(tournament) -> list:
    told = services.pair_pass(tournament_id=tournament.id)
    assert len(told) == 2, told
    return told


def test_the_fourth_race_of_a_pair_in_one_arena_scores_nothing_and_says_so_when_paired():
    tournament = arena()
    ann, bea = joined_and_waiting(tournament, ["ann", "bea"])
    for number in range(4):
        told = pair_again(tournament)
        game_id = told[0].frame["game"]["id"]
        if number < 3:
            assert all("points" not in paired.frame for paired in told)
        else:
            for paired in told:
                assert (paired.frame["points"], paired.frame["no_points_because"]) == (
                    False,
                    "pair_tournament_cap",
                )
            # Also past the day's rated races of the pair: unrated, said in the state.
            assert told[0].frame["game"]["unrated_because"] == "pair_daily_cap"
        game = start(game_id)
        win_race(game, player_of(game_id, ann))
        lose(game, player_of(game_id, bea))
    a = entry_of(tournament, ann)
    assert (a.points, a.wins, a.races) == (2 + 2 + 4, 3, 3)  # the fourth counted nothing
    assert a.game_id == "" and ArenaRace.objects.filter(points=False).count() == 1


def test_an_aborted_race_is_not_one_of_the_pairs_three():
    from games.presence.models import PlayerPresence
    from games.races import lifecycle

    tournament = arena()
    ann, bea = joined_and_waiting(tournament, ["ann", "bea"])
    game_id = pair_again(tournament)[0].frame["game"]["id"]
    start(game_id)
    # bea resigns with her page open (so she stays in the arena) before any move: aborted.
    PlayerPresence.objects.filter(player=player_of(game_id, bea)).update(online=True)
    lifecycle.player_resign(player_id=player_of(game_id, bea).id)
    for _ in range(3):
        told = pair_again(tournament)
        assert all("points" not in paired.frame for paired in told)
        game_id = told[0].frame["game"]["id"]
        game = start(game_id)
        win_race(game, player_of(game_id, ann))
        lose(game, player_of(game_id, bea))


def test_an_account_in_an_undecided_race_of_one_arena_is_not_paired_in_another():
    first, second = arena(), arena(name="Second Arena")
    ann, bea = joined_and_waiting(first, ["ann", "bea"])
    for user, address in ((ann, "10.0.0.1"), (bea, "10.0.0.2")):
        services.tournament_join(tournament_id=second.id, user=user)
        services.waiter_open(
            channel=f"second.{user.username}", tournament_id=second.id, user=user, address=address
        )
    game_id = pair_again(first)[0].frame["game"]["id"]
    assert services.pair_pass(tournament_id=second.id) == []  # both busy in the first
    game = start(game_id)
    win_race(game, player_of(game_id, ann))  # decided: free for any arena again
    assert len(services.pair_pass(tournament_id=second.id)) == 2
    assert services.pair_pass(tournament_id=first.id) == []  # now busy in the second
