"""Tournament services (docs/protocol.md 7): join and withdraw, the pairing pass, points written
with the race's end, berserk, leavers and marks."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.accounts.models import Account
from games.errors import ServiceError
from games.fairplay.services import account_mark
from games.models import Game
from games.races import lifecycle
from games.tournaments import selectors, services
from games.tournaments.models import ArenaRace, Entry
from tests.tournaments.arena import (
    account,
    arena,
    entry_of,
    flag,
    joined_and_waiting,
    lose,
    player_of,
    start,
    win,
)

pytestmark = pytest.mark.django_db(transaction=True)


def codes(call) -> str:
    with pytest.raises(ServiceError) as refused:
        call()
    return refused.value.code


def test_join_withdraw_and_join_again_keeps_the_points():
    tournament = arena()
    alice = account("alice")
    row = services.tournament_join(tournament_id=tournament.id, user=alice)
    assert (row["rank"], row["name"], row["points"], row["withdrawn"]) == (1, "alice", 0, False)
    Entry.objects.filter(user=alice).update(points=7)
    assert services.tournament_withdraw(tournament_id=tournament.id, user=alice)["withdrawn"]
    again = services.tournament_join(tournament_id=tournament.id, user=alice)
    assert (again["points"], again["withdrawn"]) == (7, False)
    assert Entry.objects.count() == 1


def test_bots_marked_accounts_guests_and_late_comers_are_refused_and_nothing_changes():
    tournament = arena()
    bot = account("robot")
    Account.objects.update_or_create(user=bot, defaults={"bot": True})
    cheat = account("cheat")
    account_mark(user_id=cheat.pk)
    join = services.tournament_join
    assert codes(lambda: join(tournament_id=tournament.id, user=bot)) == "bot_forbidden"
    assert codes(lambda: join(tournament_id=tournament.id, user=cheat)) == "marked"
    over = arena(starts_at=timezone.now() - timedelta(hours=2), ends_at=timezone.now())
    assert codes(lambda: join(tournament_id=over.id, user=account("late"))) == "finished"
    assert not Entry.objects.exists()


def test_a_pass_pairs_waiting_players_by_standing_into_rated_races_counting_down():
    tournament = arena()
    users = joined_and_waiting(tournament, ["ann", "bea", "cid", "dan", "eve"])
    for points, user in zip((1, 9, 5, 7, 3), users, strict=True):
        Entry.objects.filter(user=user).update(points=points)
    told = services.pair_pass(tournament_id=tournament.id)
    pairs = {}
    for paired in told:
        pairs.setdefault(paired.frame["game"]["id"], []).append(paired.channels[0])
    assert sorted(sorted(p) for p in pairs.values()) == [
        ["test.bea", "test.dan"], ["test.cid", "test.eve"]]  # fmt: skip
    for game in Game.objects.all():
        assert (game.rated, game.status, game.max_players) == (True, "countdown", 2)
        assert {p.status for p in game.players.all()} == {"ready"}
    assert entry_of(tournament, users[0]).game_id == ""  # ann waits alone for the next pass
    assert services.pair_pass(tournament_id=tournament.id) == []  # nobody twice


def test_nobody_is_paired_before_the_start_after_the_end_or_without_a_connection():
    later = arena(starts_at=timezone.now() + timedelta(minutes=5))
    joined_and_waiting(later, ["ann", "bea"])
    assert services.pair_pass(tournament_id=later.id) == []
    over = arena(starts_at=timezone.now() - timedelta(hours=1), ends_at=timezone.now())
    assert services.pair_pass(tournament_id=over.id) == []
    tournament = arena()
    cid, dan = account("cid"), account("dan")
    for user in (cid, dan):
        services.tournament_join(tournament_id=tournament.id, user=user)
    services.waiter_open(channel="test.cid", tournament_id=tournament.id, user=cid)
    assert services.pair_pass(tournament_id=tournament.id) == []  # dan has no connection
    services.tournament_withdraw(tournament_id=tournament.id, user=cid)
    services.waiter_open(channel="test.dan", tournament_id=tournament.id, user=dan)
    assert services.pair_pass(tournament_id=tournament.id) == []  # cid withdrew
    assert not Game.objects.exists()


def test_two_accounts_of_one_address_are_paired_like_any_others():
    """docs/protocol.md 6.2 (v1.3): friends on one network race each other in an arena."""
    tournament = arena()
    joined_and_waiting(tournament, ["ann", "bea"], addresses=["10.1.1.1", "10.1.1.1"])
    told = services.pair_pass(tournament_id=tournament.id)
    assert {t.frame["game"]["id"] for t in told} != set() and len(told) == 2


def pair_two(tournament, names=("ann", "bea")):
    users = joined_and_waiting(tournament, list(names))
    told = services.pair_pass(tournament_id=tournament.id)
    return users, told[0].frame["game"]["id"]


def test_a_win_is_written_with_the_races_end_and_both_are_free_again():
    tournament = arena()
    (ann, bea), game_id = pair_two(tournament)
    game = start(game_id)
    win(game, player_of(game_id, ann))
    lose(game, player_of(game_id, bea))
    assert Game.objects.get(pk=game_id).status == "finished"
    a, b = entry_of(tournament, ann), entry_of(tournament, bea)
    assert (a.points, a.wins, a.races, a.streak, a.game_id) == (2, 1, 1, 1, "")
    assert a.win_time_ms == player_of(game_id, ann).time_ms > 0
    assert (b.points, b.wins, b.races, b.streak, b.game_id) == (0, 0, 1, 0, "")
    assert ArenaRace.objects.get(game_id=game_id).scored
    # Free again: the only other waiting player is its previous opponent, so they meet again.
    again = services.pair_pass(tournament_id=tournament.id)
    assert len(again) == 2 and again[0].frame["game"]["id"] != game_id


def test_three_wins_in_a_row_the_third_on_fire_is_worth_four():
    tournament = arena()
    (ann, bea), game_id = pair_two(tournament)
    for _ in range(3):
        game = start(game_id)
        lose(game, player_of(game_id, bea))
        win(game, player_of(game_id, ann))
        game_id = services.pair_pass(tournament_id=tournament.id)[0].frame["game"]["id"]
    a = entry_of(tournament, ann)
    assert (a.points, a.wins, a.streak) == (2 + 2 + 4, 3, 3)
    assert selectors.tournament_state(tournament_id=tournament.id)["standings"][0]["fire"]


def test_a_race_ending_after_the_tournament_counts_for_nothing():
    tournament = arena()
    (ann, bea), game_id = pair_two(tournament)
    game = start(game_id)
    type(tournament).objects.filter(pk=tournament.pk).update(ends_at=timezone.now())
    win(game, player_of(game_id, ann))
    lose(game, player_of(game_id, bea))
    a = entry_of(tournament, ann)
    assert (a.points, a.races, a.game_id) == (0, 0, "")


def test_berserk_during_the_countdown_refuses_flags_and_adds_a_point_to_a_win():
    tournament = arena()
    (ann, bea), game_id = pair_two(tournament)
    events = lifecycle.player_berserk(player_id=player_of(game_id, ann).id)
    assert [(e.kind, e.payload) for e in events] == [
        ("berserk", {"player": player_of(game_id, ann).id})]  # fmt: skip
    game = start(game_id)
    ann_player = player_of(game_id, ann)
    refused = codes(lambda: flag(game, ann_player))
    assert refused == "no_flags" and player_of(game_id, ann).flags == 0
    assert codes(lambda: lifecycle.player_berserk(player_id=player_of(game_id, bea).id)) == (
        "not_running")  # fmt: skip
    win(game, ann_player)
    lose(game, player_of(game_id, bea))
    a = entry_of(tournament, ann)
    assert (a.points, a.berserk_wins) == (3, 1)


def test_berserk_is_for_tournament_races_only():
    from games.races.spec import game_spec

    game = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "beginner"}))
    player = lifecycle.player_join(game_id=game.id, name="solo").player
    assert codes(lambda: lifecycle.player_berserk(player_id=player.id)) == "bad_message"


def test_a_racer_dropped_for_being_away_is_withdrawn_and_one_who_resigns_is_not():
    tournament = arena()
    (ann, bea), game_id = pair_two(tournament)
    game = start(game_id)
    from games.presence.models import PlayerPresence

    PlayerPresence.objects.filter(player=player_of(game_id, bea)).update(online=False)
    PlayerPresence.objects.filter(player=player_of(game_id, ann)).update(online=True)
    lose(game, player_of(game_id, ann))
    lifecycle.player_resign(player_id=player_of(game_id, bea).id)  # offline: dropped
    assert entry_of(tournament, bea).withdrawn
    assert not entry_of(tournament, ann).withdrawn


def test_a_marked_account_leaves_the_standings_and_the_rest_rerank():
    tournament = arena()
    ann, bea, cid = (account(n) for n in ("ann", "bea", "cid"))
    for user, points in ((ann, 5), (bea, 9), (cid, 1)):
        services.tournament_join(tournament_id=tournament.id, user=user)
        Entry.objects.filter(user=user).update(points=points)
    account_mark(user_id=bea.pk)
    rows = selectors.tournament_state(tournament_id=tournament.id)["standings"]
    assert [(r["rank"], r["name"]) for r in rows] == [(1, "ann"), (2, "cid")]


def test_a_racer_whose_part_is_over_is_not_sent_back_to_its_race():
    tournament = arena()
    (ann, bea), game_id = pair_two(tournament)
    pending = services.pending_paired(tournament_id=tournament.id, user_ids={ann.id, bea.id})
    assert {frame["game"]["id"] for frame in pending.values()} == {game_id}
    game = start(game_id)
    lose(game, player_of(game_id, ann))  # bea plays on: the race is not over
    pending = services.pending_paired(tournament_id=tournament.id, user_ids={ann.id, bea.id})
    assert list(pending) == [bea.id]


def test_a_pass_does_not_pair_last_races_opponents_again_when_others_wait():
    tournament = arena()
    ann, bea, cid, dan = joined_and_waiting(tournament, ["ann", "bea", "cid", "dan"])
    for user, points, last in ((ann, 9, bea), (bea, 8, ann), (cid, 7, None), (dan, 6, None)):
        Entry.objects.filter(user=user).update(points=points, last_opponent=last)
    told = services.pair_pass(tournament_id=tournament.id)
    games = {}
    for paired in told:
        games.setdefault(paired.frame["game"]["id"], set()).add(paired.channels[0])
    assert sorted(sorted(g) for g in games.values()) == [
        ["test.ann", "test.cid"], ["test.bea", "test.dan"]]  # fmt: skip


def test_a_player_paired_while_it_plays_on_a_decided_race_resigns_it():
    """docs/protocol.md 7: free from `decided` on, a racer still playing its lost race may be paired
    again; the pairing resigns that race for it, its place there fixed (2.2)."""
    tournament = arena()
    (ann, bea), game_id = pair_two(tournament)
    (cid,) = joined_and_waiting(tournament, ["cid"])
    game = start(game_id)
    win(game, player_of(game_id, ann))  # decided: bea can only be second, and may play on
    assert player_of(game_id, bea).status == "playing"
    assert Game.objects.get(pk=game_id).decided_at is not None
    a, b = entry_of(tournament, ann), entry_of(tournament, bea)
    assert (a.points, b.points, a.game_id, b.game_id) == (2, 0, "", "")  # scored at decided
    told = services.pair_race(
        tournament_id=tournament.id,
        entry_ids=(b.id, entry_of(tournament, cid).id),
        channels={},
    )
    assert len(told) == 2
    left = player_of(game_id, bea)
    assert (left.status, left.resigned) == ("dnf", True)
    assert Game.objects.get(pk=game_id).status == "finished"
    assert entry_of(tournament, bea).game_id == told[0].frame["game"]["id"]
    assert (entry_of(tournament, bea).points, entry_of(tournament, ann).points) == (0, 2)
