"""Settings for the test suite: the development settings (the benchmarks' tests
need their app) with a fast password hasher.

PBKDF2 is slow by design; tests create hundreds of users, and their passwords
protect nothing.
"""

from .dev import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Background tasks run at once, in the request that queues them (a test of the
# database queue, tests/transfer/test_jobs.py, switches to it and runs the worker)
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
FILES_DIR = BASE_DIR / "var" / "test-files"  # noqa: F405
