"""An account's rating per preset and variant, and the change each rated race made to it."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    """Weng-Lin (OpenSkill) Plackett-Luce: a skill estimate `mu` and its uncertainty `sigma`."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    preset = models.CharField(max_length=16)
    variant = models.CharField(max_length=16)
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField()  # scale.display(mu, sigma), kept for ordering
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

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
    # False: a rated race nobody played (PROTOCOL.md 6.2): before == after, and the rating
    # history leaves it out.
    counted = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["user", "preset", "variant", "created_at"], name="rating_history")
        ]
