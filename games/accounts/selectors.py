"""Reads of accounts: the game settings an account keeps on the server, and what kind of
account it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.accounts.models import Account, AccountSettings


def account_settings(*, user: Any) -> dict[str, Any]:
    """The account's kept settings ({} before it keeps any)."""
    row = AccountSettings.objects.filter(user=user).first()
    return row.values if row is not None else {}


@dataclass(frozen=True)
class AccountKind:
    """A bot account (docs/protocol.md 6.1), and marked by fair-play review (6.4)."""

    bot: bool
    marked: bool


def account_kind(*, user: Any) -> AccountKind:
    """What kind of account this is; an account without a row is a person's, unmarked."""
    row = Account.objects.filter(user=user).values("bot", "marked").first()
    return AccountKind(**row) if row is not None else AccountKind(bot=False, marked=False)


def account_public(
    *, user: Any, fields: tuple[str, ...] = ("name", "bot", "marked")
) -> dict[str, Any]:
    """The logged-in account as a program sees it (`GET /api/me/`; sign-up and login answer
    `name` and `bot` only)."""
    kind = account_kind(user=user)
    shown = {"name": user.get_username(), "bot": kind.bot, "marked": kind.marked}
    return {field: shown[field] for field in fields}
