"""An account's every finished game (issue 35.2, docs/protocol.md 10.1): solo, casual race, race
against a bot, rated race, tournament race and match race, each labelled with what it counted
for, newest first, filtered and paged; without `kind` the endpoint keeps its meaning (ranked
games)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games.history import selectors
from games.history.kinds import COUNTS, KINDS, Facts, counted_for, kind_of
from games.matches.models import Match, MatchRace, MatchStatus
from games.models import Game, GameStatus, Player, PlayerStatus
from games.races import lifecycle
from games.races.spec import game_spec
from games.ratings.models import RatingChange
from games.scores.records import score_record
from games.tournaments.models import ArenaRace, Tournament
from tests.scores.play import play_solo

pytestmark = pytest.mark.django_db


def history(client, name="ann", **query):
    return client.get(f"/api/players/{name}/games/", query)


def finish(game: Game, minutes_ago: int, status: str = PlayerStatus.WON) -> Game:
    """End a race as its rows would be at its end, `minutes_ago`."""
    moment = timezone.now() - timedelta(minutes=minutes_ago)
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED, finished_at=moment, bbbv=20)
    Player.objects.filter(game=game).update(status=PlayerStatus.LOST, finished_at=moment)
    Player.objects.filter(game=game, user__isnull=False).update(status=status, time_ms=4321)
    game.refresh_from_db()
    return game


def race(user, *, minutes_ago: int, rated: bool = False, bot: str | None = None) -> Game:
    spec = game_spec({"mode": "race", "preset": "beginner"})
    if bot:
        game = lifecycle.bot_race_create(spec=spec, level=bot)
    else:
        game = lifecycle.game_create(spec=spec)
        lifecycle.player_join(game_id=game.id, name="guest-bob")
    player = lifecycle.player_join(game_id=game.id, name=None, user=user).player
    if rated:
        Game.objects.filter(pk=game.pk).update(rated=True, ranked=False)
        RatingChange.objects.create(
            game=game, player=player, user=user, preset="beginner", variant="classic",
            before=1000, after=1012,
        )  # fmt: skip
    return finish(game, minutes_ago)


@pytest.fixture
def ann():
    """Ann's evening, oldest first: a ranked solo win, a casual race, a race against a bot, a
    rated race, a tournament race, a match's race, a tournament race past the pair's cap (no
    points), and a custom solo game that counted for nothing."""
    user = get_user_model().objects.create_user(username="ann", password="pw-123456")
    solo = play_solo(user=user, name="ann")
    Game.objects.filter(pk=solo.pk).update(finished_at=timezone.now() - timedelta(minutes=60))
    casual = race(user, minutes_ago=50)
    for player in Player.objects.filter(game=casual):  # a ranked race: its results are scored
        score_record(game=casual, player=player)
    bot = race(user, minutes_ago=40, bot="steady")
    rated = race(user, minutes_ago=30, rated=True)
    arena = Tournament.objects.create(
        name="Evening", preset="beginner", starts_at=timezone.now() - timedelta(hours=1),
        ends_at=timezone.now() + timedelta(hours=1),
    )  # fmt: skip
    tournament = race(user, minutes_ago=20, rated=True)
    ArenaRace.objects.create(game=tournament, tournament=arena, created_at=timezone.now())
    match_race = race(user, minutes_ago=17, rated=True)
    match = Match.objects.create(
        challenger=user, opponent=get_user_model().objects.create_user(username="cy"),
        preset="beginner", first_to=3, win_by=1, max_races=5, rated=True,
        status=MatchStatus.PLAYING,
        created_at=timezone.now(), expires_at=timezone.now() + timedelta(minutes=10),
    )  # fmt: skip
    MatchRace.objects.create(match=match, number=1, game=match_race)
    no_points = race(user, minutes_ago=15)
    ArenaRace.objects.create(
        game=no_points, tournament=arena, created_at=timezone.now(), points=False
    )  # the pair's 4th race in this tournament (docs/protocol.md 6.2)
    custom = play_solo(user=user, name="ann", body={"width": 8, "height": 8, "mines": 5})
    Game.objects.filter(pk=custom.pk).update(finished_at=timezone.now() - timedelta(minutes=10))
    return {"solo": solo, "casual": casual, "bot": bot, "rated": rated,
            "tournament": tournament, "match_race": match_race, "match": match,
            "no_points": no_points, "custom": custom, "arena": arena}  # fmt: skip


def test_every_finished_game_with_its_kind_and_what_it_counted_for(client, ann):
    data = history(client, kind="all").json()
    assert data["name"] == "ann" and data["verified"] is True and data["next"] is None
    rows = [(g["game"], g["kind"], g["counted_for"]) for g in data["games"]]
    assert rows == [
        (ann["custom"].id, "solo", []),
        (ann["no_points"].id, "tournament", []),  # played in the arena, scored nothing there
        (ann["match_race"].id, "match", ["rating"]),
        (ann["tournament"].id, "tournament", ["rating", "tournament"]),
        (ann["rated"].id, "rated", ["rating"]),
        (ann["bot"].id, "bot", []),
        (ann["casual"].id, "casual", ["leaderboard"]),  # a ranked race: leaderboards
        (ann["solo"].id, "solo", ["leaderboard"]),
    ]
    assert data["summary"] == {"games": 8, "wins": 8, "win_rate": 1.0}
    by_game = {g["game"]: g for g in data["games"]}
    assert by_game[ann["tournament"].id]["tournament"] == ann["arena"].id
    assert by_game[ann["match_race"].id]["match"] == ann["match"].id
    assert by_game[ann["tournament"].id]["match"] is None
    assert by_game[ann["casual"].id]["opponents"] == ["guest-bob"]
    assert by_game[ann["custom"].id]["preset"] is None and by_game[ann["custom"].id]["width"] == 8
    assert by_game[ann["rated"].id]["time_ms"] == 4321
    # Without `kind`, the same endpoint keeps its meaning: ranked games only.
    ranked = history(client).json()
    assert {g["game"] for g in ranked["games"]} == {ann["solo"].id, ann["casual"].id}


def test_filters_by_kind_preset_and_result(client, ann):
    for kind in KINDS:
        games = history(client, kind=kind).json()["games"]
        assert games and {g["kind"] for g in games} == {kind}
    assert len(history(client, kind="solo").json()["games"]) == 2
    assert history(client, kind="all", preset="expert").json()["games"] == []
    Player.objects.filter(game=ann["bot"], user__isnull=False).update(status=PlayerStatus.LOST)
    lost = history(client, kind="all", result="lost").json()
    assert [g["game"] for g in lost["games"]] == [ann["bot"].id]
    assert lost["summary"] == {"games": 1, "wins": 0, "win_rate": 0.0}


def test_pages_follow_one_another_without_a_gap_or_a_repeat(client, ann, monkeypatch):
    monkeypatch.setattr(selectors, "PAGE", 2)
    seen, before = [], None
    while True:
        query = {"kind": "all", **({"before": before} if before else {})}
        data = history(client, **query).json()
        seen += [g["game"] for g in data["games"]]
        before = data["next"]
        if before is None:
            break
    assert len(seen) == 8 == len(set(seen))


def test_bad_filters_and_names_without_an_account(client, ann):
    for field, value in (("kind", "duel"), ("result", "won!"), ("preset", "huge")):
        answer = history(client, **{"kind": "all", field: value})
        assert answer.status_code == 400 and answer.json()["error"]["field"] == field
    answer = history(client, kind="all", before="yesterday")
    assert answer.status_code == 400 and answer.json()["error"]["field"] == "before"
    assert history(client, name="nobody", kind="all").status_code == 404


@given(*[st.booleans()] * 8)
def test_a_kind_is_one_word_and_counts_follow_the_facts(
    solo, bot, rated, arena, board, rating, match, points
):
    facts = Facts(solo, bot, rated, arena, board, rating, match, points)
    kind = kind_of(facts)
    assert kind in KINDS
    assert (kind == "solo") == solo
    assert not solo or kind == "solo"
    if not solo and arena:
        assert kind == "tournament"
    if not solo and not arena and match:
        assert kind == "match"
    counts = counted_for(facts)
    assert counts == [c for c in COUNTS if c in counts]  # in order, each once
    assert ("tournament" in counts) == (arena and points) and ("rating" in counts) == rating
