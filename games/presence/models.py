"""Presence rows: one per open connection (a lease its worker renews), one per race player."""

from __future__ import annotations

from django.db import models


class Role(models.TextChoices):
    PLAYER = "player"
    SPECTATOR = "spectator"


class Connection(models.Model):
    """An open WebSocket after its hello. Its worker renews `expires_at` every few seconds; a
    worker killed with -9 renews nothing, so its connections count as closed once it passes."""

    channel = models.CharField(primary_key=True, max_length=200)  # the consumer's channel name
    game_id = models.CharField(max_length=32)
    player_id = models.CharField(max_length=32, null=True, blank=True)
    role = models.CharField(max_length=16, choices=Role.choices)
    worker = models.CharField(max_length=96)
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["worker"], name="presence_by_worker"),
            models.Index(fields=["player_id", "expires_at"], name="presence_by_player"),
            models.Index(fields=["game_id", "role", "expires_at"], name="presence_by_game"),
        ]

    def __str__(self) -> str:
        return f"{self.role} {self.player_id or '-'} in {self.game_id} until {self.expires_at}"


class PlayerPresence(models.Model):
    """A race player's online state as last announced, and since when it holds."""

    player = models.OneToOneField(
        "games.Player", primary_key=True, on_delete=models.CASCADE, related_name="presence"
    )
    game_id = models.CharField(max_length=32)
    online = models.BooleanField()
    since = models.DateTimeField()
    announced = models.BooleanField(default=True)  # False: a change held back (one a second)
    # When the player first said hello in this game (null: never): a matched player who did
    # not come within the grace leaves its race unrated (docs/protocol.md 6.2).
    came_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["online", "since"], name="presence_offline_since")]
