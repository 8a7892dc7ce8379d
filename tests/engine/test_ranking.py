from games.engine.ranking import Standing, rank


def standing(pid, won=False, time_ms=None, revealed=0, last=None, order=0):
    return Standing(pid, won, time_ms, revealed, last, order)


def test_winners_by_time_then_others_by_progress_then_last_move_then_join_order():
    players = [
        standing("slow-winner", won=True, time_ms=9000, order=0),
        standing("fast-winner", won=True, time_ms=5000, order=1),
        standing("lost-far", revealed=50, last=4000, order=2),
        standing("lost-far-later", revealed=50, last=7000, order=3),
        standing("no-move", revealed=0, last=None, order=4),
        standing("lost-near", revealed=10, last=1000, order=5),
        standing("no-move-2", revealed=0, last=None, order=6),
        standing("zero-moved", revealed=0, last=100, order=7),
    ]
    order = [s.player_id for _, s in rank(players)]
    assert order == [
        "fast-winner", "slow-winner", "lost-far", "lost-far-later", "lost-near",
        "zero-moved", "no-move", "no-move-2",
    ]  # fmt: skip
    assert [r for r, _ in rank(players)] == list(range(1, 9))


def test_those_who_resigned_or_were_dropped_rank_below_everyone_who_stayed():
    """docs/protocol.md 2, v1.2: leaving is a loss, even with more cells than those who stayed."""
    players = [
        Standing("left-far", False, None, 60, 5000, 0, resigned=True),
        Standing("stayed-no-move", False, None, 0, None, 1),
        Standing("left-near", False, None, 5, 3000, 2, resigned=True),
        Standing("lost", False, None, 10, 2000, 3),
        Standing("won", True, 9000, 71, 9000, 4),
    ]
    order = [s.player_id for _, s in rank(players)]
    assert order == ["won", "lost", "stayed-no-move", "left-far", "left-near"]


def test_two_who_left_without_a_move_keep_the_order_above_among_themselves():
    """The farming of issue 20: neither moved, both left; join order still ranks them, but a
    racer who stayed (even without a move) is above both."""
    players = [
        Standing("a", False, None, 0, None, 0, resigned=True),
        Standing("b", False, None, 0, None, 1, resigned=True),
        Standing("c", False, None, 0, None, 2),
    ]
    assert [s.player_id for _, s in rank(players)] == ["c", "a", "b"]
