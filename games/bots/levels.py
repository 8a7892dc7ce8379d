"""Bot levels, named by their pace in 3BV per second, and the one a rating calls for."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    key: str
    pace: float  # 3BV per second it aims at
    rating: int  # the displayed rating it suits

    @property
    def name(self) -> str:
        return f"Bot {self.pace:g} 3BV/s"


LEVELS = {
    level.key: level
    for level in (
        Level("relaxed", 0.8, 1000),
        Level("steady", 1.6, 1150),
        Level("quick", 2.8, 1300),
    )
}

# A bot does not know its board's 3BV (that is the board's truth): it paces itself by the
# preset's typical 3BV (the median over many boards), whatever board it plays.
TYPICAL_BBBV = {"beginner": 17, "intermediate": 59, "expert": 128}


def level_for(rating: int) -> Level:
    """The level nearest a rating (a quick-match seeker who waited too long)."""
    return min(LEVELS.values(), key=lambda level: (abs(level.rating - rating), level.pace))
