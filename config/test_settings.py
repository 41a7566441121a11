"""Settings for the test suite: the project's settings with a fast password hasher.

PBKDF2 is slow by design; tests create hundreds of users, and their passwords
protect nothing.
"""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
