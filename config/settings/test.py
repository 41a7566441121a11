"""Settings for the test suite: the development settings (the benchmarks' tests
need their app) with a fast password hasher.

PBKDF2 is slow by design; tests create hundreds of users, and their passwords
protect nothing.
"""

from .dev import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
