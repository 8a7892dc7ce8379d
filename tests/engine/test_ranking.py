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
