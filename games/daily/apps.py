from django.apps import AppConfig


class DailyConfig(AppConfig):
    name = "games.daily"
    label = "daily"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A counted run is screened when it ends (docs/protocol.md 6.3); the screen runs below
        # this room, so the daily challenge tells it which runs count.
        from games.daily.counting import counted_run
        from games.fairplay.counting import count_rule_register

        count_rule_register("daily", counted_run)
