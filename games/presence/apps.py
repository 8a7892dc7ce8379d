from django.apps import AppConfig


class PresenceConfig(AppConfig):
    name = "games.presence"
    label = "presence"
    default_auto_field = "django.db.models.BigAutoField"
