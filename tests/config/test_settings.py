"""Settings from the environment: production passes check --deploy, and a missing SECRET_KEY
with DEBUG off stops the start with a clear error."""

import subprocess
import sys

from tests.support.servers import REPO_ROOT, base_env

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "a-long-random-production-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "minerace.example.org",
    "DATABASE_URL": "postgres://minerace@127.0.0.1:5432/minerace",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO_ROOT, env=base_env(**env), capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_production_settings_pass_check_deploy():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_uses_postgres_pool_redis_pubsub_and_whitenoise():
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], bool(s.DATABASES['default']['OPTIONS']['pool']),"
        " s.CHANNEL_LAYERS['default']['BACKEND'], s.STORAGES['staticfiles']['BACKEND'],"
        " 'whitenoise.middleware.WhiteNoiseMiddleware' in s.MIDDLEWARE)"
    )
    result = manage("shell", "--no-imports", "-c", code, **PRODUCTION)
    assert result.stdout.split() == [
        "django.db.backends.postgresql", "True", "games.events.local_layer.ColocatedChannelLayer",
        "whitenoise.storage.CompressedManifestStaticFilesStorage", "True",
    ], result.stderr  # fmt: skip


def test_a_missing_secret_key_with_debug_off_is_a_clear_error():
    result = manage("check", DEBUG="0", SECRET_KEY="")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_embedded_defaults_need_no_environment():
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], s.DEBUG)"
    )
    result = manage("shell", "--no-imports", "-c", code)
    assert result.stdout.split() == [
        "django.db.backends.sqlite3", "channels.layers.InMemoryChannelLayer", "True",
    ], result.stderr  # fmt: skip


def hsts_header(tmp_path, **env: str) -> str:
    """The Strict-Transport-Security header of an HTTPS answer in production settings."""
    code = (
        "import django; django.setup();"
        "from django.test import Client;"
        "answer = Client().get('/api/nowhere/', secure=True, HTTP_HOST='minerace.example.org');"
        "print(answer.headers.get('Strict-Transport-Security'))"
    )
    settings = {**PRODUCTION, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", **env}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT, env=base_env(**settings), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_hsts_lasts_a_year_without_preload(tmp_path):
    assert hsts_header(tmp_path) == "max-age=31536000; includeSubDomains"


def test_hsts_preload_only_when_a_setting_asks_for_it(tmp_path):
    header = hsts_header(tmp_path, SECURE_HSTS_PRELOAD="1")
    assert header == "max-age=31536000; includeSubDomains; preload"
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION,
                    SECURE_HSTS_PRELOAD="1")  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
