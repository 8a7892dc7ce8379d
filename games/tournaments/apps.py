from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "games.tournaments"
    label = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Races are below this room: it tells them which races are a tournament's (berserk is
        # allowed there), what to do in the transaction that decides one (points, and both
        # racers free to be paired again: docs/protocol.md 2.2, 7), and tells fair play that a
        # tournament race counts (docs/protocol.md 6.3).
        from games.fairplay.counting import count_rule_register
        from games.races.deciding import decided_hook_register
        from games.races.extensions import berserk_rule_register, points_rule_register
        from games.tournaments.selectors import is_arena_race
        from games.tournaments.services import race_points_write

        berserk_rule_register("tournament", is_arena_race)
        points_rule_register("tournament", is_arena_race)
        decided_hook_register("tournament", race_points_write)
        count_rule_register("tournament", lambda game, player: is_arena_race(game))
