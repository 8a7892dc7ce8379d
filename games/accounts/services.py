"""Accounts: who owns a name (the account whose username has the same skeleton, if any),
creating an account, keeping its game settings, and what kind of account it is: a person's,
a bot account (docs/protocol.md 6.1), or one of the server's own bots."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.accounts.models import Account, AccountName, AccountSettings, Signup
from games.accounts.signups import signup_allow
from games.errors import ServiceError
from games.models import Player, Score
from games.names import name_look, name_skeleton


def account_of_name(*, name: str) -> Any | None:
    """The account a name belongs to (compared by skeleton), or None."""
    claim = AccountName.objects.filter(skeleton=name_skeleton(name)).first()
    if claim is None:
        return None
    return get_user_model().objects.filter(pk=claim.user_id).first()


def claimed_skeletons(*, skeletons: list[str]) -> set[str]:
    """Which of these name skeletons an account holds now (one query)."""
    claims = AccountName.objects.filter(skeleton__in=set(skeletons))
    return set(claims.values_list("skeleton", flat=True))


def name_is_claimed(*, name: str) -> bool:
    """Whether an account holds this name or one it clashes with (games.names.names_clash:
    the same skeleton, or the same look as written: `CaroI` beside `Carol`)."""
    clash = Q(skeleton=name_skeleton(name)) | Q(look=name_look(name))
    return AccountName.objects.filter(clash).exists()


def account_create(*, username: str, password: str, address: str = "") -> Any:
    """Create an account, its name's claim (the post_save signal) and, signed up from a client
    `address`, the row that address's limit counts (accounts.signups), or none of them: an
    address past its limit is `rate_limited` (before any password is hashed), and a look-alike
    that signed up between the form's check and this write is `name_taken`."""
    try:
        with transaction.atomic():
            now = timezone.now()
            if address:
                signup_allow(address=address, now=now)
            user = get_user_model().objects.create_user(username=username, password=password)
            if address:
                Signup.objects.create(user=user, address=address[:64], created_at=now)
            return user
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


def _has_played(user: Any) -> bool:
    """Any game joined, score or rating: what a bot account must never carry from a person.
    (Ratings are read through the account's reverse relation: games.ratings sits beside this
    room, not below it.)"""
    return (
        Player.objects.filter(user=user).exists()
        or Score.objects.filter(user=user).exists()
        or get_user_model().objects.filter(pk=user.pk, rating__isnull=False).exists()
    )


@transaction.atomic
def account_bot_upgrade(*, user: Any) -> Account:
    """Make an account a bot account, once and for ever (docs/protocol.md 6.1): only one that has
    played nothing, so no result of a program ever stood as a person's. Asking again is a
    no-op. The row is locked, and a join locks it too (account_joins_as_bot), so an upgrade
    and a first game cannot both succeed."""
    account, _ = Account.objects.select_for_update().get_or_create(user=user)
    if account.bot:
        return account
    if _has_played(user):
        raise ServiceError(
            "has_games", "an account that has played cannot become a bot account: make a new one"
        )
    account.bot = True
    account.bot_since = timezone.now()
    account.save(update_fields=["bot", "bot_since"])
    return account


def account_joins_as_bot(*, user: Any) -> bool:
    """Whether a new player of this account is a bot account's, read with the account's row
    locked until the caller's transaction (a join) commits: an upgrade, which checks that the
    account has no player, waits for it and then sees the player."""
    account, _ = Account.objects.select_for_update().get_or_create(user=user)
    return account.bot


def accounts_join_as_bots(*, user_ids: list[int]) -> set[int]:
    """account_joins_as_bot for many accounts at once (a pass's races): their rows made if
    missing and locked, in id order, until the caller's transaction commits; the bot ones."""
    ids = sorted(set(user_ids))
    if not ids:
        return set()
    Account.objects.bulk_create([Account(user_id=i) for i in ids], ignore_conflicts=True)
    rows = Account.objects.select_for_update().filter(user_id__in=ids).order_by("user_id")
    return {user_id for user_id, bot in rows.values_list("user_id", "bot") if bot}


def house_bot_account(*, level: str, name: str) -> Any:
    """The account the server's bot of this level plays under (a bot account, so its players
    show `bot` and `is_bot`, and its name is claimed like any account's), made the first time
    that level plays. It has no usable password: nobody logs in as it."""
    account = Account.objects.filter(house=level).select_related("user").first()
    if account is not None:
        return account.user
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username=name)  # unusable password
            Account.objects.update_or_create(
                user=user, defaults={"bot": True, "bot_since": timezone.now(), "house": level}
            )
            return user
    except IntegrityError:  # another worker made it meanwhile: the same account for both
        return Account.objects.select_related("user").get(house=level).user
