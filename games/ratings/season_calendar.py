"""The season calendar (docs/protocol.md 8): seasons of SEASON_MONTHS months (3: calendar
quarters), aligned on the UTC year. Pure: a moment in, the season's bounds and names out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass(frozen=True, slots=True)
class SeasonSpan:
    id: str  # "2026-q4" (quarters) or "2026-s11" (other lengths: the season's number)
    name: str  # "2026 Q4" or "2026 season 11"
    starts_at: datetime
    ends_at: datetime  # exclusive: the next season's start


def season_span(at: datetime, months: int = 3) -> SeasonSpan:
    """The season holding `at` (an aware datetime); `months` divides 12."""
    if months <= 0 or 12 % months:
        raise ValueError(f"a season's months must divide 12, not {months}")
    at = at.astimezone(UTC)
    number = (at.month - 1) // months + 1
    first_month = (number - 1) * months + 1
    starts_at = datetime(at.year, first_month, 1, tzinfo=UTC)
    end_month = first_month + months
    year = at.year + (end_month - 1) // 12
    ends_at = datetime(year, (end_month - 1) % 12 + 1, 1, tzinfo=UTC)
    if months == 3:
        return SeasonSpan(f"{at.year}-q{number}", f"{at.year} Q{number}", starts_at, ends_at)
    return SeasonSpan(f"{at.year}-s{number}", f"{at.year} season {number}", starts_at, ends_at)
