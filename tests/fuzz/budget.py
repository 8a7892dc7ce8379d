"""How hard the fuzz tests try, and how much they sent.

CI runs each test with a small number of examples; `MINERACE_FUZZ_EXAMPLES=n` gives every test
n examples instead, and `MINERACE_FUZZ_FRAMES=m` lets one connection send up to m frames (at
least m/4) instead of up to 20 (the long run, docs/benchmarks.md 9). The counts are printed at
the end of the run (tests/fuzz/conftest.py) so a run can say how many frames and requests it
sent.
"""

from __future__ import annotations

import os
from collections import Counter

from hypothesis import HealthCheck, Phase, settings

COUNTS: Counter[str] = Counter()  # "ws frames", "http requests"


def examples(default: int) -> int:
    """The examples per test: `default`, or MINERACE_FUZZ_EXAMPLES when it is set."""
    raw = os.environ.get("MINERACE_FUZZ_EXAMPLES", "").strip()
    return int(raw) if raw else default


def frames_per_connection() -> tuple[int, int]:
    """The fewest and most frames one fuzzed connection sends."""
    raw = os.environ.get("MINERACE_FUZZ_FRAMES", "").strip()
    most = int(raw) if raw else 20
    return (1 if most <= 20 else most // 4), most


def fuzz_settings(default: int) -> settings:
    """Hypothesis settings for one fuzz test: no deadline (a shared machine is slow at times,
    and time is not what is under test), and the setup of each example is the test's own."""
    return settings(
        max_examples=examples(default),
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
            HealthCheck.filter_too_much,
        ],
        print_blob=True,
        # No "explain" phase: on a failure it replays hundreds of variations (minutes here).
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    )
