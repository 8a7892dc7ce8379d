from django.apps import AppConfig


class TvConfig(AppConfig):
    name = "games.tv"
    label = "tv"
    verbose_name = "Minerace TV"

    def ready(self) -> None:
        # A player page links its player's running race; the page is drawn below this room,
        # so the race is told to it here (as games.fairplay tells its mark).
        from games.scores.leaderboards import player_fact_register
        from games.tv.selectors import racing_now

        player_fact_register("racing", racing_now)
