"""A match between two accounts and the races it made (docs/protocol.md 9.4)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game, new_public_id


class MatchStatus(models.TextChoices):
    OFFERED = "offered"
    DECLINED = "declined"
    LAPSED = "lapsed"
    PLAYING = "playing"
    FINISHED = "finished"


class Match(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_public_id, editable=False)
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    # One of the server's bots (its level): it accepts at once and plays its seat itself.
    house_bot = models.CharField(max_length=16, blank=True, default="")
    preset = models.CharField(max_length=16)
    no_guess = models.BooleanField(default=False)
    no_flags = models.BooleanField(default=False)
    first_to = models.PositiveSmallIntegerField()
    win_by = models.PositiveSmallIntegerField()
    max_races = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=MatchStatus.choices, db_index=True)
    challenger_wins = models.PositiveSmallIntegerField(default=0)
    opponent_wins = models.PositiveSmallIntegerField(default=0)
    # The account that won the match; null: not over, or a draw.
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # How it ended: "" while not over, "score", "max_races" or "left" (a player left between
    # races: it loses the match).
    ended_by = models.CharField(max_length=16, blank=True, default="")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()  # an offer lapses then (10 minutes)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"match {self.id} ({self.status})"


class MatchRace(models.Model):
    """One race of a match, in order; `winner` is set when the race is decided."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="races")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, null=True, on_delete=models.SET_NULL, related_name="+")
    decided = models.BooleanField(default=False)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_race_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.match_id} race {self.number}"
