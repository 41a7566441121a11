"""A bounded load test on loopback: N writers post hands while N readers read standings.

    DATABASE_URL=postgres://… manage.py loadtest --writers 20 --readers 20 \
        [--requests 50] [--seconds 60] [--workers 4] [--url http://127.0.0.1:PORT]

Without ``--url`` it prepares the configured database (migrate; a club ``loadtest``
with a season, a scorer and one four-seat sheet per writer) and starts gunicorn on
127.0.0.1 on a free port itself (``--workers`` processes), stopped at the end.
``--url`` must be a loopback address (127.0.0.1, ::1 or localhost): this command
never loads anything else. Each writer logs in as the scorer and posts up to
``--requests`` hands to its own sheet; each reader requests the season's
standings as often; everything stops after ``--seconds``. Printed: requests,
errors, throughput and p50/p95/p99 latency, for writers and readers.
"""

import http.cookiejar
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

PASSWORD = "loadtest-scorer-password"
HAND = {"dealer": "3", "taker": "0", "contract": "garde", "bouts": "2", "points": "56"}


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Command(BaseCommand):
    help = "Bounded loopback load test: N writers posting hands, N readers of the standings."

    def add_arguments(self, parser):
        parser.add_argument("--writers", type=int, default=20)
        parser.add_argument("--readers", type=int, default=20)
        parser.add_argument("--requests", type=int, default=50, help="per writer and reader")
        parser.add_argument("--seconds", type=float, default=60)
        parser.add_argument("--workers", type=int, default=4)
        parser.add_argument("--url", default="")

    def handle(self, *args, writers, readers, requests, seconds, workers, url, **options):
        writers, readers = min(writers, 100), min(readers, 100)
        requests, seconds = min(requests, 10_000), min(seconds, 600)
        server = None
        if url:
            host = urllib.parse.urlsplit(url).hostname
            if host not in ("127.0.0.1", "::1", "localhost"):
                raise CommandError("--url must be a loopback address")
            url = url.rstrip("/")
        sheets, standings = self.prepare(writers)
        if not url:
            port = _free_port()
            url = f"http://127.0.0.1:{port}"
            env = {**os.environ, "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost"}
            server = subprocess.Popen(
                [
                    os.path.join(os.path.dirname(sys.executable), "gunicorn"),
                    "config.wsgi",
                    "--workers",
                    str(workers),
                    "--bind",
                    f"127.0.0.1:{port}",
                    "--log-level",
                    "warning",
                ],
                env=env,
            )
            self.wait_for(url)
            self.warm_up(url, standings, workers)
        try:
            results = self.run_load(url, sheets, standings, writers, readers, requests, seconds)
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=30)
        self.report(results)

    def prepare(self, writers):
        """The club, season, scorer and sheets (created once, reused by later runs)."""
        from clubs.models import Club, Membership, Player, Role, Season
        from scoresheet import services

        call_command("migrate", verbosity=0)
        call_command("createcachetable", verbosity=0)
        club, _ = Club.objects.get_or_create(slug="loadtest", defaults={"name": "Load test"})
        season = club.seasons.first() or Season.objects.create(
            club=club, name="Load", start_date="2025-09-01"
        )
        user, created = get_user_model().objects.get_or_create(username="loadtest-scorer")
        user.set_password(PASSWORD)
        user.save()
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": Role.MANAGER})
        players = [
            Player.objects.get_or_create(club=club, name=n)[0]
            for n in ("Anna", "Bert", "Carl", "Dora")
        ]
        sheets = [
            services.create_sheet(season=season, players=players, date="2025-10-01")
            for _ in range(writers)
        ]
        return [f"/clubs/{club.slug}/sheets/{s.pk}/hands/new/" for s in sheets], (
            f"/clubs/{club.slug}/seasons/{season.pk}/standings/"
        )

    def wait_for(self, url):
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "/", timeout=2)
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                time.sleep(0.2)
        raise CommandError("gunicorn did not start")

    def warm_up(self, url, standings, workers):
        """A few requests per worker before the clock starts: each process imports and
        compiles its templates on its first requests, as a server long up has done."""
        for _ in range(4 * workers):
            with urllib.request.urlopen(url + standings, timeout=30) as response:
                response.read()

    def session(self, url):
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        return opener, jar

    def token(self, opener, page):
        with opener.open(page, timeout=30) as response:
            html = response.read().decode()
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)

    def run_load(self, url, sheets, standings, writers, readers, requests, seconds):
        deadline = time.monotonic() + seconds
        results = {"writers": [], "readers": [], "errors": []}
        lock = threading.Lock()

        def writer(path):
            opener, _jar = self.session(url)
            login = url + "/accounts/login/"
            data = {"username": "loadtest-scorer", "password": PASSWORD}
            data["csrfmiddlewaretoken"] = self.token(opener, login)
            opener.open(login, urllib.parse.urlencode(data).encode(), timeout=30)
            for _ in range(requests):
                if time.monotonic() > deadline:
                    break
                form = self.token(opener, url + path)
                body = urllib.parse.urlencode(
                    {**HAND, "action": "save", "csrfmiddlewaretoken": form}
                ).encode()
                started = time.perf_counter()
                try:
                    # the page it redirects to, read whole: a user waits for it too
                    with opener.open(url + path, body, timeout=60) as response:
                        response.read()
                    ok = response.status < 400
                except urllib.error.HTTPError as error:
                    ok, response = False, error
                took = time.perf_counter() - started
                with lock:
                    results["writers"].append(took)
                    if not ok:
                        results["errors"].append(("writer", response.status))

        def reader():
            opener, _jar = self.session(url)
            for _ in range(requests):
                if time.monotonic() > deadline:
                    break
                started = time.perf_counter()
                try:
                    with opener.open(url + standings, timeout=60) as response:
                        response.read()
                    ok = response.status < 400
                    status = 200
                except urllib.error.HTTPError as error:
                    ok, status = False, error.code
                took = time.perf_counter() - started
                with lock:
                    results["readers"].append(took)
                    if not ok:
                        results["errors"].append(("reader", status))

        def guarded(kind, target, *args):
            def run():
                try:
                    target(*args)
                except Exception as error:  # a timeout or a refused connection: an error
                    with lock:
                        results["errors"].append((kind, type(error).__name__))

            return run

        threads = [threading.Thread(target=guarded("writer", writer, p)) for p in sheets]
        threads += [threading.Thread(target=guarded("reader", reader)) for _ in range(readers)]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        results["elapsed"] = time.perf_counter() - started
        return results

    def report(self, results):
        elapsed = results["elapsed"]
        errors = results["errors"]
        self.stdout.write(f"\nLoad test: {elapsed:.1f} s, errors: {len(errors)} {errors[:5]}")
        for kind in ("writers", "readers"):
            times = [t * 1000 for t in results[kind]]
            if not times:
                continue
            self.stdout.write(
                f"{kind:>8}: {len(times)} requests, {len(times) / elapsed:.1f}/s, "
                f"p50 {statistics.median(times):.0f} ms, p95 {_percentile(times, 95):.0f} ms, "
                f"p99 {_percentile(times, 99):.0f} ms"
            )
        every = [t * 1000 for t in results["writers"] + results["readers"]]
        if every:
            self.stdout.write(
                f"     all: {len(every) / elapsed:.1f} requests/s, "
                f"p99 {_percentile(every, 99):.0f} ms"
            )
