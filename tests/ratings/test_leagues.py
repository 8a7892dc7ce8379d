"""Leagues and the season calendar (docs/protocol.md 8): pure rules, at each threshold."""

from datetime import UTC, datetime

import pytest

from games.ratings.leagues import league_change, league_of
from games.ratings.scale import provisional
from games.ratings.season_calendar import season_span


@pytest.mark.parametrize(
    ("rating", "league"),
    [
        (0, "bronze"), (1099, "bronze"),
        (1100, "silver"), (1249, "silver"),
        (1250, "gold"), (1399, "gold"),
        (1400, "platinum"), (1549, "platinum"),
        (1550, "diamond"), (1699, "diamond"),
        (1700, "master"), (2500, "master"),
    ],
)  # fmt: skip
def test_leagues_at_each_threshold(rating, league):
    assert league_of(rating, season_races=5) == league


@pytest.mark.parametrize("races", [0, 1, 4])
def test_the_first_five_races_of_a_season_are_placement(races):
    assert league_of(1800, season_races=races) == "placement"
    assert league_of(1800, season_races=5) == "master"


def test_provisional_until_ten_rated_races():
    assert provisional(9) and not provisional(10)


@pytest.mark.parametrize(
    ("before", "after", "change"),
    [
        ("silver", "gold", "promotion"), ("gold", "silver", "demotion"),
        ("bronze", "master", "promotion"), ("gold", "gold", None),
        ("placement", "gold", None), ("gold", "placement", None), (None, "gold", None),
    ],
)  # fmt: skip
def test_promotion_and_demotion(before, after, change):
    assert league_change(before, after) == change


def test_seasons_are_calendar_quarters_in_utc():
    span = season_span(datetime(2026, 11, 26, 6, 0, tzinfo=UTC))
    assert (span.id, span.name) == ("2026-q4", "2026 Q4")
    assert (span.starts_at, span.ends_at) == (
        datetime(2026, 10, 1, tzinfo=UTC),
        datetime(2027, 1, 1, tzinfo=UTC),
    )
    assert season_span(datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)).id == "2026-q4"
    assert season_span(datetime(2027, 1, 1, tzinfo=UTC)).id == "2027-q1"
    # The server's setting: another length that divides the year.
    assert season_span(datetime(2026, 11, 26, tzinfo=UTC), months=1).id == "2026-s11"
    assert season_span(datetime(2026, 7, 1, tzinfo=UTC), months=6).starts_at == datetime(
        2026, 7, 1, tzinfo=UTC
    )
    with pytest.raises(ValueError):
        season_span(datetime(2026, 1, 1, tzinfo=UTC), months=5)
