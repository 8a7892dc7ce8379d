from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "games.ratings"
    label = "ratings"
    default_auto_field = "django.db.models.BigAutoField"
