"""The queue: one row per seeking connection, on a lease its worker renews."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Seeker(models.Model):
    """A connection on /ws/match/ waiting for a race. A worker killed with -9 stops renewing
    `expires_at`, and its seekers drop out of the queue once it passes."""

    channel = models.CharField(max_length=200, unique=True)  # where `matched` is sent
    worker = models.CharField(max_length=96)
    preset = models.CharField(max_length=16)
    no_guess = models.BooleanField()
    # Paired only with another no-flag seek (docs/protocol.md 9.1).
    no_flags = models.BooleanField(default=False, db_default=False)
    name = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    rating = models.IntegerField()  # the displayed rating it is paired by (guests: 1000)
    # The client address it sought from, kept for looking into abuse afterwards: pairing
    # ignores it (docs/protocol.md 6.2, v1.3: friends on one network race like any others).
    address = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    # When its worker last confirmed it alive (null: not yet). Only a seek confirmed lately is
    # paired: a lease of 10 s alone would pair a seek whose worker died right after it.
    renewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["preset", "no_guess", "no_flags", "created_at"], name="seekers_in_order"
            ),
            models.Index(fields=["worker"], name="seekers_by_worker"),
        ]

    def __str__(self) -> str:
        return f"{self.name} seeking {self.preset} (no_guess={self.no_guess}, {self.rating})"
