"""A bot's seat in a race and the lease of the one worker that drives it."""

from __future__ import annotations

from django.db import models


class BotSeat(models.Model):
    """Exactly one worker drives a bot: the one whose lease is current. A worker renews it at
    every step; if the worker dies, the lease runs out and another worker's pass takes it."""

    player = models.OneToOneField(
        "games.Player", primary_key=True, on_delete=models.CASCADE, related_name="bot_seat"
    )
    game_id = models.CharField(max_length=32)
    level = models.CharField(max_length=16)
    worker = models.CharField(max_length=96, blank=True, default="")
    lease_until = models.DateTimeField(null=True, blank=True)
    done = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["done", "lease_until"], name="bots_to_drive")]
