"""The statistics cache is ``CACHES["stats"]``: in memory by default, Redis when the
environment gives ``REDIS_URL`` (read in a fresh process: the settings read the
environment once)."""

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.cache import caches

ROOT = Path(__file__).resolve().parents[2]


def stats_cache_setting(**environment):
    env = {
        k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_STATS_CACHE_TIMEOUT")
    }
    env.update(environment, DJANGO_SETTINGS_MODULE="config.settings.base")
    code = "import json, config.settings.base as s; print(json.dumps(s.CACHES['stats']))"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_statistics_cache_is_in_memory_by_default():
    setting = stats_cache_setting()
    assert setting["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert setting["TIMEOUT"] == 24 * 3600


def test_the_statistics_cache_is_redis_when_the_environment_names_one():
    setting = stats_cache_setting(
        REDIS_URL="redis://cache.internal:6379/2", DJANGO_STATS_CACHE_TIMEOUT="600"
    )
    assert setting["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert setting["LOCATION"] == "redis://cache.internal:6379/2"
    assert setting["TIMEOUT"] == 600


def test_the_statistics_pages_use_the_configured_alias():
    from stats import views

    assert views.CACHE in settings.CACHES
    assert caches[views.CACHE] is caches["stats"]
