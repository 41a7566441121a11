"""Settings of a production host (``config.wsgi``'s default): debug off, every
secret and address from the environment, the secure settings on.

Required: ``DJANGO_SECRET_KEY``, ``DJANGO_ALLOWED_HOSTS``, ``DATABASE_URL`` and
``DJANGO_STATIC_ROOT`` (the settings refuse to load without them); the others
have defaults (README).
``manage.py check --deploy`` reports no issue under these settings.
"""

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import MIDDLEWARE, database, env_bool, env_list


def required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"{name} must be set in production")
    return value


DEBUG = False
SECRET_KEY = required("DJANGO_SECRET_KEY")
required("DJANGO_ALLOWED_HOSTS")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
DATABASES = {"default": database(required("DATABASE_URL"))}
# where collectstatic writes and WhiteNoise serves from (not inside the installed code)
STATIC_ROOT = Path(required("DJANGO_STATIC_ROOT"))

# hashed, compressed static files served by WhiteNoise after collectstatic
MIDDLEWARE = [MIDDLEWARE[0], "whitenoise.middleware.WhiteNoiseMiddleware", *MIDDLEWARE[1:]]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SECURE = True
X_FRAME_OPTIONS = "DENY"
