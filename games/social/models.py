"""Follows, and the visitors of the lobby: rows in the database every worker shares."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Follow(models.Model):
    """`follower` follows `followed`: its page lists it, online or racing."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Visitor(models.Model):
    """A browser on the lobby, as its last `/api/here/` left it: an account ("a:<id>") or a
    guest's random token ("v:<token>"). Counted online while seen within HERE_WINDOW_S."""

    key = models.CharField(primary_key=True, max_length=80)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key} seen {self.seen_at}"
