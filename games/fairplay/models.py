"""What the screen found for one player of a game that counted, and where its review stands."""

from __future__ import annotations

from django.conf import settings
from django.db import models


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
    # Null when nothing fired: the game was never under review.
    status = models.CharField(max_length=16, choices=ReviewStatus.choices, null=True, blank=True)
    screened_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "screened_at"], name="review_queue")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.game_id}: {self.status or 'nothing fired'}"
