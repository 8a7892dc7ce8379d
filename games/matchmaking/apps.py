from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    name = "games.matchmaking"
    label = "matchmaking"
    default_auto_field = "django.db.models.BigAutoField"
