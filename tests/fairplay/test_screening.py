"""The pure screen (games/fairplay/screening.py): which moves count, and when each signal fires."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import LoggedMove, move_from_action
from games.fairplay.screening import (
    Outcome,
    ReceivedMove,
    Thresholds,
    effective_times,
    record_signal,
    screen,
    timing_of,
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


def test_a_steady_250_ms_player_fires_metronome_alone_with_its_figures():
    found = screen(STRIPES, timed(reveals(SAFE), steady(32, 250)), WON)
    assert found.signals == {
        "metronome": {
            "variation": 0.0,
            "floor": 0.2,
            "mean_ms": 250.0,
            "stdev_ms": 0.0,
            "effective_moves": 32,
        }
    }
    assert found.timing.median_ms == 250


def test_a_player_clicking_every_40_ms_fires_reaction_and_metronome():
    found = screen(STRIPES, timed(reveals(SAFE), steady(32, 40)), WON)
    assert set(found.signals) == {"reaction", "metronome"}
    assert found.signals["reaction"] == {"median_ms": 40.0, "floor_ms": 80.0, "effective_moves": 32}


def test_uneven_human_intervals_fire_nothing():
    pauses = itertools.cycle([180, 420, 260, 900, 310, 150, 520])
    times = list(itertools.accumulate([0] + [next(pauses) for _ in range(31)]))
    found = screen(STRIPES, timed(reveals(SAFE), times), WON)
    assert found.signals == {}
    assert found.timing.effective_moves == 32 and found.timing.variation > 0.5


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


def test_fewer_than_the_minimum_of_effective_moves_never_fire_reaction_or_metronome():
    found = screen(STRIPES, timed(reveals(SAFE[:29]), steady(29, 10)), LOST)
    assert found.signals == {} and found.timing.effective_moves == 29
    lower = Thresholds(min_moves=29)  # a setting: the same game judged on fewer moves
    assert set(screen(STRIPES, timed(reveals(SAFE[:29]), steady(29, 10)), LOST, lower).signals) == {
        "reaction",
        "metronome",
    }


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
)
def test_machine_regular_intervals_always_fire_metronome(order, interval, jitter):
    """A program that waits the same time before each click (within 5 %) cannot hide."""
    gaps = [round(interval * (1 + j)) for j in jitter]
    found = screen(STRIPES, timed(reveals(order), from_gaps(gaps)), LOST)
    assert "metronome" in found.signals


@given(order=orders, gaps=human_gaps, factor=st.integers(1, 20))
def test_scaling_every_interval_up_never_creates_a_reaction_signal(order, gaps, factor):
    slow = screen(STRIPES, timed(reveals(order), from_gaps([g * factor for g in gaps])), LOST)
    if "reaction" in slow.signals:
        fast = screen(STRIPES, timed(reveals(order), from_gaps(gaps)), LOST)
        assert "reaction" in fast.signals


@given(order=orders, gaps=human_gaps, factor=st.integers(1, 20))
def test_scaling_every_interval_leaves_metronome_as_it_was(order, gaps, factor):
    """Regularity is a ratio: a program cannot pass by being slower, nor a person fail."""
    base = screen(STRIPES, timed(reveals(order), from_gaps(gaps)), LOST)
    scaled = screen(STRIPES, timed(reveals(order), from_gaps([g * factor for g in gaps])), LOST)
    assert ("metronome" in base.signals) == ("metronome" in scaled.signals)


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
