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

# SQLite's test database in a file, not in memory: with an in-memory database the live
# server's thread shares the test's one connection, so a page's own timers (the table's
# heartbeat, the queue of hands) posting while the test writes through a service could
# break that connection's transaction for every later test of the process. In a file,
# each thread has its own connection and SQLite serialises the writes.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    (BASE_DIR / "var").mkdir(exist_ok=True)  # noqa: F405 (a fresh clone has no var/)
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / "test-db.sqlite3")}  # noqa: F405
