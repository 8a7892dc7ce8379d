"""Minerace settings: one module, driven by environment variables.

With no environment at all it runs on embedded defaults (SQLite file, in-memory channel layer,
DEBUG on) so that `make run` works on a fresh machine. Production sets DATABASE_URL, REDIS_URL,
SECRET_KEY, DEBUG=0 and ALLOWED_HOSTS.
"""

import json
import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config import services_env

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean environment variable (1/true/yes/on, case-insensitive)."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value in (None, "") else int(value)


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-development-key-only-for-make-run"

ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]").split(",")
    if host.strip()
]
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "csp",
    "axes",
    "games",
    "games.presence",
    "games.ratings",
    "games.matchmaking",
    "games.bots",
    "games.accounts",
    "games.daily",
    "games.fairplay",
    "games.tournaments",
    "games.social",
    "games.tv",
    "games.matches",
    "games.records",
    "frontend",
]

MIDDLEWARE = [
    # First: /healthz, /readyz and /metrics answer probes and scrapes by address over plain
    # HTTP, before ALLOWED_HOSTS and SECURE_SSL_REDIRECT apply (games/ops/middleware.py).
    "games.ops.middleware.OpsMiddleware",
    # A request that failed because PostgreSQL or Redis is away (a failover) is a 503 with
    # Retry-After, never a 500 (games/edge/unavailable.py).
    "games.edge.unavailable.UnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy and Permissions-Policy on every answer, static files included
    # (games/edge/security_headers.py).
    "games.edge.security_headers.GameCSPMiddleware",
    "games.edge.security_headers.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A change under /api/ must say it is JSON (415 otherwise), before anything else reads it.
    "games.edge.middleware.JsonOnlyMiddleware",
    "games.edge.middleware.ApiErrorMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A client that changed something reads the primary for a while, not the standby.
    "games.runtime.replica.ReadYourWritesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes requires: it answers a refused login with the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "frontend.context.presets",
            ],
        },
    },
]

# DATABASE_URL may list several PostgreSQL hosts (libpq's multi-host form, with
# ?target_session_attrs=read-write): a new connection then finds whichever is the primary now.
DATABASES = {
    "default": services_env.database(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Under ASGI a pool, not CONN_MAX_AGE (Django refuses both together).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("DATABASE_POOL_MIN", 2),
        "max_size": env_int("DATABASE_POOL_MAX", 20),
        # A request waits this long for a connection, then fails (503, a move `internal`):
        # psycopg_pool's default of 30 s held every move while no host accepted writes.
        "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT") or 5),
    }
    services_env.postgres_failover_options(DATABASES["default"])
else:
    # SQLite: wait for the writer lock instead of failing at once, and take it when a
    # transaction begins: a transaction that reads first and writes later (a DEFERRED one,
    # SQLite's default) cannot wait for the lock and fails at once with "database is locked"
    # when another connection wrote meanwhile.
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options["timeout"] = 20
    options["transaction_mode"] = "IMMEDIATE"
# DATABASE_REPLICA_URL: a standby that the reads which may lag a little go to (leaderboards,
# ratings, ladders, player pages, replays), through games.runtime.replica's router; a client
# that wrote within DATABASE_STICKY_S reads the primary (docs/deploy.md 10.3).
DATABASE_STICKY_S = float(os.environ.get("DATABASE_STICKY_S") or 10)
if os.environ.get("DATABASE_REPLICA_URL"):
    replica = services_env.database(os.environ["DATABASE_REPLICA_URL"])
    replica["CONN_MAX_AGE"] = 0
    replica.setdefault("OPTIONS", {})["pool"] = dict(DATABASES["default"]["OPTIONS"]["pool"])
    services_env.postgres_failover_options(replica)
    replica["TEST"] = {"MIRROR": "default"}
    DATABASES["replica"] = replica
    DATABASE_ROUTERS = ["games.runtime.replica.ReplicaRouter"]
DATABASES["default"].setdefault("TEST", {})
if os.environ.get("DATABASE_TEST_NAME"):
    DATABASES["default"]["TEST"]["NAME"] = os.environ["DATABASE_TEST_NAME"]

# Redis: REDIS_URL (one server), or REDIS_SENTINELS (host:port,...) with REDIS_SHARDS (the
# Sentinel master names, one per shard), which replace it. Both the channel layer and the
# game's own keys use REDIS_HOSTS (games/runtime/redis_shards.py places a key on a shard).
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_HOSTS = services_env.redis_hosts(
    REDIS_URL, os.environ.get("REDIS_SENTINELS", ""), os.environ.get("REDIS_SHARDS", "")
)
# The prefix keeps several deployments (or test runs) on one Redis apart.
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "minerace")
if REDIS_HOSTS:
    CHANNEL_LAYERS = {
        "default": {
            # channels_redis's pub/sub layer, keeping a game's fan-out in the worker that holds
            # all its sockets (games/events/local_layer.py, docs/deploy.md).
            "BACKEND": "games.events.local_layer.ColocatedChannelLayer",
            "CONFIG": {"hosts": REDIS_HOSTS, "prefix": REDIS_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "games.accounts.passwords.MaximumLengthValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# In development WhiteNoise serves straight from the apps' static folders, so a bare
# `daphne config.asgi:application` (as the browser tests start it) has its static files too.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # A year: what browsers' preload lists require, and what keeps a returning visitor on
    # HTTPS. `preload` is a promise to the lists that is hard to take back, so only a site that
    # means to join one asks for it (SECURE_HSTS_PRELOAD=1).
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]  # "not preloaded": left off on purpose

# Security headers (docs/deploy.md, "Security headers and logins"). No inline script or style
# anywhere: every page loads its code and styles from /static/, and JavaScript styles elements
# through the CSSOM (el.style.x), which CSP allows, never through style attributes.
from csp.constants import NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        # The middleware adds this host's ws:// or wss:// origin (games/edge/security_headers.py).
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Failed logins (django-axes), counted in the database so every worker sees the same numbers.
# A login is refused once its username and its client address together have this many
# failures within the cool-off (docs/protocol.md 3, v1.3): a name is locked out from the
# address that failed only, so nobody can lock another person out by typing wrong passwords
# from elsewhere (axes' own combined parameter, [["username", "ip_address"]]). Each further try
# restarts the cool-off. Logging in forgets that name's failures from that address only
# (games/accounts/auth.py).
from datetime import timedelta  # noqa: E402

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out login before any password check
    "games.accounts.auth.CaseInsensitiveModelBackend",  # "Alice" logs in as alice
]
AXES_FAILURE_LIMIT = env_int("MINERACE_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("MINERACE_LOGIN_COOLOFF_MIN", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_HANDLER = "games.accounts.auth.LoginAttemptsHandler"
# REMOTE_ADDR only: the ASGI stack makes it the client's address as the trusted proxies
# report it; never a header the client could set (X-Forwarded-For).
AXES_CLIENT_IP_CALLABLE = "games.accounts.auth.client_address"
AXES_USERNAME_CALLABLE = "games.accounts.auth.username_key"
AXES_LOCKOUT_CALLABLE = "games.accounts.auth.locked_out"
# Failures are all axes needs to keep: no record of every successful login and its address.
AXES_DISABLE_ACCESS_LOG = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Each line names its game and player when the task bound them (games/ops/logcontext.py).
    "filters": {"log_context": {"()": "games.ops.logcontext.LogContextFilter"}},
    "formatters": {
        "context": {
            "format": "%(asctime)s %(levelname)s %(name)s game=%(game)s player=%(player)s "
            "%(message)s"
        }
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["log_context"],
            "formatter": "context",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# Game settings (see docs/protocol.md and README "Configuration").
MINERACE = {
    # Spectators of a running game get at most this many frames a second, each carrying every
    # change since the last (docs/protocol.md 4: `batch`).
    "SPECTATOR_BATCH_HZ": float(os.environ.get("MINERACE_SPECTATOR_BATCH_HZ") or 4),
    # A spectator whose socket holds more than this unsent is sent nothing more until it has
    # drained, then a fresh welcome (docs/protocol.md 4: resync), instead of a growing queue.
    "SPECTATOR_BACKLOG_BYTES": env_int("MINERACE_SPECTATOR_BACKLOG_BYTES", 256 * 1024),
    # Spectators' hellos one worker handles at a time (games/play/spectator_hellos.py): the
    # rest wait their turn, so a crowd arriving does not take the threads of a race's moves.
    "SPECTATOR_HELLOS_AT_ONCE": env_int("MINERACE_SPECTATOR_HELLOS_AT_ONCE", 2),
    # A race still running after this long ends; unfinished players become dnf.
    "RACE_TIME_LIMIT_S": env_int("MINERACE_RACE_TIME_LIMIT_S", 15 * 60),
    "COUNTDOWN_MS": env_int("MINERACE_COUNTDOWN_MS", 3000),
    # How often each worker looks for races whose countdown or time limit has passed.
    "REAPER_INTERVAL_S": env_int("MINERACE_REAPER_INTERVAL_S", 5),
    # How often each worker publishes committed events the channel layer refused earlier.
    "OUTBOX_RELAY_INTERVAL_S": float(os.environ.get("MINERACE_OUTBOX_RELAY_INTERVAL_S") or 1),
    # Per-connection message rate: sustained per second, and burst.
    "WS_RATE_PER_S": env_int("MINERACE_WS_RATE_PER_S", 20),
    "WS_RATE_BURST": env_int("MINERACE_WS_RATE_BURST", 40),
    # Game creations per client address over HTTP, counted by every worker together: a
    # sustained rate per minute and a burst, so restarting with the face or F2 at human speed
    # is never refused while a script's flood is.
    "CREATE_RATE_PER_MIN": env_int("MINERACE_CREATE_RATE_PER_MIN", 180),
    "CREATE_BURST": env_int("MINERACE_CREATE_BURST", 60),
    # Per client address, over all workers: open WebSockets at once, and hellos (a sustained
    # rate per second and a burst).
    "WS_OPEN_PER_ADDRESS": env_int("MINERACE_WS_OPEN_PER_ADDRESS", 64),
    "HELLO_RATE_PER_S": float(os.environ.get("MINERACE_HELLO_RATE_PER_S") or 5),
    "HELLO_BURST": env_int("MINERACE_HELLO_BURST", 30),
    # Moves of one player over all its connections and workers (the connection rate above
    # applies to each connection as well).
    "PLAYER_MOVE_RATE_PER_S": float(os.environ.get("MINERACE_PLAYER_MOVE_RATE_PER_S") or 20),
    "PLAYER_MOVE_BURST": env_int("MINERACE_PLAYER_MOVE_BURST", 40),
    # Addresses or networks (CIDR) of the reverse proxies in front of the workers. A request
    # from one of them is attributed to the rightmost X-Forwarded-For hop that is not itself a
    # trusted proxy; from anywhere else, to its peer address, whatever it claims.
    "TRUSTED_PROXIES": [
        p.strip() for p in os.environ.get("MINERACE_TRUSTED_PROXIES", "").split(",") if p.strip()
    ],
    # Presence (docs/protocol.md 2.1): a race player offline this long leaves the lobby; not ready
    # this long after two others are, leaves it; offline this long in a running race is dnf.
    "LOBBY_IDLE_S": env_int("MINERACE_LOBBY_IDLE_S", 15),
    # A lobby's visitor counts as online this long after its last look (games.social).
    "HERE_WINDOW_S": env_int("MINERACE_HERE_WINDOW_S", 30),
    # Race lobbies one client address may hold open at once (created over the API, still in
    # the lobby); an empty one closes after LOBBY_IDLE_S, so a person never meets this.
    "LOBBIES_PER_ADDRESS": env_int("MINERACE_LOBBIES_PER_ADDRESS", 10),
    # Accounts one client address may sign up (the page and POST /api/accounts/ together, over
    # every worker), in any hour and in any 24 hours (docs/protocol.md 3, v1.3).
    "SIGNUPS_PER_HOUR": env_int("MINERACE_SIGNUPS_PER_HOUR", 3),
    "SIGNUPS_PER_DAY": env_int("MINERACE_SIGNUPS_PER_DAY", 10),
    "READY_TIMEOUT_S": env_int("MINERACE_READY_TIMEOUT_S", 30),
    "ABANDON_S": env_int("MINERACE_ABANDON_S", 30),
    # A worker renews its connections' leases this often; a lease lasts PRESENCE_TTL_S, so a
    # killed worker's players count as offline that long after its last renewal.
    "PRESENCE_INTERVAL_S": float(os.environ.get("MINERACE_PRESENCE_INTERVAL_S") or 2),
    "PRESENCE_TTL_S": float(os.environ.get("MINERACE_PRESENCE_TTL_S") or 6),
    # Seasons (docs/protocol.md 8): months per season, aligned on the UTC year (3: calendar
    # quarters); must divide 12.
    "SEASON_MONTHS": env_int("MINERACE_SEASON_MONTHS", 3),
    # Quick match: players per race.
    "MATCH_SIZE": env_int("MINERACE_MATCH_SIZE", 2),
    # A seeker alone this long races a bot near its rating instead.
    "MATCH_BOT_S": env_int("MINERACE_MATCH_BOT_S", 20),
    # A seek is paired only while its lease is fresh: its worker confirmed it alive within the
    # last MATCH_FRESH_S, the first time at least MATCH_CONFIRM_S after the seek (so a worker
    # killed right after a seek never gets its seek paired). 0: the seek itself confirms.
    "MATCH_CONFIRM_S": float(os.environ.get("MINERACE_MATCH_CONFIRM_S") or 0.5),
    "MATCH_FRESH_S": float(os.environ.get("MINERACE_MATCH_FRESH_S") or 3),
    # A matched player who has not said hello this long after the match: the race is not rated
    # (docs/protocol.md 6.2, a race nobody played).
    "MATCH_HELLO_GRACE_S": float(os.environ.get("MINERACE_MATCH_HELLO_GRACE_S") or 10),
    # Rated means played (docs/protocol.md 6.2): a racer that resigned or was dropped before this
    # many moves that changed its board aborts the race for ratings and points.
    "ABORT_MOVES": env_int("MINERACE_ABORT_MOVES", 3),
    # Between any two accounts only their first PAIR_RATED_PER_DAY rated races of a UTC day
    # change ratings, and only their first PAIR_POINTS_PER_TOURNAMENT races against each other
    # in one tournament score points; the races past that are made unrated / for no points.
    "PAIR_RATED_PER_DAY": env_int("MINERACE_PAIR_RATED_PER_DAY", 3),
    # Record keys (docs/protocol.md 9.3): a JSON list of {"key_id", "private_key" (base64url
    # Ed25519 seed; a retired key may give "public_key" alone), "valid_from", "valid_to"}.
    # Empty: no kit can be signed, and GET /api/records/keys/ lists none.
    "RECORD_KEYS": json.loads(os.environ.get("MINERACE_RECORD_KEYS") or "[]"),
    "PAIR_POINTS_PER_TOURNAMENT": env_int("MINERACE_PAIR_POINTS_PER_TOURNAMENT", 3),
    # Arena tournaments (docs/protocol.md 7): the calendar the server keeps by itself. An hourly
    # arena (rotating beginner, intermediate, expert) of ARENA_HOURLY_MINUTES, and a daily
    # no-guess expert arena at ARENA_DAILY_HOUR UTC of ARENA_DAILY_MINUTES; 0 turns one off.
    "ARENA_HOURLY_MINUTES": env_int("MINERACE_ARENA_HOURLY_MINUTES", 30),
    "ARENA_DAILY_HOUR": env_int("MINERACE_ARENA_DAILY_HOUR", 18),
    "ARENA_DAILY_MINUTES": env_int("MINERACE_ARENA_DAILY_MINUTES", 60),
    # How often each worker with tournament connections pairs, pushes standings and renews
    # its connections' leases (pairing also runs whenever a player starts waiting).
    "ARENA_PASS_S": float(os.environ.get("MINERACE_ARENA_PASS_S") or 1),
    # Processes per worker that search no-guess boards (0: in the worker's own thread).
    "BOARD_PROCESSES": env_int("MINERACE_BOARD_PROCESSES", 1),
    # Bearer token for /metrics; empty (the default) leaves /metrics a plain 404.
    "METRICS_TOKEN": os.environ.get("MINERACE_METRICS_TOKEN", ""),
    # Fair play (docs/protocol.md 6.3): where each signal of the screen of a game that counts fires.
    # pace: a win's 3BV/s above its preset's human ceiling.
    "FAIRPLAY_PACE_BEGINNER": float(os.environ.get("MINERACE_FAIRPLAY_PACE_BEGINNER") or 12),
    "FAIRPLAY_PACE_INTERMEDIATE": float(os.environ.get("MINERACE_FAIRPLAY_PACE_INTERMEDIATE") or 9),
    "FAIRPLAY_PACE_EXPERT": float(os.environ.get("MINERACE_FAIRPLAY_PACE_EXPERT") or 8),
    # reaction and metronome judge windows of intervals between moves that changed the board:
    # a game's own, topped up with the latest of the account's earlier screened games (at most
    # FAIRPLAY_WINDOW_GAMES of them). reaction: the median of the short window below
    # FAIRPLAY_REACTION_MS; metronome: a window's spread (1.4826 x MAD / median) below its floor.
    "FAIRPLAY_REACTION_MS": float(os.environ.get("MINERACE_FAIRPLAY_REACTION_MS") or 80),
    "FAIRPLAY_WINDOW_SHORT": env_int("MINERACE_FAIRPLAY_WINDOW_SHORT", 40),
    "FAIRPLAY_METRONOME_SHORT": float(os.environ.get("MINERACE_FAIRPLAY_METRONOME_SHORT") or 0.12),
    "FAIRPLAY_WINDOW_LONG": env_int("MINERACE_FAIRPLAY_WINDOW_LONG", 120),
    "FAIRPLAY_METRONOME_LONG": float(os.environ.get("MINERACE_FAIRPLAY_METRONOME_LONG") or 0.2),
    "FAIRPLAY_WINDOW_GAMES": env_int("MINERACE_FAIRPLAY_WINDOW_GAMES", 50),
    # A window that fires puts its earlier games that ended this many days ago or less under
    # review with it.
    "FAIRPLAY_WINDOW_REVIEW_DAYS": float(
        os.environ.get("MINERACE_FAIRPLAY_WINDOW_REVIEW_DAYS") or 7
    ),
    # record: a result first on its all-time leaderboard once that holds this many entries.
    "FAIRPLAY_RECORD_ENTRIES": env_int("MINERACE_FAIRPLAY_RECORD_ENTRIES", 20),
}
