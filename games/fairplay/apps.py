from django.apps import AppConfig


class FairplayConfig(AppConfig):
    name = "games.fairplay"
    label = "fairplay"
    verbose_name = "Fair play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A marked account's player page says so (docs/protocol.md 6.4); the page is drawn below
        # this room, so the mark is told to it here.
        from games.fairplay.selectors import is_marked
        from games.scores.leaderboards import player_fact_register

        player_fact_register("marked", is_marked)
