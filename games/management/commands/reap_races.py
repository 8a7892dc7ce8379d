"""Advance every race whose countdown or time limit has passed (for cron, beside the reapers)."""

from asgiref.sync import async_to_sync
from django.core.management.base import BaseCommand

from games.events.delivery import publish
from games.races.clock import game_tick, overdue_games


class Command(BaseCommand):
    help = "Start races whose countdown is over and end races past their time limit."

    def handle(self, *args, **options) -> None:
        count = 0
        for game_id in overdue_games():
            events = game_tick(game_id=game_id)
            if events:
                async_to_sync(publish)(events)
                count += 1
        self.stdout.write(f"advanced {count} race(s)")
