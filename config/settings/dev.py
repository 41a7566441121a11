"""Settings on a developer's machine (``manage.py``'s default): debug on, a
development secret key unless one is given, the benchmark commands."""

import os

from .base import *  # noqa: F403
from .base import INSTALLED_APPS, env_list

DEBUG = True
SECRET_KEY = os.environ.get(
    "DJANGO_SECRET_KEY", "django-insecure-development-only-key-not-for-production-use-000"
)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost")

# manage.py bench_*: development tools, not shipped (not in the wheel, nor in production)
INSTALLED_APPS = [*INSTALLED_APPS, "benchmarks"]
