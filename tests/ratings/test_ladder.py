"""The ranked ladder (docs/protocol.md 8): the rating list's filters, the seasons, a season's
ladder (shape, order, the account's own place, frozen once over), and the player's seasons."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.accounts.models import Account
from games.fairplay.services import account_mark
from games.ratings.buckets import ladder_buckets_rebuild
from games.ratings.models import LadderBucket, Rating, Season, SeasonRating
from games.ratings.seasons import season_current
from tests.ratings.seasons_support import Q1, Q4, accounts, rate, settle

pytestmark = pytest.mark.django_db


def listed(client: Client, query: str = "") -> list[str]:
    return [e["name"] for e in client.get(f"/api/ratings/beginner/{query}").json()["entries"]]


def test_the_rating_list_shows_settled_active_people_only(client):
    now = timezone.now()
    names = ("settled", "newcomer", "robot", "cheat", "away", "lately")
    users = dict(zip(names, accounts(*names), strict=True))
    for shown, name in enumerate(names):
        settle(users[name], 1400 - shown)
    Rating.objects.update(rated_at=now - timedelta(hours=1))
    Rating.objects.filter(user=users["newcomer"]).update(games=9)  # provisional
    Account.objects.create(user=users["robot"], bot=True)
    Rating.objects.filter(user=users["cheat"]).update(frozen=True)  # marked
    Rating.objects.filter(user=users["away"]).update(rated_at=now - timedelta(days=7, minutes=1))
    Rating.objects.filter(user=users["lately"]).update(rated_at=now - timedelta(days=6, hours=23))
    assert listed(client) == ["settled", "lately"]

    entry = client.get("/api/ratings/beginner/").json()["entries"][0]
    assert entry == {
        "rank": 1, "name": "settled", "rating": 1400, "games": 20, "provisional": False,
        "league": "placement", "bot": False,
    }  # fmt: skip
    # Ten races is settled; its league is its current season's.
    Rating.objects.filter(user=users["newcomer"]).update(games=10)
    season = season_current(now=now)
    SeasonRating.objects.create(season=season, user=users["newcomer"], preset="beginner",
                                variant="classic", races=5, rating=1399, games=10,
                                updated_at=now)  # fmt: skip
    entries = client.get("/api/ratings/beginner/").json()["entries"]
    assert [(e["name"], e["league"]) for e in entries] == [
        ("settled", "placement"), ("newcomer", "gold"), ("lately", "placement"),
    ]  # fmt: skip
    assert listed(client, "?variant=no_guess") == []


def fill(season: Season, ratings: dict, races: int = 5, **extra) -> None:
    for user, rating in ratings.items():
        SeasonRating.objects.create(season=season, user=user, preset="beginner",
                                    variant="classic", races=races, wins=1, rating=rating,
                                    games=12, updated_at=season.starts_at, **extra)  # fmt: skip
    ladder_buckets_rebuild(season=season)  # written past the services: count them


def test_seasons_newest_first_and_a_ladder_of_placed_accounts(client):
    q4 = season_current(now=Q4)
    q1 = season_current(now=Q1)
    seasons = client.get("/api/seasons/").json()["seasons"]
    ids = [s["id"] for s in seasons]
    assert ids.index("2026-q1") < ids.index("2025-q4")  # newest first
    now_id = [s["id"] for s in seasons if s["current"]]
    assert len(now_id) == 1 and now_id[0] == season_current(now=timezone.now()).id
    (q4_view,) = [s for s in seasons if s["id"] == "2025-q4"]
    assert q4_view == {"id": "2025-q4", "name": "2025 Q4", "starts_at": "2025-10-01T00:00:00.000Z",
                       "ends_at": "2026-01-01T00:00:00.000Z", "current": False}  # fmt: skip

    ada, bob, cat, dan = accounts("ada", "bob", "cat", "dan")
    fill(q4, {ada: 1720, bob: 1390, cat: 1390})
    fill(q4, {dan: 1900}, races=4)  # in placement: not on the ladder
    fill(q1, {dan: 1200}, races=1)
    answer = client.get("/api/seasons/2025-q4/ladder/beginner/").json()
    assert answer["season"]["id"] == "2025-q4" and answer["variant"] == "classic"
    assert answer["entries"] == [
        {"rank": 1, "name": "ada", "rating": 1720, "provisional": False, "league": "master",
         "races": 5, "wins": 1},
        {"rank": 2, "name": "bob", "rating": 1390, "provisional": False, "league": "gold",
         "races": 5, "wins": 1},  # a tie: the older account first
        {"rank": 3, "name": "cat", "rating": 1390, "provisional": False, "league": "gold",
         "races": 5, "wins": 1},
    ]  # fmt: skip
    assert "you" not in answer  # a guest's
    names = [
        e["name"] for e in client.get("/api/seasons/2026-q1/ladder/beginner/").json()["entries"]
    ]
    assert names == []  # dan has one race there
    current = client.get("/api/seasons/current/ladder/beginner/").json()
    assert current["season"]["current"] is True

    client.force_login(cat)
    you = client.get("/api/seasons/2025-q4/ladder/beginner/").json()["you"]
    assert (you["rank"], you["name"], you["league"]) == (3, "cat", "gold")
    client.force_login(dan)
    you = client.get("/api/seasons/2025-q4/ladder/beginner/").json()["you"]
    assert (you["rank"], you["league"], you["races"]) == (None, "placement", 4)
    assert client.get("/api/seasons/2026-q1/ladder/expert/").json()["you"] is None


def test_the_ladder_shows_100_and_the_accounts_own_place_beyond(client):
    season = season_current(now=Q4)
    users = accounts(*(f"p{i:03d}" for i in range(130)))
    fill(season, {user: 2000 - i for i, user in enumerate(users)})
    client.force_login(users[120])
    answer = client.get("/api/seasons/2025-q4/ladder/beginner/").json()
    assert [e["rank"] for e in answer["entries"]] == list(range(1, 101))
    assert answer["entries"][-1]["name"] == "p099"
    assert (answer["you"]["rank"], answer["you"]["name"], answer["you"]["rating"]) == (
        121, "p120", 1880,
    )  # fmt: skip


def test_a_finished_seasons_ladder_never_changes_but_a_marked_account_leaves(client):
    ada, bob, cat = accounts("ada", "bob", "cat")
    for minute in range(5):
        rate([ada, bob, cat], Q4 + timedelta(minutes=minute))
    before = client.get("/api/seasons/2025-q4/ladder/beginner/").json()["entries"]
    assert [e["name"] for e in before] == ["ada", "bob", "cat"]
    assert [e["wins"] for e in before] == [5, 0, 0]
    for minute in range(3):  # the next season's races, the reverse order
        rate([cat, bob, ada], Q1 + timedelta(minutes=minute))
    assert client.get("/api/seasons/2025-q4/ladder/beginner/").json()["entries"] == before

    account_mark(user_id=ada.pk)
    assert kept_buckets() == rebuilt_buckets()  # a mark takes ada out of each one's bucket
    after = client.get("/api/seasons/2025-q4/ladder/beginner/").json()["entries"]
    assert [(e["rank"], e["name"]) for e in after] == [(1, "bob"), (2, "cat")]
    assert client.get("/api/players/ada/").json()["seasons"] == []


def kept_buckets() -> dict:
    return {
        (b.season_id, b.preset, b.variant, b.rating): b.accounts
        for b in LadderBucket.objects.exclude(accounts=0)
    }


def rebuilt_buckets() -> dict:
    for season in Season.objects.all():
        ladder_buckets_rebuild(season=season)
    return kept_buckets()


def test_the_ladders_buckets_follow_every_race_as_a_recount_would():
    """An account's place is summed from buckets that race_rate keeps: moving along the
    ladder, and onto it at its fifth race; the sums are what counting the rows gives."""
    users = accounts(*(f"r{i}" for i in range(6)))
    for minute in range(7):
        order = users[minute % 6 :] + users[: minute % 6]
        rate(order[:4], Q4 + timedelta(minutes=minute))
    rate(users[:2], Q1)
    kept = kept_buckets()
    assert sum(kept.values()) == SeasonRating.objects.filter(races__gte=5).count() > 0
    assert kept == rebuilt_buckets()


def test_the_players_page_has_its_league_and_rank_per_season(client):
    ada, bob = accounts("ada", "bob")
    for minute in range(5):
        rate([bob, ada], Q4 + timedelta(minutes=minute))
    rate([ada, bob], Q1)
    seasons = client.get("/api/players/ada/").json()["seasons"]
    assert [s["id"] for s in seasons] == ["2026-q1", "2025-q4"]
    (ladder,) = seasons[1]["ladders"]
    assert ladder == {
        "preset": "beginner", "variant": "classic", "league": "bronze", "rank": 2,
        "rating": SeasonRating.objects.get(user=ada, season_id="2025-q4").rating,
        "provisional": True, "races": 5, "wins": 0,
    }  # fmt: skip
    (placing,) = seasons[0]["ladders"]
    assert (placing["league"], placing["rank"], placing["races"]) == ("placement", None, 1)


def test_ladder_errors(client):
    assert client.get("/api/seasons/1999-q1/ladder/beginner/").status_code == 404
    assert client.get("/api/seasons/current/ladder/huge/").status_code == 404
    wrong = client.get("/api/seasons/current/ladder/beginner/?variant=lucky")
    assert wrong.status_code == 400 and wrong.json()["error"]["field"] == "variant"
    assert client.get("/api/seasons/NOPE/ladder/beginner/").status_code == 404
    assert client.post("/api/seasons/", "{}", content_type="application/json").status_code == 405


def test_a_refund_moves_the_season_rating_and_its_bucket(client):
    """docs/protocol.md 6.4 and 8: a refund raises the current season's rating as well, and the
    ladder's buckets follow; the cheater leaves them."""
    cheat, victim, other = accounts("cheat", "victim", "other")
    now = timezone.now()
    for minute in range(5):
        rate([cheat, other, victim], now - timedelta(minutes=10 - minute))
    before = SeasonRating.objects.get(user=victim).rating
    account_mark(user_id=cheat.pk)
    row = SeasonRating.objects.get(user=victim)
    assert row.rating > before
    assert row.rating == Rating.objects.get(user=victim).display
    assert kept_buckets() == rebuilt_buckets()
    names = [
        e["name"] for e in client.get("/api/seasons/current/ladder/beginner/").json()["entries"]
    ]
    assert names == ["other", "victim"] or names == ["victim", "other"]
