"""The move pipeline step by step (games.moves): what a move writes, that a write which lost its
row changes nothing and is stepped again on the fresh row, and that finishing is all or nothing.

These run on the default database (SQLite) and, through test_move_store_on_postgres.py, on
PostgreSQL: the pipeline is the same code on both.
"""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.engine import Sweep, generate_board, move_from_action, start_cell
from games.engine.codec import decode, encode
from games.errors import ServiceError
from games.models import Game, GameMode, GameStatus, Move, Player, Score
from games.moves import services
from games.moves.state import player_states
from games.races import finishing

# Transactions of their own, as in production: on PostgreSQL a move's first try runs in
# autocommit, which a test's enclosing transaction would turn into part of itself.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_move_caches")]

SEED = "move-store"
W, H, M = 16, 16, 40
START = start_cell(W, H, SEED)
BOARD = generate_board(W, H, M, SEED, START)
SAFE = [BOARD.xy(i) for i in range(BOARD.size) if not BOARD.is_mine(i)]
OPENING = move_from_action("reveal", *START)
A_FLAG = move_from_action("flag", *BOARD.xy(min(BOARD.mines)))
A_LATER_REVEAL = move_from_action("reveal", *SAFE[-1])
A_MINE = move_from_action("reveal", *BOARD.xy(min(BOARD.mines)))


def running_race(racers: int = 1, preset: str = "intermediate") -> tuple[Game, list[Player]]:
    """A race already running from START, its racers playing, nothing moved yet."""
    game = Game.objects.create(mode=GameMode.RACE, preset=preset, width=W, height=H, mines=M,
                               max_players=racers, ranked=True, seed=SEED, seed_commitment="",
                               safe_x=START[0], safe_y=START[1], bbbv=0,
                               status=GameStatus.RUNNING,
                               started_at=timezone.now() - timedelta(seconds=5))  # fmt: skip
    players = [
        Player.objects.create(
            game=game,
            name=f"racer{k}",
            name_key=f"racer{k}",
            token_hash=f"{game.id}-{k}",
            status="playing",
        )
        for k in range(racers)
    ]
    return game, players


def row(player_id: str) -> tuple:
    p = Player.objects.get(pk=player_id)
    return p.status, p.moves_count, bytes(p.snapshot), p.revealed, p.flags, p.clicks


def logged(player_id: str) -> list[tuple]:
    return list(
        Move.objects.filter(player_id=player_id)
        .order_by("id")
        .values_list("seq", "action", "x", "y")
    )


def replayed(*moves) -> Sweep:
    sweep = Sweep(W, H, M, BOARD)
    for move in moves:
        sweep.apply(move)
    return sweep


def played_elsewhere(player_id: str, game_id: str, seq: int, move, sweep: Sweep) -> None:
    """Write a move as another worker or connection would: the row moves on, the log grows."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_player SET moves_count = %s, snapshot = %s, revealed = %s, flags = %s, "
            "clicks = %s WHERE id = %s",
            [seq, encode(W, H, sweep.state), sweep.revealed, sweep.flags, sweep.clicks, player_id],
        )
    Move.objects.create(game_id=game_id, player_id=player_id, seq=seq, action=move.action,
                        x=move.x, y=move.y, t_ms=0)  # fmt: skip


def test_moves_update_the_row_and_append_to_the_log_in_order():
    _game, [player] = running_race()
    moves = [OPENING, A_FLAG, A_LATER_REVEAL]
    for seq, move in enumerate(moves, start=1):
        outcome = services.move_apply(player_id=player.id, move=move)
        assert (outcome.cells["seq"], outcome.cells["status"]) == (seq, "playing")
        assert [e.kind for e in outcome.events] == ["move"]

    expected = replayed(*moves)
    status, moves_count, snapshot, revealed, flags, clicks = row(player.id)
    assert (status, moves_count, flags, clicks) == ("playing", 3, 1, 3)
    assert revealed == expected.revealed > 1
    assert decode(snapshot, W, H) == expected.state
    assert logged(player.id) == [
        (1, "reveal", *START), (2, "flag", A_FLAG.x, A_FLAG.y), (3, "reveal", *SAFE[-1])
    ]  # fmt: skip


def test_a_write_that_lost_its_row_to_the_clock_changes_nothing(monkeypatch):
    """The clock makes the racer dnf between the step and the write: the write must not apply,
    and the next step reads the final status and refuses."""
    _game, [player] = running_race()
    step = services.move_step

    def step_then_clock_strikes(*args):
        result = step(*args)
        Player.objects.filter(pk=player.id).update(status="dnf")
        return result

    monkeypatch.setattr(services, "move_step", step_then_clock_strikes)
    with pytest.raises(ServiceError) as refused:
        services.move_apply(player_id=player.id, move=OPENING)
    assert refused.value.code == "not_running"
    assert row(player.id)[:2] == ("dnf", 0)
    assert logged(player.id) == []


def test_a_write_that_lost_its_row_to_another_move_is_stepped_again_on_top_of_it(monkeypatch):
    game, [player] = running_race()
    services.move_apply(player_id=player.id, move=OPENING)
    after_other = replayed(OPENING, A_FLAG)
    step, calls = services.move_step, []

    def step_while_another_connection_moves(*args):
        calls.append(args[1].moves_count)  # the seq the step was built on
        if len(calls) == 1:
            played_elsewhere(player.id, game.id, 2, A_FLAG, after_other)
        return step(*args)

    monkeypatch.setattr(services, "move_step", step_while_another_connection_moves)
    again = services.move_apply(player_id=player.id, move=A_LATER_REVEAL)
    assert calls == [1, 2]  # built on seq 1, lost, built again on the fresh row
    assert again.cells["seq"] == 3
    assert [seq for seq, *_ in logged(player.id)] == [1, 2, 3]
    after_other.apply(A_LATER_REVEAL)
    assert decode(row(player.id)[2], W, H) == after_other.state
    assert row(player.id)[4:] == (1, 3)  # the other move's flag survived, three clicks


def test_a_state_this_process_wrote_is_not_trusted_once_the_row_has_moved_on():
    game, [player] = running_race()
    services.move_apply(player_id=player.id, move=OPENING)
    assert player_states.get(player.id).moves_count == 1  # kept for the next move
    after_other = replayed(OPENING, A_FLAG)
    played_elsewhere(player.id, game.id, 2, A_FLAG, after_other)

    again = services.move_apply(player_id=player.id, move=A_LATER_REVEAL)
    assert again.cells["seq"] == 3
    after_other.apply(A_LATER_REVEAL)
    assert decode(row(player.id)[2], W, H) == after_other.state
    assert player_states.get(player.id).moves_count == 3


def test_a_losing_move_writes_the_score_finished_and_game_over_with_the_move():
    game, [player] = running_race()
    services.move_apply(player_id=player.id, move=OPENING)
    outcome = services.move_apply(player_id=player.id, move=A_MINE)
    assert [e.kind for e in outcome.events] == ["move", "finished", "decided", "game_over"]
    assert outcome.cells["status"] == "lost"
    assert row(player.id)[:2] == ("lost", 2)
    assert Score.objects.get(player=player).status == "lost"
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED


def test_a_finish_that_fails_leaves_no_trace_of_the_move(monkeypatch):
    """Scoring runs in the move's transaction: if it fails, the move was never played."""
    _game, [player] = running_race()
    services.move_apply(player_id=player.id, move=OPENING)

    def scoring_fails(**_kwargs):
        raise RuntimeError("the score table is gone")

    monkeypatch.setattr(finishing, "score_record", scoring_fails)
    with pytest.raises(RuntimeError):
        services.move_apply(player_id=player.id, move=A_MINE)
    assert row(player.id)[:2] == ("playing", 1)
    assert logged(player.id) == [(1, "reveal", *START)]
    assert not Score.objects.filter(player=player).exists()


def test_the_first_of_two_racers_to_finish_does_not_end_the_race():
    game, [alice, bob] = running_race(racers=2)
    services.move_apply(player_id=alice.id, move=OPENING)
    outcome = services.move_apply(player_id=alice.id, move=A_MINE)
    assert [e.kind for e in outcome.events] == ["move", "finished"]
    game.refresh_from_db()
    assert game.status == GameStatus.RUNNING
    last = services.move_apply(player_id=bob.id, move=A_MINE)
    assert [e.kind for e in last.events] == ["move", "finished", "decided", "game_over"]


def test_a_solo_first_reveal_starts_the_game_in_the_same_write():
    game = Game.objects.create(mode=GameMode.SOLO, preset="", width=W, height=H, mines=M,
                               seed=SEED, seed_commitment="")  # fmt: skip
    player = Player.objects.create(game=game, name="solo", name_key="solo", token_hash=game.id,
                                   status="playing")  # fmt: skip
    flag = services.move_apply(player_id=player.id, move=move_from_action("flag", 0, 0))
    assert [e.kind for e in flag.events] == ["move"]
    outcome = services.move_apply(player_id=player.id, move=move_from_action("reveal", 8, 8))
    assert [e.kind for e in outcome.events] == ["started", "move"]
    game.refresh_from_db()
    assert (game.status, game.safe_cell) == (GameStatus.RUNNING, (8, 8))
    board = generate_board(W, H, M, SEED, (8, 8))
    assert outcome.cells["cells"][0] == [8, 8, 0]
    assert row(player.id)[3] == len(outcome.cells["cells"]) > 1
    assert board.numbers[board.index(8, 8)] == 0


def test_an_unknown_player_or_a_cell_off_the_board_is_refused_and_changes_nothing():
    _game, [player] = running_race()
    with pytest.raises(ServiceError) as unknown:
        services.move_apply(player_id="nobody", move=OPENING)
    assert unknown.value.code == "not_a_player"
    with pytest.raises(ServiceError) as off:
        services.move_apply(player_id=player.id, move=move_from_action("reveal", W, 0))
    assert off.value.code == "bad_cell"
    assert row(player.id)[:2] == ("playing", 0)
    assert logged(player.id) == []


def test_a_move_after_the_time_limit_is_refused(settings):
    _game, [player] = running_race()
    settings.MINERACE = {**settings.MINERACE, "RACE_TIME_LIMIT_S": 1}  # started 5 s ago
    with pytest.raises(ServiceError) as late:
        services.move_apply(player_id=player.id, move=OPENING)
    assert late.value.code == "not_running"
    assert logged(player.id) == []


def test_a_keyed_move_sent_again_writes_nothing_and_repeats_the_first_answer():
    _game, [player] = running_race()
    first = services.move_apply(player_id=player.id, move=OPENING, key="open")
    services.move_apply(player_id=player.id, move=A_FLAG, key="flag")
    again = services.move_apply(player_id=player.id, move=OPENING, key="open")
    assert (again.repeated, again.events, again.cells) == (True, [], first.cells)
    assert row(player.id)[1] == 2
    keys = Move.objects.filter(player_id=player.id).order_by("seq")
    assert list(keys.values_list("idempotency_key", flat=True)) == ["open", "flag"]
    with pytest.raises(ServiceError) as other:
        services.move_apply(player_id=player.id, move=A_LATER_REVEAL, key="flag")
    assert other.value.code == "bad_message"
    assert row(player.id)[1] == 2


def test_a_keyed_move_another_worker_wrote_meanwhile_is_answered_not_applied(monkeypatch):
    """The same keyed move, sent twice, lands on two workers: the other one writes first, so
    this write loses its row, and the locked retry finds the key instead of playing again."""
    game, [player] = running_race()
    step, calls = services.move_step, []

    def step_while_the_other_worker_writes(*args):
        calls.append(args[1].moves_count)
        if len(calls) == 1:
            played_elsewhere(player.id, game.id, 1, OPENING, replayed(OPENING))
            Move.objects.filter(player_id=player.id, seq=1).update(idempotency_key="open")
        return step(*args)

    monkeypatch.setattr(services, "move_step", step_while_the_other_worker_writes)
    outcome = services.move_apply(player_id=player.id, move=OPENING, key="open")
    assert calls == [0] and outcome.repeated
    assert (outcome.cells["seq"], outcome.cells["cells"][0]) == (1, [*START, 0])
    assert logged(player.id) == [(1, "reveal", *START)]


def test_a_key_the_check_missed_is_stopped_by_the_unique_index(monkeypatch):
    """Should the key check ever miss a committed key, the log's unique (player, key) index
    refuses the second write, and the retry answers with the first."""
    _game, [player] = running_race()
    first = services.move_apply(player_id=player.id, move=A_FLAG, key="flag")
    read, reads = services.store.read_keyed_move, []

    def misses_once(player_id, game_id, key):
        reads.append(key)
        return None if len(reads) == 1 else read(player_id, game_id, key)

    monkeypatch.setattr(services.store, "read_keyed_move", misses_once)
    again = services.move_apply(player_id=player.id, move=A_FLAG, key="flag")
    assert (again.repeated, again.cells) == (True, first.cells)
    assert len(reads) == 2 and row(player.id)[1] == 1
    assert logged(player.id) == [(1, "flag", A_FLAG.x, A_FLAG.y)]


def test_runs_on_the_database_it_was_asked_for():
    """test_move_store_on_postgres.py sets MINERACE_EXPECT_VENDOR: a silent fallback to SQLite
    there would prove nothing."""
    assert connection.vendor == os.environ.get("MINERACE_EXPECT_VENDOR", connection.vendor)
