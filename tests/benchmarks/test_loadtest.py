"""manage.py loadtest: the parts that need no server (gunicorn is never started here)."""

import http.cookiejar
import math
import os
import statistics
import urllib.request
from itertools import islice

import pytest
from django.core.management import CommandError, call_command

from benchmarks.management.commands import loadtest


@pytest.mark.parametrize(
    "url", ["http://example.org", "http://10.0.0.1:8000", "http://127.0.0.1.example.org/"]
)
def test_refuses_anything_but_loopback(url):
    # refused before anything is read or written (no database here)
    with pytest.raises(CommandError, match="loopback"):
        call_command("loadtest", "--url", url, "--seconds", "1")


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8000/", "http://localhost:8000", "http://[::1]:8000/"]
)
def test_loopback_urls_pass_without_their_slash(url):
    assert loadtest.check_loopback(url) == url.rstrip("/")


def test_refuses_a_negative_think_time():
    with pytest.raises(CommandError, match="--think"):
        call_command("loadtest", "--url", "http://127.0.0.1:1", "--think", "-1")


def test_think_times_are_reproducible_per_user_and_exponential():
    first = list(islice(loadtest.think_times(1.5, seed=7, user=3), 2000))
    assert first == list(islice(loadtest.think_times(1.5, seed=7, user=3), 2000))
    other = list(islice(loadtest.think_times(1.5, seed=7, user=4), 2000))
    assert other != first  # users do not think in step
    assert all(t >= 0 for t in first)
    # exponential: mean 1.5 s, median 1.5 × ln 2
    assert statistics.fmean(first) == pytest.approx(1.5, rel=0.1)
    assert statistics.median(first) == pytest.approx(1.5 * math.log(2), rel=0.1)


def test_no_think_time_is_zero():
    assert list(islice(loadtest.think_times(0, seed=1, user=0), 5)) == [0.0] * 5


def test_percentile_nearest_rank():
    values = list(range(1, 101))  # 1..100
    assert loadtest.percentile(values, 50) == 51
    assert loadtest.percentile(values, 99) == 99
    assert loadtest.percentile(values, 100) == 100
    assert loadtest.percentile([5, 1, 3], 0) == 1
    assert loadtest.percentile([42], 99) == 42
    assert math.isnan(loadtest.percentile([], 99))


def test_offered_load():
    assert loadtest.offered_load(20, 20, 0) is None  # a closed loop: unbounded
    # a writer: form, post and sheet page per think; a reader: a page per think
    assert loadtest.offered_load(20, 10, 2.0) == {"writers": 30.0, "readers": 5.0}


def test_the_server_runs_with_debug_off_and_its_own_secret(tmp_path):
    command = loadtest.Command()
    env = command.server_env(str(tmp_path))
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    assert env["DATABASE_URL"]
    assert len(env["DJANGO_SECRET_KEY"]) >= 50
    assert env["DJANGO_SECRET_KEY"] != command.server_env(str(tmp_path))["DJANGO_SECRET_KEY"]
    assert env["DJANGO_STATIC_ROOT"] == str(tmp_path)
    # nothing else changes: the SSL redirect, secure cookies and HSTS stay on
    changed = {name for name, value in env.items() if os.environ.get(name) != value}
    assert changed <= {
        "DJANGO_SETTINGS_MODULE",
        "DATABASE_URL",
        "DJANGO_SECRET_KEY",
        "DJANGO_ALLOWED_HOSTS",
        "DJANGO_STATIC_ROOT",
    }


def test_clients_keep_secure_cookies_and_say_https():
    opener = loadtest.Command().session()
    assert ("X-Forwarded-Proto", "https") in opener.addheaders
    [processor] = [h for h in opener.handlers if hasattr(h, "cookiejar")]
    jar = processor.cookiejar
    cookie = http.cookiejar.Cookie(
        0, "sessionid", "abc", None, False, "127.0.0.1", False, False, "/", True,
        True, None, False, None, None, {},
    )  # fmt: skip
    jar.set_cookie(cookie)
    request = urllib.request.Request("http://127.0.0.1:8000/clubs/")
    jar.add_cookie_header(request)
    assert request.get_header("Cookie") == "sessionid=abc"


def test_hidden_field_value():
    html = '<input type="hidden" name="idempotency_key" value="k-1_2">'
    assert loadtest._hidden(html, "idempotency_key") == "k-1_2"
    with pytest.raises(CommandError):
        loadtest._hidden(html, "csrfmiddlewaretoken")


def test_cpu_meter_reads_this_process_and_the_machine():
    meter = loadtest.CpuMeter(None)
    before = meter.read()
    sum(i * i for i in range(200_000))  # some CPU
    spent = meter.spent(before)
    assert spent["client"] > 0
    assert "server" not in spent  # no gunicorn
    if "busy" in spent:  # Linux
        assert 0 <= spent["busy"] <= 1
