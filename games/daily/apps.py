from django.apps import AppConfig


class DailyConfig(AppConfig):
    name = "games.daily"
    label = "daily"
    default_auto_field = "django.db.models.BigAutoField"
