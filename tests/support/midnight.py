"""Keeping a test of the calendar clear of UTC midnight.

A daily challenge's day (docs/protocol.md 10.4), a season's quarter and the "today" a test writes
into
its URLs all change at 00:00 UTC. A test that reads the day, then has the server (in this
process or a Daphne of its own) read it again a few seconds later, fails if midnight falls in
between: its run is on yesterday's board, its leaderboard on today's. The chance is the test's
length over a day's (a 30 s browser test: 1 in 2,900 runs), and the server's clock is not one
the test can stop. So a test that reads the day starts only where the next midnight is further
away than the longest such test takes: just before midnight, it waits for midnight to pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

# Longer than any test that reads the day takes on a loaded machine (the browser's daily tests
# take under 30 s): a test started outside this margin ends before midnight.
MARGIN = timedelta(minutes=3)
# Past midnight by this much before the test starts: clocks of other processes may read a
# little behind this one's.
PAST_MIDNIGHT = timedelta(seconds=2)


def wait_for_midnight_if_close(
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
    sleep: Callable[[float], object] = time.sleep,
    margin: timedelta = MARGIN,
) -> float:
    """If the next UTC midnight is within `margin`, sleep until just past it; the seconds
    slept (0 when it is far)."""
    moment = now().astimezone(UTC)
    midnight = datetime.combine(moment.date() + timedelta(days=1), datetime.min.time(), UTC)
    if midnight - moment > margin:
        return 0.0
    slept = 0.0
    while (left := (midnight + PAST_MIDNIGHT - now()).total_seconds()) > 0:
        sleep(left)
        slept += left
    return slept
