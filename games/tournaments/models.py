"""Tournaments, their players' entries, the races they made, and who is waiting now."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import new_public_id


class Tournament(models.Model):
    """An arena: from `starts_at` to `ends_at` its waiting players are paired race after race.
    Its status is a matter of the clock (upcoming, running, finished); `finished_at` is set
    once, by the first pass after the end, which sends the podium."""

    id = models.CharField(primary_key=True, max_length=32, default=new_public_id, editable=False)
    name = models.CharField(max_length=64)
    preset = models.CharField(max_length=16)
    no_guess = models.BooleanField(default=False)
    # Its races refuse `flag` (docs/protocol.md 9.1).
    no_flags = models.BooleanField(default=False, db_default=False)
    starts_at = models.DateTimeField(db_index=True)
    ends_at = models.DateTimeField(db_index=True)
    private = models.BooleanField(default=False)  # listed only to its creator; open by link
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # A scheduled arena's slot ("hourly:2026-11-26T07"): unique, so every worker may try to
    # create it and exactly one row comes of it. Null for an account's own.
    slot = models.CharField(max_length=40, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The client address its creator made it from (as the trusted proxy reports it): an address
    # has at most MAX_UPCOMING_PER_ADDRESS upcoming, whatever accounts it makes
    # (docs/protocol.md 3, v1.3). Empty for the scheduled arenas.
    creator_address = models.CharField(max_length=64, blank=True, default="", db_default="")

    def __str__(self) -> str:
        return f"{self.name} ({self.preset}, {self.starts_at:%Y-%m-%d %H:%M})"


class Entry(models.Model):
    """One account in one tournament: its points and what the standings order by."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    name = models.CharField(max_length=64)
    points = models.PositiveIntegerField(default=0)
    races = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    win_time_ms = models.PositiveBigIntegerField(default=0)  # sum over its winning races
    streak = models.PositiveIntegerField(default=0)  # wins in a row: two make it on fire
    berserk_wins = models.PositiveIntegerField(default=0)
    withdrawn = models.BooleanField(default=False)
    joined_at = models.DateTimeField()
    # Its previous race's opponent: not paired with it again while another choice exists.
    last_opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The race it plays now ("" when none): it waits again once that race is scored. `paired`
    # is what its tournament connections are told of it (the race's state and its resume token),
    # kept until then so that a connection on any worker, or a reconnection, learns it.
    game_id = models.CharField(max_length=32, blank=True, default="")
    paired = models.JSONField(null=True, blank=True)
    # Set by every write to the entry: a worker pushes `standings` only when the newest of them
    # (or the number of entries) moved since its last push; the tournament row is never a lock
    # that a race's end must wait for.
    updated_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_account")
        ]
        indexes = [models.Index(fields=["tournament", "-points"], name="entries_by_points")]

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament_id}: {self.points}"


class ArenaRace(models.Model):
    """A race a tournament made; `scored` once its points were written (or found not to
    count), in the transaction that ended it."""

    game = models.OneToOneField("games.Game", primary_key=True, on_delete=models.CASCADE)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="races")
    created_at = models.DateTimeField()
    scored = models.BooleanField(default=False)
    # False: its two accounts had raced each other PAIR_POINTS_PER_TOURNAMENT times in this
    # tournament for points already; it scores nothing, as its `paired` frame said
    # (docs/protocol.md 6.2, v1.3).
    points = models.BooleanField(default=True, db_default=True)

    def __str__(self) -> str:
        return f"race {self.game_id} of {self.tournament_id}"


class Waiter(models.Model):
    """An open tournament connection of a logged-in account, on a lease its worker renews: a
    worker killed with -9 renews nothing, and its connections stop counting once it passes."""

    channel = models.CharField(max_length=200, unique=True)  # where `paired` is sent
    worker = models.CharField(max_length=96)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="waiters")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    # The client address it connected from, kept for looking into abuse afterwards: pairing
    # ignores it (docs/protocol.md 6.2, v1.3).
    address = models.CharField(max_length=64, blank=True, default="")
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["tournament", "expires_at"], name="waiters_of_tournament"),
            models.Index(fields=["worker"], name="waiters_by_worker"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.tournament_id} until {self.expires_at}"
