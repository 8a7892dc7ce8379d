"""A confirmed record (docs/protocol.md 9.3): one won result a moderator confirmed as the best
of its kind (preset, variant, style), with the verification kit signed at that moment."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.fairplay.models import Review
from games.models import Style, Variant


class Record(models.Model):
    """One result confirmed in one style: an NF win confirmed as a record of both styles has
    two rows. Written once per (player, style), so two moderators confirming at the same
    moment make one record (the second finds it)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(max_length=64)
    preset = models.CharField(max_length=16)
    variant = models.CharField(max_length=16, choices=Variant.choices)
    style = models.CharField(max_length=8, choices=Style.choices)
    time_ms = models.PositiveIntegerField()
    bbbv = models.PositiveIntegerField()
    bbbv_per_s = models.FloatField()
    # When the game was won (the record stands from then), and when a moderator confirmed it.
    set_at = models.DateTimeField()
    confirmed_at = models.DateTimeField()
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The signed kit, as the JSON text served by GET /api/records/<id>/kit/ (kept as text: the
    # bytes a verifier reads are the ones signed over, whatever the database does to JSON).
    kit = models.TextField(default="", db_default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "style"], name="one_record_per_result")
        ]
        indexes = [
            models.Index(fields=["preset", "variant", "style", "set_at"], name="record_kind")
        ]

    def __str__(self) -> str:
        return f"{self.preset} {self.variant} {self.style}: {self.name} {self.time_ms} ms"


class RecordCandidate(Review):
    """A game under review with the `record` signal, as the confirmers' queue shows it (a proxy
    of the fair-play review: no table of its own)."""

    class Meta:
        proxy = True
        verbose_name = "record candidate"
