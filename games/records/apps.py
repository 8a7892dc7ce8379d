from django.apps import AppConfig


class RecordsConfig(AppConfig):
    name = "games.records"
    label = "records"
    verbose_name = "Records"
    default_auto_field = "django.db.models.BigAutoField"
