"""A test that reads the UTC day does not start where midnight could fall inside it."""

from datetime import UTC, datetime, timedelta

from tests.support.midnight import MARGIN, PAST_MIDNIGHT, wait_for_midnight_if_close


class FakeClock:
    def __init__(self, start: datetime) -> None:
        self.moment = start
        self.slept: list[float] = []

    def now(self) -> datetime:
        return self.moment

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.moment += timedelta(seconds=seconds)


MIDNIGHT = datetime(2026, 11, 27, tzinfo=UTC)


def test_far_from_midnight_a_test_starts_at_once():
    for start in (MIDNIGHT - MARGIN - timedelta(seconds=1), MIDNIGHT + timedelta(seconds=1),
                  datetime(2026, 11, 26, 12, tzinfo=UTC)):  # fmt: skip
        clock = FakeClock(start)
        assert wait_for_midnight_if_close(clock.now, clock.sleep) == 0
        assert clock.slept == []


def test_close_to_midnight_a_test_starts_just_after_it_on_the_new_day():
    for before in (MARGIN, timedelta(seconds=20), timedelta(milliseconds=1)):
        clock = FakeClock(MIDNIGHT - before)
        slept = wait_for_midnight_if_close(clock.now, clock.sleep)
        assert clock.moment == MIDNIGHT + PAST_MIDNIGHT
        assert slept == (before + PAST_MIDNIGHT).total_seconds()
        assert clock.moment.date() == MIDNIGHT.date()
        # and the longest test it guards, started now, ends on that same day
        assert (clock.moment + MARGIN).date() == clock.moment.date()
