from django.apps import AppConfig


class FairplayConfig(AppConfig):
    name = "games.fairplay"
    label = "fairplay"
    default_auto_field = "django.db.models.BigAutoField"
