from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "games.bots"
    label = "bots"
    default_auto_field = "django.db.models.BigAutoField"
