"""What the screen found for one player of a game that counted, and where its review stands."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Value


class ReviewStatus(models.TextChoices):
    UNDER_REVIEW = "under_review"
    CLEARED = "cleared"
    CHEAT = "cheat"


class Review(models.Model):
    """One screened (game, player): written in the transaction that ends the game, once (the
    player is unique), whether a signal fired or not, so a reviewer sees every counted game."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    player = models.OneToOneField("games.Player", on_delete=models.CASCADE, related_name="review")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # What the game counted for: "leaderboard" (a ranked win), "rated", "daily", ...
    counts = models.JSONField(default=list)
    # The signals that fired, each with its figures (games.fairplay.screening); {} if none.
    signals = models.JSONField(default=dict)
    # The intervals between the moves that changed the board, summed up (fired or not).
    timing = models.JSONField(default=dict)
    # Those intervals themselves (ms, in play order): what later games' windows read.
    intervals = models.JSONField(default=list, db_default=Value([], models.JSONField()))
    # The figures of each window ({"40": {"size", "median_ms", "spread", "games"}, "120": ...}),
    # kept with every screened game so the floors can be checked on real players later.
    windows = models.JSONField(default=dict, db_default=Value({}, models.JSONField()))
    # The game whose window put this one under review with it (docs/protocol.md 6.3): a
    # decision on that one, or on this, is a decision on all of the window's games.
    window = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="window_games"
    )
    # Null when nothing fired: the game was never under review.
    status = models.CharField(max_length=16, choices=ReviewStatus.choices, null=True, blank=True)
    screened_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    # The moderator who cleared the game or marked its account (games.fairplay.services).
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        indexes = [
            models.Index(fields=["status", "screened_at"], name="review_queue"),
            models.Index(fields=["user", "-screened_at"], name="review_windows"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.game_id}: {self.status or 'nothing fired'}"


class Mark(models.Model):
    """A moderator's judgment that an account cheated (docs/protocol.md 6.4): at most one per
    account, so two moderators pressing at once make one mark and one set of refunds (the
    second insert waits for the first and fails on the unique user)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_mark"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    # How many accounts got rating back, and how many points in all (the admin's message).
    refunded_accounts = models.PositiveIntegerField(default=0)
    refunded_points = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"mark on {self.user_id} at {self.created_at:%Y-%m-%d %H:%M}"


class Report(models.Model):
    """A player's report of another player's finished game (`POST /api/reports/`): it puts
    that player's game in the review queue; one per reporting account and game."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="reports")
    reason = models.TextField(max_length=500)
    created_at = models.DateTimeField()
    # The client address it came from (as the trusted proxy reports it): an address files at
    # most REPORTS_PER_ADDRESS a day, whatever accounts it makes (docs/protocol.md 3, v1.3).
    address = models.CharField(max_length=64, blank=True, default="", db_default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["reporter", "game"], name="one_report_per_game")
        ]
        indexes = [
            models.Index(fields=["reporter", "created_at"], name="reports_by_account"),
            models.Index(fields=["address", "created_at"], name="reports_by_address"),
        ]

    def __str__(self) -> str:
        return f"report on {self.player_id} in {self.game_id} by {self.reporter_id}"
