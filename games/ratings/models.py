"""An account's rating per preset and variant, and the change each rated race made to it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Rating(models.Model):
    """Weng-Lin (OpenSkill) Plackett-Luce: a skill estimate `mu` and its uncertainty `sigma`."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    preset = models.CharField(max_length=16)
    variant = models.CharField(max_length=16)
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField()  # scale.display(mu, sigma), kept for ordering
    games = models.PositiveIntegerField(default=0)
    # A marked account's (games.fairplay): off every rating list, and no race changes it again.
    # A default in the database too, so a row written without it (raw SQL) is a live rating.
    frozen = models.BooleanField(default=False, db_default=False)
    updated_at = models.DateTimeField(auto_now=True)
    # When a rated race last changed it: the rating list shows only the active (docs/protocol.md 8).
    rated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "preset", "variant"], name="one_rating")
        ]
        indexes = [models.Index(fields=["preset", "variant", "-display"], name="rating_order")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.preset}/{self.variant}: {self.display}"


class RatingChange(models.Model):
    """What one rated race did to one player's rating (guests: before and after are null)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    player = models.OneToOneField(
        "games.Player", on_delete=models.CASCADE, related_name="rating_change"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    preset = models.CharField(max_length=16)
    variant = models.CharField(max_length=16)
    before = models.IntegerField(null=True)
    after = models.IntegerField(null=True)
    # False: a rated race nobody played (docs/protocol.md 6.2): before == after, and the rating
    # history leaves it out.
    counted = models.BooleanField(default=True)
    # The player's place in the race's ranking: who lost rating to whom (refunds, below).
    # Null in races rated before it was kept.
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    # The account's league in the race's season before and after it (docs/protocol.md 8; games.
    # ratings.leagues), "" where it has none (a guest, a frozen rating, a race not played).
    league_before = models.CharField(max_length=16, blank=True, default="")
    league_after = models.CharField(max_length=16, blank=True, default="")
    # The account's rated races there once this one counted: provisional or not, as it was.
    games = models.PositiveIntegerField(null=True, blank=True)
    # The refund that gave this race's loss back (a marked cheater finished above): a loss is
    # given back once, even when two of the race's racers are marked.
    refund = models.ForeignKey(
        "RatingRefund", null=True, blank=True, on_delete=models.SET_NULL, related_name="losses"
    )
    # When the race was rated (race_rate's `now`): the history's order and its seasons.
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["user", "preset", "variant", "created_at"], name="rating_history")
        ]


class RatingRefund(models.Model):
    """Rating given back to an account that lost it to a marked cheater (docs/protocol.md 6.4): the
    sum of its losses in the cheater's recent rated races on one preset and variant, capped
    per account and mark; once (the unique constraint), and shown in the rating's history."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    cheater = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    preset = models.CharField(max_length=16)
    variant = models.CharField(max_length=16)
    points = models.PositiveIntegerField()
    before = models.IntegerField()
    after = models.IntegerField()
    races = models.PositiveIntegerField()  # the races whose losses it gives back
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "cheater", "preset", "variant"], name="one_refund_per_mark"
            )
        ]

    def __str__(self) -> str:
        return f"+{self.points} to {self.user_id} {self.preset}/{self.variant}"


class Season(models.Model):
    """A season (docs/protocol.md 8), made by the first worker that notices it has begun. `reset_at`
    says the soft reset of every rating is done: it is set in the transaction that did it, so
    the reset is applied once (games.ratings.seasons.season_current)."""

    id = models.CharField(primary_key=True, max_length=16)  # "2026-q4"
    name = models.CharField(max_length=32)
    starts_at = models.DateTimeField(unique=True)
    ends_at = models.DateTimeField()
    reset_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.name


class SeasonRating(models.Model):
    """One account's season on one preset and variant: its rated races and wins there, and its
    displayed rating after the last of them (which gives its league and its ladder place)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="ratings")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    preset = models.CharField(max_length=16)
    variant = models.CharField(max_length=16)
    races = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    rating = models.IntegerField()
    games = models.PositiveIntegerField(default=0)  # all its rated races there, at that moment
    # A marked account's (games.fairplay): it leaves every ladder, this season's and past ones.
    frozen = models.BooleanField(default=False)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["season", "user", "preset", "variant"], name="one_season_rating"
            )
        ]
        indexes = [
            # The ladder: a walk down this index, never a scan of the season (tests/load).
            models.Index(
                fields=["season", "preset", "variant", "-rating", "user"],
                condition=models.Q(races__gte=5, frozen=False),
                name="season_ladder",
            ),
            models.Index(fields=["user", "season"], name="season_of_account"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.season_id} {self.preset}/{self.variant}: {self.rating}"


class LadderBucket(models.Model):
    """How many accounts stand on a season's ladder at one rating: an account's place is the
    sum of the buckets above its rating (at most a few thousand rows) plus the ties before it,
    never a count of the ladder itself (games.ratings.buckets)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    preset = models.CharField(max_length=16)
    variant = models.CharField(max_length=16)
    rating = models.IntegerField()
    accounts = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["season", "preset", "variant", "rating"], name="one_ladder_bucket"
            )
        ]

    def __str__(self) -> str:
        return f"{self.season_id} {self.preset}/{self.variant} {self.rating}: {self.accounts}"
