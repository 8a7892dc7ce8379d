"""Accounts: the claim on a name (one row per user, unique by the skeleton), what kind an
account is, its kept settings, and where it was signed up from."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Now
from django.utils import timezone


class AccountName(models.Model):
    """The skeleton and the look of an account's username (games.names). The unique indexes
    are what keep two accounts from ever sharing a name or a look-alike of one, whatever the
    race between two signups."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    skeleton = models.CharField(max_length=256, unique=True)
    # games.names.name_look: how the username looks with its case kept (`CaroI` looks like
    # `Carol`). Unique as well; null for an old account whose look an older one holds.
    look = models.CharField(max_length=256, unique=True, null=True, blank=True)

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


class Account(models.Model):
    """What an account is, beyond Django's user: a bot account (docs/protocol.md 6.1, set once and
    for ever before it has played), one of the server's own bots (`house`: its level), and
    marked by fair-play review. No row is a person's account, unmarked, as every account was
    before v1.2: rows are made when first needed (a join, an upgrade, a house bot)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="account"
    )
    bot = models.BooleanField(default=False)
    bot_since = models.DateTimeField(null=True, blank=True)
    # The level key (games.bots.levels) of a server bot's account; "" for every other account.
    house = models.CharField(max_length=16, blank=True, default="")
    # Set by a moderator's mark (docs/protocol.md 6.4); shown by GET /api/me/.
    marked = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["house"], condition=~models.Q(house=""), name="one_account_per_house_bot"
            )
        ]

    def __str__(self) -> str:
        kind = f"house bot {self.house}" if self.house else "bot" if self.bot else "person"
        return f"{self.user_id}: {kind}{' (marked)' if self.marked else ''}"


class Signup(models.Model):
    """Where an account was signed up from (the page or `POST /api/accounts/`): a client
    address may make SIGNUPS_PER_HOUR accounts an hour and SIGNUPS_PER_DAY a day
    (docs/protocol.md 3, v1.3), counted from these rows by every worker. Accounts made
    otherwise (the admin, createsuperuser, the house bots) have none."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    # The client address as the trusted proxy reports it (games.limits.address).
    address = models.CharField(max_length=64, blank=True, default="", db_default="")
    created_at = models.DateTimeField(default=timezone.now, db_default=Now())

    class Meta:
        indexes = [models.Index(fields=["address", "created_at"], name="signups_by_address")]

    def __str__(self) -> str:
        return f"{self.user_id} from {self.address} at {self.created_at:%Y-%m-%d %H:%M}"
