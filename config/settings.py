"""Numbo's one settings module, read from the environment.

With nothing set this is the embedded default: SQLite under var/, Celery tasks
run eagerly in the web process, DEBUG on and a development secret. The README
lists every variable.
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("NUMBO_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

_DEV_SECRET = "dev-only-insecure-numbo-secret-key-never-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not DEBUG and (not SECRET_KEY or SECRET_KEY == _DEV_SECRET or len(SECRET_KEY) < 50):
    raise ImproperlyConfigured(
        "Production mode (DEBUG off) needs SECRET_KEY: a random value of 50 characters or more."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "classroom",
    "games",
    "school",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "classroom.middleware.PupilMiddleware",
    "classroom.devices.DeviceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.errors.MethodNotAllowedPage",
]

ROOT_URLCONF = "config.urls"
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Each game's page package keeps its templates (games/pages/<slug>/templates).
        "DIRS": [BASE_DIR / "templates", *sorted(BASE_DIR.glob("games/pages/*/templates"))],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "classroom.context_processors.pupil",
            ],
        },
    },
]

# Database: SQLite under var/ unless DATABASE_URL names a server.
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
    # A web process asks the same few statements hundreds of times a minute
    # (a poll's table read, a move's write): psycopg prepares each after its
    # fifth run on a connection, and PostgreSQL stops parsing and planning it
    # again (a fifth of its CPU at 1,000 pupils, tests/bench/results_load.txt).
    # Off behind a pooler that cannot keep prepared statements (PgBouncer
    # before 1.21).
    if env_bool("DATABASE_PREPARED_STATEMENTS", True):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=5
        )
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "numbo.sqlite3",
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            # The tests' database is a file too, not SQLite's in-memory one: Django's
            # test server hands every request thread one shared in-memory connection,
            # and two tablets' requests at once broke it ("cannot open savepoint - SQL
            # statements in progress"), which `make run` (a connection a thread) never
            # does. On a file, the browser tests run the embedded default as it is.
            # One a test run (its process id): two runs side by side must not share it.
            "TEST": {"NAME": VAR_DIR / f"test_numbo_{os.getpid()}.sqlite3"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis is the cache and the Celery broker when REDIS_URL is set; nothing is
# kept in process memory, so web processes scale out.
REDIS_URL = os.environ.get("REDIS_URL", "")
# Where tablets open their event streams (games.push): empty for the same site,
# which a proxy routes to the push service (/tables/<id>/events/), or that
# service's own origin, e.g. https://push.numbo.school.example.
PUSH_URL = os.environ.get("PUSH_URL", "").rstrip("/")
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's, with one Redis client object per process (a session read
            # every request built a new one).
            "BACKEND": "classroom.redis_store.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "numbo"),
        }
    }
elif DEBUG:
    # The embedded default serves from one process (runserver, or a test run
    # with its live server in a thread): memory is enough, and two test runs
    # side by side do not clear each other's poll versions.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    # Several processes without Redis share the cache through files.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": VAR_DIR / "cache",
        }
    }

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker killed mid-task (acks late) leaves its message unacknowledged: the
# other workers hand it out again once it is this many seconds old. It must be
# longer than any task runs, or a task still running is handed out twice.
_VISIBILITY_TIMEOUT = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _VISIBILITY_TIMEOUT,
    # How often the workers look for such messages (kombu's default, ~100 s,
    # would outlast a short timeout): a cheap scan of one sorted set.
    "unacked_restore_interval": max(1, min(10, _VISIBILITY_TIMEOUT // 10)),
    "unacked_restore_throttle": 1,
}
CELERY_TASK_IGNORE_RESULT = False
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "Europe/Paris"
CELERY_BEAT_SCHEDULE = {
    "nightly-skill-reports": {
        "task": "classroom.tasks.nightly_recompute",
        "schedule": crontab(hour=2, minute=30),
    },
    # Computer players move on their own schedule (games.tasks); this sweep
    # only catches a schedule lost with a broker restart.
    "overdue-server-moves": {
        "task": "games.tasks.advance_overdue_tables",
        "schedule": 30.0,
    },
    # Pupils who left the school, erased once their school's days are over
    # (school.leavers); `manage.py erase_leavers` does the same from cron.
    "erase-leavers": {
        "task": "school.tasks.erase_leavers",
        "schedule": crontab(hour=3, minute=15),
    },
}

AUTH_USER_MODEL = "classroom.Teacher"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "classroom:class_list"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Numbo <numbo@localhost>")

SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 14
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# Numbo's own limits.
# Anyone who reaches the server may sign up as a teacher (the e-mailed link of
# classroom.views.accounts): on in debug; in production a school's teachers
# join by invitation (school.invitations) unless NUMBO_OPEN_SIGN_UP=1.
NUMBO_OPEN_SIGN_UP = env_bool("NUMBO_OPEN_SIGN_UP", DEBUG)

NUMBO = {
    "PASTE_MAX_PUPILS": 60,
    "PASTE_MAX_CHARS": 4000,
    # Wrong picture passwords before a device is locked out of that pupil's
    # sign-in, and, from all devices together (a script renewing its device
    # cookie), before the pupil is: 20 of 1,320 passwords per lock.
    "PICTURE_PASSWORD_TRIES_PER_DEVICE": 5,
    "PICTURE_PASSWORD_TRIES_PER_PUPIL": 20,
    "PICTURE_PASSWORD_LOCK_MINUTES": 10,
    # The pupil's locks grow: 10, then 20 minutes, and the third holds until
    # the teacher unlocks: 60 guesses of 1,320 at most before they see it.
    "PICTURE_PASSWORD_LOCKS_BEFORE_HOLD": 3,
    "CLASS_CODE_TRIES_PER_DEVICE": 10,
    "CLASS_CODE_TRIES_PER_ADDRESS": 200,
    "CLASS_CODE_WINDOW_SECONDS": 600,
    "TEACHER_SIGN_IN_TRIES_PER_ACCOUNT": 10,
    "TEACHER_SIGN_IN_TRIES_PER_ADDRESS": 50,
    "TEACHER_SIGN_IN_WINDOW_SECONDS": 900,
    # E-mails asked for (password resets, sign-ups) per address typed, and
    # from one client address: an hour's worth.
    "EMAILS_PER_ACCOUNT": 3,
    "EMAILS_PER_CLIENT_ADDRESS": 20,
    "EMAILS_WINDOW_SECONDS": 3600,
    # Open sign-ups asked from one client address: a school behind one
    # address signs its 30 teachers up in a morning; a script stops at 60.
    "SIGN_UPS_PER_CLIENT_ADDRESS": 60,
    "SIGN_UPS_WINDOW_SECONDS": 6 * 3600,
    # School codes typed on the "join your school" page, per client address:
    # a staff room behind one address joins in a morning, a guessing script stops.
    "SCHOOL_CODE_TRIES_PER_ADDRESS": 60,
    "SCHOOL_CODE_WINDOW_SECONDS": 3600,
    # Reverse proxies in front of gunicorn that append X-Forwarded-For (0: none,
    # REMOTE_ADDR is the client). Too high lets a client forge its address.
    "TRUSTED_PROXIES": int(os.environ.get("NUMBO_TRUSTED_PROXIES", "0")),
}

# Teachers' single sign-on (OpenID Connect): django-allauth's socialaccount flow
# only. Numbo's own sign-in, sign-up and password pages stay Numbo's: allauth's
# account URLs are not mounted and its authentication backend is not used; a
# provider's sign-in ends in an existing teacher's account or in a refusal
# (school.sso_adapter). Providers come from the environment (config.sso, README).
from config.sso import apps_from_environ  # noqa: E402

INSTALLED_APPS += [
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
]
# allauth refuses to start without it (its flow's context): no query, a few µs a
# request (tests/bench/bench_account_middleware.py).
MIDDLEWARE += ["allauth.account.middleware.AccountMiddleware"]
SOCIALACCOUNT_PROVIDERS = {
    "openid_connect": {
        "provider_class": "school.sso_provider.SchoolOpenIDConnectProvider",
        "APPS": apps_from_environ(os.environ),
    }
}
SOCIALACCOUNT_ADAPTER = "school.sso_adapter.SocialAccountAdapter"
ACCOUNT_ADAPTER = "school.sso_adapter.AccountAdapter"
SOCIALACCOUNT_AUTO_SIGNUP = False
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False
SOCIALACCOUNT_EMAIL_VERIFICATION = "none"
SOCIALACCOUNT_STORE_TOKENS = False
SOCIALACCOUNT_LOGIN_ON_GET = False
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*"]
ACCOUNT_EMAIL_VERIFICATION = "none"
SOCIALACCOUNT_OPENID_CONNECT_URL_PREFIX = "oidc"
