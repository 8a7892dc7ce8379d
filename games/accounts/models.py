"""An account's claim on its name: one row per user, unique by the name's skeleton."""

from django.conf import settings
from django.db import models


class AccountName(models.Model):
    """The skeleton of an account's username (games.names). The unique index is what keeps
    two accounts, or an account and a guest, from ever sharing a name, whatever the race
    between two signups."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    skeleton = models.CharField(max_length=256, unique=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.skeleton}"


class AccountSettings(models.Model):
    """An account's game settings (games.accounts.preferences), so they follow it from one
    browser to another. Guests keep theirs in the browser only."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    values = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"settings of {self.user_id}"
