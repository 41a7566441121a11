"""Settings for Tarot Ledger shared by every environment.

One module per environment builds on this one (``DJANGO_SETTINGS_MODULE``):
``config.settings.dev`` (``manage.py``'s default: debug on, the benchmarks),
``config.settings.production`` (``config.wsgi``'s default: everything from the
environment, the secure settings) and ``config.settings.test`` (the suite).
Values a host may change come from the environment (see the README).
"""

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

#: The source tree (development: the SQLite file, the collected static files).
BASE_DIR = Path(__file__).resolve().parent.parent.parent
#: The project's templates, static files and translations, found the same way from
#: the source tree and from an installed wheel: ``config/templates``, ``config/static``
#: and ``config/locale`` are links to the top-level folders in the source tree, and
#: package data of ``config`` in the wheel (``pyproject.toml``).
DATA_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.forms",  # its widget templates, for FORM_RENDERER
    "django_tables2",
    "django_filters",
    "axes",
    "django_tasks",  # background work (transfer.tasks): django.tasks' backport
    "django_tasks_db",  # its queue in the database: no other service to run
    "core",
    "scoresheet",
    "clubs",
    "ratings",  # players' ratings (Weng–Lin, as openskill), kept on write
    "clubhouse",  # the club's home, players (merges) and history pages
    "standings",
    "stats",
    "tournaments",
    "transfer",  # data in and out: upload, season exports, a club's backup
    "leagues",  # clubs together: persons across clubs, league events, the league ranking
    "competitions",  # team competitions: divisions, cups, team matches
    "ninja",  # django-ninja's Swagger UI files (the API's docs page: no CDN)
    "api",  # the JSON API (/api/v1/), on django-ninja
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "core.middleware.SecurityHeadersMiddleware",  # Content-Security-Policy, Permissions-Policy
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "core.middleware.RejectNulMiddleware",  # 400 for a NUL in a query or form
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # last, as django-axes asks: it turns a locked-out login into a 429 page
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
# Forms render through the project's template engine: Django's own widget templates
# ("django.forms" in INSTALLED_APPS), any of which templates/django/forms/ may override.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [DATA_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubs.context_processors.nav_club",
                "config.guide.help_link",
            ],
        },
    },
]


def database(url: str) -> dict:
    """The default database of ``url``: persistent connections on PostgreSQL by
    default (a connection costs a few milliseconds a request otherwise), checked
    before reuse; SQLite opens a file."""
    max_age = "60" if url.startswith(("postgres", "pgsql")) else "0"
    found = dj_database_url.parse(
        url,
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", max_age)),
        conn_health_checks=True,
    )
    if found["ENGINE"] == "django.db.backends.sqlite3":
        # Write transactions take SQLite's write lock when they begin: a deferred one
        # that reads first and writes later cannot wait for the lock (SQLite answers
        # "database is locked" at once to avoid a deadlock), and the table phones, the
        # background worker and the server write at the same moments.
        # WAL: a reader never blocks a writer nor the other way round, so a backup read
        # in one snapshot (``transfer.backup.snapshot``) does not hold the hand posts
        # back (in the default rollback journal they waited for it, then failed).
        found.setdefault("OPTIONS", {}).update(
            {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL;",
            }
        )
    if os.environ.get("DJANGO_TEST_DB_NAME"):  # lets two test runs share one PostgreSQL server
        found["TEST"] = {"NAME": os.environ["DJANGO_TEST_DB_NAME"]}
    return found


# A SQLite file beside the code unless DATABASE_URL says otherwise (production
# requires it: ``config.settings.production``).
DATABASES = {
    "default": database(os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "config.auth.ThrottledLoginBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Five failed logins for one username from one address lock them out for an hour;
# config.accounts adds a limit per address across usernames, and limits on the
# password change, password reset and invitation pages (core.throttle).
AXES_FAILURE_LIMIT = int(os.environ.get("DJANGO_LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 1
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# The client's address: with N reverse proxies in front, the N-th entry from the
# right of X-Forwarded-For; with none, REMOTE_ADDR (the header is ignored, so a
# client cannot forge it). One function for axes and the other limits.
PROXY_COUNT = int(os.environ.get("DJANGO_PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "core.throttle.client_address"

# The throttles' counters: a database table shared by every worker process
# (`manage.py createcachetable` makes it; the test database gets it by itself).
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "tarot_cache",
    }
}

# The statistics pages' figures (stats.views), keyed by the seasons' revisions so a
# write makes them stale by itself: in each process's memory by default; with
# REDIS_URL (e.g. redis://127.0.0.1:6379/0) in Redis, shared by every worker
# (needs the `redis` package). DJANGO_STATS_CACHE_TIMEOUT: seconds an entry lives.
STATS_CACHE_OPTIONS = {
    "TIMEOUT": int(os.environ.get("DJANGO_STATS_CACHE_TIMEOUT", str(24 * 3600))),
    "KEY_PREFIX": "tarot-stats",
}
if os.environ.get("REDIS_URL"):
    CACHES["stats"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ["REDIS_URL"],
        **STATS_CACHE_OPTIONS,
    }
else:
    CACHES["stats"] = {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "tarot-stats",
        "OPTIONS": {"MAX_ENTRIES": 400},
        **STATS_CACHE_OPTIONS,
    }

# The JSON API (api.auth): requests a minute per personal token, past which it answers 429.
API_RATE = int(os.environ.get("DJANGO_API_RATE", "600"))

# Background work (backups, restores, season exports, large uploads: transfer.jobs)
# queued in the database and run by `manage.py db_worker` (`make run` and
# `make serve` start one beside the web server). DJANGO_FILES_DIR: where the files
# it writes are kept; DJANGO_JOB_FILES_DAYS: days a finished job's file stays there to
# download (``transfer.jobs.prune``, run when a job starts and by `manage.py prune_jobs`).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
FILES_DIR = Path(os.environ.get("DJANGO_FILES_DIR") or BASE_DIR / "var" / "files")
JOB_FILES_DAYS = int(os.environ.get("DJANGO_JOB_FILES_DAYS", "7"))
# A re-rating of more hands than this (a correction far back, an import, a restore)
# runs in the background (``ratings.keeping.rerate_or_defer``) instead of in the
# write's request. DJANGO_RATINGS_BACKGROUND_HANDS.
RATINGS_BACKGROUND_HANDS = int(os.environ.get("DJANGO_RATINGS_BACKGROUND_HANDS", "20000"))
# A running job's worker writes a heartbeat every DJANGO_JOB_HEARTBEAT_SECONDS; a job
# whose heartbeat is DJANGO_JOB_STALE_SECONDS old (its worker killed, its machine
# restarted) is failed, saying so, and may be started again (``transfer.jobs.reap``).
JOB_HEARTBEAT_SECONDS = float(os.environ.get("DJANGO_JOB_HEARTBEAT_SECONDS", "10"))
JOB_STALE_SECONDS = float(os.environ.get("DJANGO_JOB_STALE_SECONDS", "120"))
# A direct download link (a season's JSON Lines, CSV or Excel, the club's backup) is
# answered in the request only up to this many hands (the season's; the club's for a
# backup); above it the link starts the background job (or the one already running)
# and shows its progress (``transfer.views``). The default is measured with
# ``bench_backup`` (benchmarks/HISTORY.md): the slowest of the four, the backup, ends
# well inside gunicorn's 60-second timeout on a loaded machine, its sending included.
DOWNLOAD_MAX_HANDS = int(os.environ.get("DJANGO_DOWNLOAD_MAX_HANDS", "10000"))

# Getting started without a shell (README): visitors may create a login, confirmed
# by a link mailed to them; logged-in users may create a club, which they then
# manage. Both off by default (clubs.accounts).
ALLOW_SIGNUP = env_bool("DJANGO_ALLOW_SIGNUP", False)
ALLOW_CLUB_CREATION = env_bool("DJANGO_ALLOW_CLUB_CREATION", False)
# paths whose refusals by the middleware are JSON in the API's shape (core.middleware)
JSON_ERROR_PATHS = ("/api/",)
# Logged-in users may create a league, which they then manage (a superuser always may).
ALLOW_LEAGUE_CREATION = env_bool("DJANGO_ALLOW_LEAGUE_CREATION", False)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The language cookie: no script reads it, and it goes to this site only.
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [DATA_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [DATA_DIR / "static"]
# where collectstatic writes (the load test collects into a temporary directory)
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")

EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "tarot-ledger@localhost")

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
