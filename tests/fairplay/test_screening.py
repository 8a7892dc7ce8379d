"""The pure screen (games/fairplay/screening.py): which moves count, and when each signal fires."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import LoggedMove, move_from_action
from games.fairplay.screening import (
    EarlierGame,
    Outcome,
    ReceivedMove,
    Thresholds,
    effective_times,
    record_signal,
    screen,
    spread_of,
    timing_of,
    window_of,
)
from tests.support.pictures import board

# Mines in every other column: each safe cell is a number that borders no zero, so each
# reveal opens exactly one cell (32 effective moves to win), and clicking an open cell again
# changes nothing.
STRIPES = board("\n".join([".*.*.*.*"] * 8))
SAFE = [(x, y) for y in range(8) for x in range(0, 8, 2)]
WON = Outcome(won=True, time_ms=10_000, bbbv_per_s=3.2, preset="beginner", variant="classic")
LOST = Outcome(won=False, time_ms=None, bbbv_per_s=None, preset="beginner", variant="classic")


def timed(clicks: list[tuple[str, int, int]], times: list[int]) -> list[ReceivedMove]:
    """A move log: each click with the server's receive time."""
    return [
        ReceivedMove(LoggedMove(seq, move_from_action(action, x, y), at - times[0]), at)
        for seq, ((action, x, y), at) in enumerate(zip(clicks, times, strict=True), 1)
    ]


def reveals(cells: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
    return [("reveal", x, y) for x, y in cells]


def steady(count: int, interval_ms: int, start: int = 1_000_000) -> list[int]:
    return [start + k * interval_ms for k in range(count)]


def earlier(*gaps_of_games: list[int]) -> list[EarlierGame]:
    """Earlier screened games, latest first, each given by its intervals."""
    return [EarlierGame(f"g{k}", tuple(gaps)) for k, gaps in enumerate(gaps_of_games)]


def test_one_game_of_31_intervals_fills_no_window_and_fires_nothing_on_its_own():
    found = screen(STRIPES, timed(reveals(SAFE), steady(32, 250)), WON)
    assert found.signals == {} and len(found.intervals) == 31
    assert [(w.n, w.size, w.games) for w in found.windows] == [(40, 31, ()), (120, 31, ())]


def test_a_steady_250_ms_player_fires_metronome_once_its_window_of_40_is_full():
    found = screen(STRIPES, timed(reveals(SAFE), steady(32, 250)), WON, earlier=earlier([250] * 9))
    assert found.signals == {
        "metronome": {
            "window": 40,
            "size": 40,
            "median_ms": 250.0,
            "spread": 0.0,
            "games": ["g0"],
            "floor": 0.12,
        }
    }
    assert found.reached() == {"metronome": ["g0"]}
    assert found.windows_figures()["120"] == {
        "size": 40, "median_ms": 250.0, "spread": 0.0, "games": ["g0"]
    }  # fmt: skip


def test_the_widest_window_that_fires_gives_metronome_its_figures():
    history = earlier([250] * 40, [250] * 40, [250] * 40)
    found = screen(STRIPES, timed(reveals(SAFE), steady(32, 250)), WON, earlier=history)
    assert found.signals["metronome"]["window"] == 120
    assert found.signals["metronome"]["games"] == ["g0", "g1", "g2"]
    assert found.windows_figures()["40"]["games"] == ["g0"]


def test_a_player_clicking_every_40_ms_fires_reaction_and_metronome_with_a_full_window():
    history = earlier([40] * 20)
    found = screen(STRIPES, timed(reveals(SAFE), steady(32, 40)), WON, earlier=history)
    assert set(found.signals) == {"reaction", "metronome"}
    assert found.signals["reaction"] == {
        "window": 40, "size": 40, "median_ms": 40.0, "spread": 0.0, "games": ["g0"],
        "floor_ms": 80.0,
    }  # fmt: skip


def test_stalls_do_not_move_the_spread():
    """A program at 100 ms that stalls a second every 12th click: its standard deviation over
    mean is about 1.3, but its median absolute deviation stays that of its jitter."""
    gaps = [1000 if k % 12 == 11 else 100 + (k % 3) for k in range(31)]
    times = from_gaps(gaps)
    found = screen(STRIPES, timed(reveals(SAFE), times), WON, earlier=earlier([100] * 9))
    assert found.timing.variation > 1 and found.signals["metronome"]["spread"] < 0.05


def test_uneven_human_intervals_fire_nothing():
    pauses = itertools.cycle([180, 420, 260, 900, 310, 150, 520])
    gaps = [next(pauses) for _ in range(31)]
    history = earlier([next(pauses) for _ in range(50)], [next(pauses) for _ in range(50)])
    found = screen(STRIPES, timed(reveals(SAFE), from_gaps(gaps)), WON, earlier=history)
    assert found.signals == {}
    assert all(w.size == w.n for w in found.windows)
    assert found.timing.effective_moves == 32 and found.timing.spread > 0.5


def test_a_window_whose_median_is_0_is_left_to_reaction():
    found = screen(STRIPES, timed(reveals(SAFE), [0] * 32), WON, earlier=earlier([0] * 9))
    assert set(found.signals) == {"reaction"}


def test_clicks_that_change_nothing_are_not_timed():
    """A double click on an open cell, 5 ms apart, is one effective move, not a reflex."""
    clicks, times, at = [], [], 0
    pauses = itertools.cycle([300, 700, 450, 1200])
    for cell in SAFE:
        clicks += reveals([cell, cell])  # the second one changes nothing
        times += [at, at + 5]
        at += next(pauses)
    found = screen(STRIPES, timed(clicks, times), WON)
    assert found.timing.effective_moves == 32
    assert found.timing.median_ms >= 300 and found.signals == {}


def test_flags_change_the_board_and_count():
    clicks = [("flag", 1, 0), ("flag", 1, 0), ("reveal", 0, 0)]
    times = [0, 200, 450]
    assert effective_times(STRIPES, timed(clicks, times)) == [0, 200, 450]


def test_moves_after_the_end_change_nothing():
    """A log never holds them, but a replay must not count them if one did."""
    clicks = [("reveal", 1, 0), ("reveal", 0, 0)]  # a mine: the sweep is over
    assert effective_times(STRIPES, timed(clicks, [0, 30])) == [0]


def test_the_window_sizes_and_floors_are_settings():
    found = screen(STRIPES, timed(reveals(SAFE[:29]), steady(29, 10)), LOST)
    assert found.signals == {} and found.timing.effective_moves == 29
    lower = Thresholds(windows=((28, 0.12), (120, 0.2)))  # the same game on a shorter window
    assert set(screen(STRIPES, timed(reveals(SAFE[:29]), steady(29, 10)), LOST, lower).signals) == {
        "reaction",
        "metronome",
    }
    stricter = Thresholds(windows=((28, 0.0), (120, 0.0)), reaction_floor_ms=5)
    assert screen(STRIPES, timed(reveals(SAFE[:29]), steady(29, 10)), LOST, stricter).signals == {}


def test_a_window_takes_the_latest_intervals_of_the_latest_games_never_across_two():
    window = window_of([7, 8], earlier([5, 6], [1, 2, 3, 4], [9] * 10), n=6)
    assert window.intervals == (3, 4, 5, 6, 7, 8) and window.games == ("g0", "g1")
    assert window_of(list(range(50)), earlier([1] * 10), n=40).intervals == tuple(range(50))
    # At most `max_games` earlier games, empty ones reaching nothing.
    many = earlier([], *([[3]] * 60))
    reached = window_of([], many, n=120, max_games=50)
    assert reached.size == 49 and reached.games == tuple(f"g{k}" for k in range(1, 50))


@pytest.mark.parametrize(
    ("values", "spread"),
    [([100, 100, 100], 0.0), ([100, 110, 90, 100, 1000], 0.14826), ([], None), ([0, 0, 5], None)],
)
def test_spread_is_1_4826_mads_over_the_median(values, spread):
    assert spread_of(values) == (None if spread is None else pytest.approx(spread))


@pytest.mark.parametrize(
    ("outcome", "fires"),
    [
        (Outcome(True, 1000, 12.5, "beginner", "classic"), True),
        (Outcome(True, 1000, 12.0, "beginner", "classic"), False),  # at the ceiling: human
        (Outcome(True, 1000, 9.1, "intermediate", "no_guess"), True),
        (Outcome(True, 1000, 8.2, "expert", "classic"), True),
        (Outcome(True, 1000, 7.9, "expert", "classic"), False),
        (Outcome(True, 1000, 30.0, None, "classic"), False),  # a custom size has no ceiling
        (Outcome(False, None, None, "expert", "classic"), False),
    ],
)
def test_pace_fires_on_a_win_above_its_presets_ceiling(outcome, fires):
    found = screen(STRIPES, [], outcome)
    assert ("pace" in found.signals) == fires
    if fires:
        ceiling = Thresholds().pace_ceilings[outcome.preset]
        assert found.signals["pace"] == {"bbbv_per_s": outcome.bbbv_per_s, "ceiling": ceiling}


def test_pace_ceilings_are_settings():
    stricter = Thresholds(pace_ceilings={"beginner": 3.0})
    assert "pace" in screen(STRIPES, [], WON, stricter).signals


@pytest.mark.parametrize(
    ("time_ms", "leader", "entries", "fires"),
    [
        (9_000, 10_000.0, 20, True),
        (9_000, 10_000.0, 19, False),  # too few entries to call anything a record
        (10_000, 10_000.0, 50, False),  # a tie: the earlier finish keeps first place
        (11_000, 10_000.0, 50, False),
        (9_000, None, 50, False),
    ],
)
def test_record_fires_on_a_first_place_of_a_board_with_enough_entries(
    time_ms, leader, entries, fires
):
    found = record_signal(
        time_ms=time_ms, leader_time_ms=leader, entries=entries, thresholds=Thresholds()
    )
    assert (found is not None) == fires
    if fires:
        assert found == {"time_ms": time_ms, "leader_time_ms": leader, "entries": entries}


def test_timing_of_too_few_moves_has_no_figures():
    assert timing_of([]).median_ms is None and timing_of([5]).variation is None
    assert timing_of([5]).figures() == {"effective_moves": 1}


# Properties over any order of play on the striped board.

orders = st.permutations(SAFE)
human_gaps = st.lists(st.integers(0, 5_000), min_size=31, max_size=31)


def from_gaps(gaps: list[int], start: int = 5_000) -> list[int]:
    return list(itertools.accumulate([start, *gaps]))


@given(
    order=orders,
    interval=st.integers(20, 2_000),
    jitter=st.lists(st.floats(-0.05, 0.05), min_size=31, max_size=31),
    stalls=st.sets(st.integers(0, 30), max_size=5),
    before=st.integers(9, 200),
)
def test_machine_regular_intervals_always_fire_metronome_whatever_their_stalls(
    order, interval, jitter, stalls, before
):
    """A program that waits the same time before each click (within 5 %) cannot hide, even
    behind a few long stalls, once its window is full."""
    gaps = [round(interval * (1 + j)) + (5_000 if k in stalls else 0) for k, j in enumerate(jitter)]
    history = earlier([interval] * before)
    found = screen(STRIPES, timed(reveals(order), from_gaps(gaps)), LOST, earlier=history)
    assert "metronome" in found.signals


@given(order=orders, gaps=human_gaps, factor=st.integers(1, 20), before=st.integers(9, 100))
def test_scaling_every_interval_up_never_creates_a_reaction_signal(order, gaps, factor, before):
    slow_history = earlier([gaps[0] * factor] * before)
    slow = screen(
        STRIPES, timed(reveals(order), from_gaps([g * factor for g in gaps])), LOST,
        earlier=slow_history,
    )  # fmt: skip
    if "reaction" in slow.signals:
        fast = screen(
            STRIPES,
            timed(reveals(order), from_gaps(gaps)),
            LOST,
            earlier=earlier([gaps[0]] * before),
        )
        assert "reaction" in fast.signals


@given(order=orders, gaps=human_gaps, factor=st.integers(1, 20), before=st.integers(0, 100))
def test_scaling_every_interval_leaves_metronome_as_it_was(order, gaps, factor, before):
    """Regularity is a ratio: a program cannot pass by being slower, nor a person fail."""
    base = screen(
        STRIPES, timed(reveals(order), from_gaps(gaps)), LOST, earlier=earlier(gaps[:before])
    )
    scaled = screen(
        STRIPES, timed(reveals(order), from_gaps([g * factor for g in gaps])), LOST,
        earlier=earlier([g * factor for g in gaps[:before]]),
    )  # fmt: skip
    assert ("metronome" in base.signals) == ("metronome" in scaled.signals)


games_of_intervals = st.lists(st.lists(st.integers(0, 3_000), max_size=60).map(tuple), max_size=70)


@given(
    own=st.lists(st.integers(0, 3_000), max_size=150),
    history=games_of_intervals,
    n=st.integers(1, 200),
    max_games=st.integers(0, 60),
)
def test_a_window_is_its_own_intervals_after_the_latest_of_earlier_games(
    own, history, n, max_games
):
    games = [EarlierGame(f"g{k}", gaps) for k, gaps in enumerate(history)]
    window = window_of(own, games, n, max_games)
    # It ends with the game's own intervals, all of them.
    assert window.intervals[len(window.intervals) - len(own) :] == tuple(own)
    reachable = sum(len(g.intervals) for g in games[:max_games])
    assert window.size == max(len(own), min(n, len(own) + reachable))
    # The games it reached: the latest ones with intervals, in order, at most max_games...
    assert (
        list(window.games)
        == [g.game_id for g in games[:max_games] if g.intervals][: len(window.games)]
    )
    # ...each giving the latest of its own intervals, oldest game first, whole but the last.
    rest = window.intervals[: len(window.intervals) - len(own)]
    by_id = {g.game_id: g.intervals for g in games}
    for k, game_id in enumerate(window.games):
        gaps = by_id[game_id]
        if k < len(window.games) - 1:
            assert rest[len(rest) - len(gaps) :] == gaps
            rest = rest[: len(rest) - len(gaps)]
        else:
            assert len(rest) <= len(gaps) and gaps[len(gaps) - len(rest) :] == rest


@given(
    values=st.lists(st.integers(1, 5_000), min_size=1, max_size=200),
    factor=st.integers(1, 50),
    stall=st.integers(0, 100_000),
)
def test_spread_is_a_ratio_and_one_stall_moves_it_little(values, factor, stall):
    spread = spread_of(values)
    assert spread is not None and spread >= 0
    assert spread_of([v * factor for v in values]) == pytest.approx(spread)
    if len(values) >= 20:
        # One outlier moves the median and the MAD by at most one rank each.
        ranked = sorted(values)
        stalled = spread_of([*values, stall])
        assert stalled <= 1.4826 * (ranked[-1] - ranked[0]) / ranked[len(ranked) // 2 - 1] + 1e-9


@given(
    order=orders,
    gaps=human_gaps,
    repeats=st.lists(st.tuples(st.integers(0, 31), st.integers(0, 50)), max_size=20),
)
def test_clicks_on_open_cells_never_change_the_timing(order, gaps, repeats):
    """However fast a player clicks cells it has already opened, only its effective moves are
    timed."""
    times = from_gaps(gaps)
    clicks = reveals(order)
    base = screen(STRIPES, timed(clicks, times), LOST).timing
    noisy_clicks, noisy_times = list(clicks), list(times)
    for after, delay in sorted(repeats, reverse=True):  # insert from the end: indexes hold
        noisy_clicks.insert(after + 1, clicks[after])
        noisy_times.insert(after + 1, times[after] + min(delay, gaps[after] if after < 31 else 50))
    assert screen(STRIPES, timed(noisy_clicks, noisy_times), LOST).timing == base
