"""A late spectator's hello to a long running race, on PostgreSQL: the time to build its
welcome (boards as of `delay` ago and the moves since), which once replayed the whole log.

    .venv/bin/python -m tests.load.bench_spectator_hello --moves 18000 --hellos 50

It creates a fresh database, a running expert race of 5 racers, plays `--moves` real moves
through the move pipeline (flags toggled, so the race never ends), makes all but the last
`--recent` of them older than the spectator delay, and times `welcome_view` for a
spectator. Prints the number of moves in the log and the median, p95 and max time per hello.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tests.support.servers import django_on_fresh_postgres


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=18000)
    parser.add_argument("--recent", type=int, default=150, help="moves inside the delay")
    parser.add_argument("--hellos", type=int, default=50)
    args = parser.parse_args()
    with django_on_fresh_postgres():
        run(args.moves, args.recent, args.hellos)


def run(moves: int, recent: int, hellos: int) -> None:
    from datetime import timedelta

    from django.conf import settings
    from django.db.models import OuterRef, Subquery
    from django.utils import timezone

    from games.engine import Flag, Reveal
    from games.models import Move, SweepSnapshot
    from games.moves.services import move_apply
    from games.play.welcome import welcome_view
    from games.races import lifecycle
    from games.races.clock import game_tick
    from games.races.spec import game_spec

    game = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "expert"}))
    racers = [lifecycle.player_join(game_id=game.id, name=f"racer{k}").player for k in range(5)]
    for racer in racers:
        lifecycle.player_ready(player_id=racer.id)
    game.refresh_from_db()
    game.starts_at = timezone.now() - timedelta(seconds=1)
    game.save(update_fields=["starts_at"])
    game_tick(game_id=game.id)
    game.refresh_from_db()
    for racer in racers:
        move_apply(player_id=racer.id, move=Reveal(*game.safe_cell))
    started = time.perf_counter()
    for k in range(moves - len(racers)):
        move_apply(player_id=racers[k % 5].id, move=Flag(k % 30, 15 - (k // 30) % 2))
    print(f"played {moves} moves in {time.perf_counter() - started:.1f} s")
    delay = timedelta(milliseconds=settings.MINERACE["SPECTATOR_DELAY_MS"] + 60_000)
    newest = list(
        Move.objects.filter(game=game).order_by("-id").values_list("id", flat=True)[:recent]
    )
    Move.objects.filter(game=game).exclude(id__in=newest).update(created_at=timezone.now() - delay)
    made_at = Move.objects.filter(player=OuterRef("player"), seq=OuterRef("seq"))
    SweepSnapshot.objects.filter(player__game=game).update(
        created_at=Subquery(made_at.values("created_at")[:1])  # as when they were written
    )

    timings = []
    for _ in range(hellos):
        began = time.perf_counter()
        view = welcome_view(game_id=game.id, player_id=None, spectator=True)
        timings.append((time.perf_counter() - began) * 1000)
    timings.sort()
    print(f"log: {Move.objects.filter(game=game).count()} moves, "
          f"{SweepSnapshot.objects.filter(player__game=game).count()} snapshots; "
          f"welcome: {len(view['pending'])} pending frames")  # fmt: skip
    print(f"spectator hello over {hellos}: median {statistics.median(timings):.1f} ms, "
          f"p95 {timings[int(0.95 * (hellos - 1))]:.1f} ms, max {timings[-1]:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
