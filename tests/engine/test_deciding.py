"""The decided rule (docs/protocol.md 2.2): once it says decided, no way the last racer goes on can
change a rank; and the duels players meet every day are decided when they should be."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.deciding import decided_ranking
from games.engine.ranking import Standing, rank

SAFE_CELLS = 71  # a beginner board


def won(pid, time_ms, order):
    return Standing(pid, True, time_ms, SAFE_CELLS, time_ms, order)


def lost(pid, revealed, last, order, resigned=False):
    return Standing(pid, False, None, revealed, last, order, resigned=resigned)


def playing(pid, revealed, last, order):
    return Standing(pid, False, None, revealed, last, order)


def ranks(ranking):
    return {s.player_id: position for position, s in ranking}


# ---- the duels ------------------------------------------------------------------------------


def test_a_duel_is_decided_the_moment_one_racer_wins():
    ranking = decided_ranking([won("a", 8000, 0), playing("b", 30, 7000, 1)], ["b"], 8000)
    assert ranks(ranking) == {"a": 1, "b": 2}


def test_a_duel_is_decided_the_moment_one_racer_resigns():
    """Leaving is a loss: the one who stayed is first whatever it does next (issue 22)."""
    ranking = decided_ranking(
        [lost("a", 40, 5000, 0, resigned=True), playing("b", 3, 1000, 1)], ["b"], 6000
    )
    assert ranks(ranking) == {"b": 1, "a": 2}


def test_a_duel_whose_loser_is_ahead_is_not_decided_until_the_other_passes_it():
    standings = [lost("a", 30, 5000, 0), playing("b", 12, 4000, 1)]
    assert decided_ranking(standings, ["b"], 5000) is None
    level = [lost("a", 30, 5000, 0), playing("b", 30, 6000, 1)]
    assert decided_ranking(level, ["b"], 6000) is None  # a tie on cells: a won it earlier
    ahead = [lost("a", 30, 5000, 0), playing("b", 31, 6000, 1)]
    assert ranks(decided_ranking(ahead, ["b"], 6000)) == {"b": 1, "a": 2}


def test_a_duel_whose_loser_is_behind_is_decided_at_once():
    ranking = decided_ranking([lost("a", 5, 2000, 0), playing("b", 20, 1500, 1)], ["b"], 2000)
    assert ranks(ranking) == {"b": 1, "a": 2}


def test_two_still_playing_is_never_decided():
    standings = [won("a", 8000, 0), playing("b", 30, 7000, 1), playing("c", 2, 7000, 2)]
    assert decided_ranking(standings, ["b", "c"], 9000) is None


def test_nobody_playing_is_the_plain_ranking():
    standings = [lost("a", 5, 2000, 0), won("b", 9000, 1), lost("c", 9, 3000, 2)]
    assert decided_ranking(standings, [], 9000) == rank(standings)


def test_a_racer_who_never_moved_is_placed_at_its_worst_as_the_time_limit_would():
    """No move at all ranks below every loser with the same cells who moved: until it moves,
    a racer with nothing open is not past one who lost with nothing open."""
    standings = [lost("a", 0, 900, 0), playing("b", 0, None, 1)]
    assert decided_ranking(standings, ["b"], 5000) is None


def test_the_moment_is_never_before_a_finish_already_recorded():
    """A finish written a moment after the caller's clock read (another worker) still counts
    as past: b with the same cells as a, who lost later than `moment_ms`, is not ahead."""
    standings = [lost("a", 30, 7000, 0), playing("b", 30, 4000, 1)]
    assert decided_ranking(standings, ["b"], 6000) is None


# ---- the property: once decided, every continuation keeps every rank ------------------------


@st.composite
def races(draw):
    """A race at some moment: finished racers (won, lost, left) and one still playing."""
    moment = draw(st.integers(0, 20_000))
    count = draw(st.integers(1, 5))
    standings = []
    for order in range(count):
        pid = f"p{order}"
        kind = draw(st.sampled_from(["won", "lost", "left"]))
        if kind == "won":
            standings.append(won(pid, draw(st.integers(0, moment)), order))
            continue
        revealed = draw(st.integers(0, SAFE_CELLS - 1))
        last = draw(st.one_of(st.none(), st.integers(0, moment)))
        if kind == "lost" and last is None:
            last = moment  # a loss is a move
        standings.append(lost(pid, revealed, last, order, resigned=kind == "left"))
    revealed = draw(st.integers(0, SAFE_CELLS - 1))
    last = None if revealed == 0 and draw(st.booleans()) else draw(st.integers(0, moment))
    racer = playing("me", revealed, last, draw(st.integers(0, count)))
    standings.insert(racer.join_order, racer)
    standings = [replace(s, join_order=i) for i, s in enumerate(standings)]
    return standings, moment


@st.composite
def continuations(draw, racer, moment):
    """What the racer still playing may do from `moment`, short of resigning: win later, lose
    later with at least its cells, or run out of time (with or without more moves)."""
    how = draw(st.sampled_from(["win", "lose", "time_limit", "time_limit_after_moves"]))
    later = draw(st.integers(moment, moment + 60_000))
    more = draw(st.integers(racer.revealed, SAFE_CELLS - 1))
    if how == "win":
        return replace(racer, won=True, time_ms=later, revealed=SAFE_CELLS, last_move_ms=later)
    if how == "lose":
        return replace(racer, revealed=more, last_move_ms=later)
    if how == "time_limit":
        return racer
    return replace(racer, revealed=more, last_move_ms=later)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_once_decided_any_continuation_leaves_every_rank_unchanged(data):
    standings, moment = data.draw(races())
    ranking = decided_ranking(standings, ["me"], moment)
    if ranking is None:
        return
    racer = next(s for s in standings if s.player_id == "me")
    final = data.draw(continuations(racer, moment))
    after = [final if s.player_id == "me" else s for s in standings]
    assert ranks(rank(after)) == ranks(ranking)


@settings(max_examples=200, deadline=None)
@given(races())
def test_when_not_decided_winning_now_and_stopping_now_place_the_racer_differently(race):
    """The rule is no stricter than it must be, away from exact ties in time: if the racer's
    place does not depend on winning or stopping, it is decided."""
    standings, moment = race
    racer = next(s for s in standings if s.player_id == "me")
    others = [s for s in standings if s.player_id != "me"]
    if any(s.last_move_ms == moment or s.time_ms == moment for s in others):
        return  # an exact tie in milliseconds: the rule counts it as undecided on purpose
    win = replace(racer, won=True, time_ms=moment, revealed=SAFE_CELLS)
    stop = replace(racer, last_move_ms=None if racer.last_move_ms is None else moment + 1)
    place_win = ranks(rank([*others, win]))["me"]
    place_stop = ranks(rank([*others, stop]))["me"]
    assert (decided_ranking(standings, ["me"], moment) is None) == (place_win != place_stop)


@settings(max_examples=200, deadline=None)
@given(races())
def test_the_decided_ranking_holds_everyone_once_and_ranks_one_to_n(race):
    standings, moment = race
    ranking = decided_ranking(standings, ["me"], moment)
    if ranking is None:
        return
    assert sorted(ranks(ranking)) == sorted(s.player_id for s in standings)
    assert [position for position, _ in ranking] == list(range(1, len(standings) + 1))
    assert any(s is next(x for x in standings if x.player_id == "me") for _, s in ranking)
