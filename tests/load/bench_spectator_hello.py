"""The first spectator's hello to a long running race on a worker, on PostgreSQL: the time
to read the race's common ground (games.play.welcome.common_ground_now: every racer's
snapshot, no move log) and its welcome's state.

    .venv/bin/python -m tests.load.bench_spectator_hello --moves 18000 --hellos 50

It creates a fresh database, a running expert race of 5 racers, plays `--moves` real moves
through the move pipeline (flags toggled, so the race never ends), and times the watch's read
of the ground plus `welcome_view` for a spectator. Prints the number of moves in the log and
the median, p95 and max time per hello.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tests.support.servers import django_on_fresh_postgres


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=18000)
    parser.add_argument("--hellos", type=int, default=50)
    args = parser.parse_args()
    with django_on_fresh_postgres():
        run(args.moves, args.hellos)


def running_expert_race(racers: int = 5):
    """A running expert race of `racers`, each past its opening reveal: (game, players)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.engine import Reveal
    from games.moves.services import move_apply
    from games.races import lifecycle
    from games.races.clock import game_tick
    from games.races.spec import game_spec

    game = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "expert"}))
    players = [
        lifecycle.player_join(game_id=game.id, name=f"racer{k}").player for k in range(racers)
    ]
    for player in players:
        lifecycle.player_ready(player_id=player.id)
    game.refresh_from_db()
    game.starts_at = timezone.now() - timedelta(seconds=1)
    game.save(update_fields=["starts_at"])
    game_tick(game_id=game.id)
    game.refresh_from_db()
    for player in players:
        move_apply(player_id=player.id, move=Reveal(*game.safe_cell), game_id=game.id)
    return game, players


def run(moves: int, hellos: int) -> None:
    from games.engine import Flag
    from games.models import Move, SweepSnapshot
    from games.moves.services import move_apply
    from games.play.welcome import common_ground_now, welcome_view

    game, racers = running_expert_race()
    started = time.perf_counter()
    for k in range(moves - len(racers)):
        move_apply(player_id=racers[k % 5].id, move=Flag(k % 30, 15 - (k // 30) % 2))
    print(f"played {moves} moves in {time.perf_counter() - started:.1f} s")
    timings = []
    for _ in range(hellos):
        began = time.perf_counter()
        ground, _, _ = common_ground_now(game_id=game.id)
        welcome_view(game_id=game.id, player_id=None, spectator=True)
        timings.append((time.perf_counter() - began) * 1000)
    timings.sort()
    print(f"log: {Move.objects.filter(game=game).count()} moves, "
          f"{SweepSnapshot.objects.filter(player__game=game).count()} snapshots; "
          f"common ground: {len(ground.cells())} cells")  # fmt: skip
    print(f"spectator hello over {hellos}: median {statistics.median(timings):.1f} ms, "
          f"p95 {timings[int(0.95 * (hellos - 1))]:.1f} ms, max {timings[-1]:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
