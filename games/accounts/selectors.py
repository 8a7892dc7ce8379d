"""Reads of accounts: the game settings an account keeps on the server."""

from __future__ import annotations

from typing import Any

from games.accounts.models import AccountSettings


def account_settings(*, user: Any) -> dict[str, Any]:
    """The account's kept settings ({} before it keeps any)."""
    row = AccountSettings.objects.filter(user=user).first()
    return row.values if row is not None else {}
