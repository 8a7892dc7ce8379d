"""Who owns a name: the account whose username has the same skeleton, if any."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from games.accounts.models import AccountName
from games.names import name_skeleton


def account_of_name(name: str) -> Any | None:
    """The account a name belongs to (compared by skeleton), or None."""
    claim = AccountName.objects.filter(skeleton=name_skeleton(name)).first()
    if claim is None:
        return None
    return get_user_model().objects.filter(pk=claim.user_id).first()


def name_is_claimed(name: str) -> bool:
    return AccountName.objects.filter(skeleton=name_skeleton(name)).exists()
