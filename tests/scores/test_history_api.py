"""A player's history and trend (issue 14.5): filters, pages, win rate, charts' points."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Score
from tests.scores.play import fake_finish

pytestmark = pytest.mark.django_db


def history(client, name="ann", **query):
    return client.get(f"/api/players/{name}/games/", query)


@pytest.fixture
def ann():
    """Ann's ranked games, oldest first: 3 beginner wins, 2 beginner losses, 1 expert win."""
    start = timezone.now() - timedelta(days=10)
    scores = [
        fake_finish("ann", time_ms, start + timedelta(days=k), preset=preset)
        for k, (time_ms, preset) in enumerate(
            [(9000, "beginner"), (None, "beginner"), (8000, "beginner"), (None, "beginner"),
             (7000, "beginner"), (90000, "expert")]
        )
    ]  # fmt: skip
    fake_finish("bob", 5000)  # someone else
    return scores


def test_all_games_newest_first_with_the_win_rate(client, ann):
    data = history(client).json()
    assert data["name"] == "ann" and data["verified"] is False
    assert [g["id"] for g in data["games"]] == [s.id for s in reversed(ann)]
    assert data["summary"] == {"games": 6, "wins": 4, "win_rate": 4 / 6}
    assert data["next"] is None


def test_filters_combine_and_the_summary_follows_them(client, ann):
    data = history(client, preset="beginner", result="won").json()
    assert [g["time_ms"] for g in data["games"]] == [7000, 8000, 9000]
    assert data["summary"] == {"games": 3, "wins": 3, "win_rate": 1.0}
    assert data["filters"] == {"preset": "beginner", "variant": None, "mode": None, "result": "won"}
    losses = history(client, preset="beginner", result="lost").json()
    assert losses["summary"]["win_rate"] == 0.0
    none = history(client, preset="intermediate").json()
    assert none["games"] == [] and none["summary"] == {"games": 0, "wins": 0, "win_rate": None}


def test_pages_of_fifty_follow_next(client):
    for k in range(120):
        fake_finish("cy", 10_000 + k)
    first = history(client, "cy").json()
    second = history(client, "cy", before=first["next"]).json()
    third = history(client, "cy", before=second["next"]).json()
    assert [len(p["games"]) for p in (first, second, third)] == [50, 50, 20]
    assert third["next"] is None
    ids = [g["id"] for p in (first, second, third) for g in p["games"]]
    assert ids == sorted(Score.objects.filter(name_key="cy").values_list("id", flat=True))[::-1]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"preset": "huge"}, "preset"),
        ({"variant": "easy"}, "variant"),
        ({"mode": "duel"}, "mode"),
        ({"result": "draw"}, "result"),
        ({"before": "x1"}, "before"),
        ({"before": "-3"}, "before"),
        ({"before": "9" * 30}, "before"),
    ],
)
def test_bad_filters_are_invalid(client, ann, query, field):
    error = history(client, **query).json()["error"]
    assert (error["code"], error["field"]) == ("invalid", field)


def test_an_unknown_name_is_not_found(client):
    assert history(client, "nobody").status_code == 404
    assert client.get("/api/players/nobody/trend/").status_code == 404


def test_the_trend_is_the_wins_of_one_preset_oldest_first(client, ann):
    data = client.get("/api/players/ann/trend/", {"preset": "beginner"}).json()
    assert (data["preset"], data["variant"]) == ("beginner", "classic")
    assert [p["time_ms"] for p in data["points"]] == [9000, 8000, 7000]
    assert all(p["bbbv_per_s"] == p["bbbv"] / (p["time_ms"] / 1000) for p in data["points"])
    expert = client.get("/api/players/ann/trend/", {"preset": "expert"}).json()
    assert [p["time_ms"] for p in expert["points"]] == [90000]
    bad = client.get("/api/players/ann/trend/", {"preset": "huge"}).json()["error"]
    assert bad["field"] == "preset"
