"""Accounts: who owns a name (the account whose username has the same skeleton, if any),
creating an account, and keeping its game settings."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games.accounts.models import AccountName, AccountSettings
from games.errors import ServiceError
from games.names import name_skeleton


def account_of_name(*, name: str) -> Any | None:
    """The account a name belongs to (compared by skeleton), or None."""
    claim = AccountName.objects.filter(skeleton=name_skeleton(name)).first()
    if claim is None:
        return None
    return get_user_model().objects.filter(pk=claim.user_id).first()


def name_is_claimed(*, name: str) -> bool:
    return AccountName.objects.filter(skeleton=name_skeleton(name)).exists()


def account_create(*, username: str, password: str) -> Any:
    """Create an account and its name's claim (the post_save signal), or neither: a look-alike
    that signed up between the form's check and this write is `name_taken`."""
    try:
        with transaction.atomic():
            return get_user_model().objects.create_user(username=username, password=password)
    except IntegrityError:
        raise ServiceError(
            "name_taken", "That name, or one that looks like it, is taken.", "username"
        ) from None


@transaction.atomic
def account_settings_update(*, user: Any, change: dict[str, Any]) -> dict[str, Any]:
    """Merge a validated change (accounts.preferences) into the account's kept settings."""
    row, _ = AccountSettings.objects.select_for_update().get_or_create(user=user)
    row.values = {**row.values, **change}
    row.save(update_fields=["values", "updated_at"])
    return row.values
