"""The test settings' former name: ``config.settings.test``."""

from config.settings.test import *  # noqa: F403
