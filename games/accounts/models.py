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
