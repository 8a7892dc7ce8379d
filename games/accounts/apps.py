from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "games.accounts"
    label = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.accounts import signals  # noqa: F401  (keeps every account's name claimed)
