"""Token buckets (games.limits.buckets): people restarting are never refused, floods are."""

from games.limits.buckets import LocalBuckets


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_restarting_at_a_persons_speed_is_never_refused_with_the_defaults():
    """The finding: 59 quick restarts of a beginner game in 13 s hit 'too many games
    created'. Here 59 in 13 s, then an hour of a restart every second and a half."""
    from config import settings as defaults

    rate, burst = defaults.MINERACE["CREATE_RATE_PER_MIN"] / 60, defaults.MINERACE["CREATE_BURST"]
    clock = Clock()
    buckets = LocalBuckets(clock)
    for _ in range(59):
        assert buckets.take("create:a", rate, burst).allowed
        clock.now += 13 / 59
    for _ in range(2400):
        assert buckets.take("create:a", rate, burst).allowed
        clock.now += 1.5


def test_a_scripted_flood_is_refused_with_a_time_to_wait():
    from config import settings as defaults

    rate, burst = defaults.MINERACE["CREATE_RATE_PER_MIN"] / 60, defaults.MINERACE["CREATE_BURST"]
    clock = Clock()
    buckets = LocalBuckets(clock)
    verdicts = []
    for _ in range(500):  # 100 a second for 5 s
        verdicts.append(buckets.take("create:a", rate, burst))
        clock.now += 0.01
    allowed = sum(v.allowed for v in verdicts)
    assert burst <= allowed <= burst + 5 * rate + 1
    refused = [v for v in verdicts if not v.allowed]
    assert refused and all(v.retry_after_s >= 1 for v in refused)
    assert buckets.take("create:b", rate, burst).allowed  # another address is not touched


def test_a_bucket_refills_at_its_rate_up_to_its_burst():
    clock = Clock()
    buckets = LocalBuckets(clock)
    assert [buckets.take("k", 2, 3).allowed for _ in range(4)] == [True, True, True, False]
    clock.now += 0.5  # one token back
    assert [buckets.take("k", 2, 3).allowed for _ in range(2)] == [True, False]
    clock.now += 100  # never more than the burst
    assert sum(buckets.take("k", 2, 3).allowed for _ in range(10)) == 3


def test_a_cap_brings_a_bucket_down_before_it_is_spent():
    """A connection that counted a player's moves alone hands its count to the shared bucket
    (games.edge.socket_limits.MoveLimit): the bucket holds no more than the cap."""
    clock = Clock()
    buckets = LocalBuckets(clock)
    assert buckets.take("k", 1, 10).tokens == 9
    assert buckets.take("k", 1, 10, cost=0, cap=2.5).tokens == 2.5  # spends nothing
    assert [buckets.take("k", 1, 10).allowed for _ in range(3)] == [True, True, False]
    verdict = buckets.take("k", 1, 10, cap=50)  # a cap never adds tokens
    assert (verdict.allowed, verdict.tokens) == (False, 0.5)
    clock.now += 1000
    assert buckets.take("k", 1, 10, cost=0, cap=50).tokens == 10  # ... nor goes past the burst
