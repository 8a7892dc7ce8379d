"""The daily challenge (issue 14.6): one no-guess board per preset per UTC day, and the runs
played on it."""

from django.conf import settings
from django.db import models


class DailyChallenge(models.Model):
    """A day's board for one preset: the same for everyone. Its seed is drawn by the server
    the first time the day is asked for (at 00:00 UTC or later) and committed to at once; it
    is disclosed when the day is over, with every run's moves."""

    day = models.DateField()
    preset = models.CharField(max_length=16)
    seed = models.CharField(max_length=64)
    seed_salt = models.CharField(max_length=32)
    seed_commitment = models.CharField(max_length=64)
    ng_attempt = models.PositiveIntegerField()
    start_x = models.PositiveSmallIntegerField()
    start_y = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "preset"], name="one_challenge_per_day_preset")
        ]

    def __str__(self) -> str:
        return f"daily {self.day} {self.preset}"


class DailyRun(models.Model):
    """One game on a day's board. An account's first run is its counted one (the daily
    leaderboard); later runs, and guests' runs, are practice."""

    challenge = models.ForeignKey(DailyChallenge, on_delete=models.CASCADE, related_name="runs")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    counted = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["challenge", "user"],
                condition=models.Q(counted=True),
                name="one_counted_run_per_account",
            )
        ]

    def __str__(self) -> str:
        return f"{self.challenge} run {self.game_id} ({'counted' if self.counted else 'practice'})"
