"""Times on the wire: ISO-8601 UTC with milliseconds and a Z."""

from __future__ import annotations

from datetime import datetime, timezone


def iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    moment = moment.astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def elapsed_ms(since: datetime | None, until: datetime) -> int:
    """Whole milliseconds from `since` to `until`; 0 before a clock has started."""
    if since is None:
        return 0
    return max(0, int((until - since).total_seconds() * 1000))
