"""Writes of the social room: a lobby's visit, a follow, an unfollow."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.accounts.services import account_of_name
from games.errors import ServiceError
from games.social.models import Follow, Visitor

TOKEN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
FORGET_AFTER = timedelta(hours=1)


def visitor_key(*, user: Any, token: Any) -> str | None:
    """Who a visit is: an account, else a guest's token (None: a guest without a valid one)."""
    if user is not None and user.is_authenticated:
        return f"a:{user.pk}"
    if isinstance(token, str) and TOKEN.match(token):
        return f"v:{token}"
    return None


def visit(*, user: Any, token: Any) -> None:
    """This browser is on the lobby now (one row per visitor, its moment moved on)."""
    key = visitor_key(user=user, token=token)
    if key is None:
        return
    now = timezone.now()
    Visitor.objects.update_or_create(key=key, defaults={"seen_at": now})
    Visitor.objects.filter(seen_at__lt=now - FORGET_AFTER).delete()  # long gone: forgotten


def _followed(name: str, follower: Any) -> Any:
    account = account_of_name(name=name) if "\x00" not in name else None
    if account is None:
        raise ServiceError("not_found", "no account of that name: only accounts are followed")
    if account.pk == follower.pk:
        raise ServiceError("invalid", "an account does not follow itself", "name")
    return account


def follow(*, follower: Any, name: str) -> str:
    """`follower` follows the account `name` (again: nothing changes); its username."""
    followed = _followed(name, follower)
    try:
        with transaction.atomic():
            Follow.objects.get_or_create(follower=follower, followed=followed)
    except IntegrityError:  # the same follow, at the same moment, from another request
        pass
    return followed.get_username()


def unfollow(*, follower: Any, name: str) -> str:
    """`follower` no longer follows `name` (not following: nothing changes); its username."""
    followed = _followed(name, follower)
    Follow.objects.filter(follower=follower, followed=followed).delete()
    return followed.get_username()
