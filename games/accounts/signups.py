"""How many accounts one client address may make (docs/protocol.md 3, v1.3): SIGNUPS_PER_HOUR
in any hour and SIGNUPS_PER_DAY in any 24 hours. Without it every per-account cap (reports,
arenas, a pair's rated races) falls to a script that signs up a fresh account per try.

The count is read from the sign-ups' own rows (accounts.models.Signup) under a lock on the
address held until the transaction that writes the new row commits, so two workers signing up
from one address at the same moment count each other's."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings

from games.accounts.models import Signup
from games.errors import ServiceError
from games.limits.locks import address_lock

HOUR = timedelta(hours=1)
DAY = timedelta(hours=24)


def signup_windows() -> list[tuple[int, timedelta]]:
    """(how many, within how long): the server's settings."""
    return [
        (settings.MINERACE["SIGNUPS_PER_HOUR"], HOUR),
        (settings.MINERACE["SIGNUPS_PER_DAY"], DAY),
    ]


def signup_allow(*, address: str, now: datetime) -> None:
    """Take this address's turn (until the caller's transaction ends) and refuse with
    `rate_limited` once a window is full, saying when its oldest sign-up frees a place. Call
    it inside the transaction that then writes the account and its Signup row."""
    address_lock(f"signups:{address}")
    windows = signup_windows()
    longest = max(window for _, window in windows)
    most = max(limit for limit, _ in windows)
    recent = list(
        Signup.objects.filter(address=address[:64], created_at__gt=now - longest)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[: max(most, 1)]
    )  # newest first
    waits = [
        (recent[limit - 1] + window - now).total_seconds() if limit > 0 else window.total_seconds()
        for limit, window in windows
        if len([at for at in recent if at > now - window]) >= limit
    ]
    if not waits:
        return
    retry_after = max(1, math.ceil(max(waits)))
    hourly, daily = (limit for limit, _ in windows)
    raise ServiceError(
        "rate_limited",
        f"Too many accounts from this address: {hourly} an hour and {daily} a day at most. "
        f"Try again in {_in_words(retry_after)}.",
        retry_after_s=retry_after,
    )


def _in_words(seconds: int) -> str:
    """47 minutes, 1 minute, 3 hours: what the page and the API's message say."""
    if seconds >= 2 * 3600:
        hours = round(seconds / 3600)
        return f"{hours} hours"
    minutes = max(1, math.ceil(seconds / 60))
    return f"{minutes} minute{'' if minutes == 1 else 's'}"
