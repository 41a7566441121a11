"""A bounded load test on loopback: N writers enter hands while N readers read the standings.

    DATABASE_URL=postgres://… manage.py loadtest [--writers 20] [--readers 20] \
        [--think 1 [0 0.5 …]] [--seconds 60] [--requests 1000] [--workers 4] [--seed 1] \
        [--url http://127.0.0.1:PORT]

It prepares the configured database (migrate; a club ``loadtest`` with a season
and a scorer; a ``--url`` server must use the same one) and, without ``--url``,
starts gunicorn on 127.0.0.1 on a free port itself (``--workers`` processes),
stopped at the end. The server is a production one
whatever the caller's environment: ``config.settings.production``, a random
``DJANGO_SECRET_KEY`` for the run, the static files collected into a temporary
directory (``DJANGO_STATIC_ROOT``) for WhiteNoise. Its security settings are left
as they are (SSL redirect, secure cookies, HSTS): the clients speak as a browser
behind the TLS proxy of a real deployment does, each request carrying
``X-Forwarded-Proto: https`` (``SECURE_PROXY_SSL_HEADER``) and each post its
``Referer``, and they keep secure cookies on loopback, as browsers do for a
local address. ``--url`` must be a loopback address (127.0.0.1, ::1 or localhost):
this command never loads anything else.

Each writer logs in as the scorer (before the clock starts, as at the start of an
evening) and, on a new four-seat sheet of its own, enters hands as a scorer does:
it opens the hand form (``form``), thinks, then saves the hand (with the form's
CSRF token and idempotency key) and reads the sheet page the save redirects to
(``save``: both, the user waits for both). Each reader reads the season's
standings (``standings``) anonymously, then thinks. Think times are exponential
with mean ``--think`` seconds, from an RNG seeded with ``--seed`` and the user's
number (reproducible); users start after a first think, so they do not all start
at once. ``--think 0`` is a closed loop without think time: the saturation
figures. Several ``--think`` values run one after the other against the same
server, each on new sheets. Each writer enters at most ``--requests`` hands and
each reader reads at most as many times; every run stops after ``--seconds``.

Printed per run: the offered load (the request rate the users would make if the
server answered at once), errors (an HTTP error, a timeout, or a save that did not
reach the sheet page), per kind of request and per role (writers: form and save;
readers) the count, rate and p50/p95/p99/max latency, the CPU per HTTP request of
gunicorn's workers and of the clients and how busy the machine was; then the
hands the database holds against the saves answered.

Why one second of think time by default: a scorer fills the hand form in tens of
seconds and a hand of Tarot lasts minutes; a reader refreshes the standings every
few seconds. A mean of 1 s makes each of 20 tables enter a hand about every
second or so (a hundred times real play and more) and each of 20 readers reload every second or
so: demanding, yet a load of people. With no think time the clients are limited
only by the server: 40 users each always waiting on it. Little's law then sets
the mean wait: 40 / throughput. On 2 cores, at some 16–17 ms of gunicorn CPU per
request (the figure printed) plus about 1 ms for the client and a few for
PostgreSQL, the machine serves about 100 requests/s, so a request waits some
400 ms on average and a save (two requests) about 800 ms: a save's p99 under
500 ms would take about 250 requests/s, some 8 ms of CPU per request in all.
``--think 0 0.5 1 2`` prints the saturation figures and the sweep.
"""

import http.cookiejar
import os
import random
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club, Membership, Player, Role, Season
from scoresheet import services
from scoresheet.models import Hand

PASSWORD = "loadtest-scorer-password"
HAND = {"dealer": "3", "taker": "0", "contract": "garde", "bouts": "2", "points": "56"}
LOOPBACK = ("127.0.0.1", "::1", "localhost")
#: What each user's requests are timed as, by role.
KINDS = {"writers": ("form", "save"), "readers": ("standings",)}
#: HTTP requests per operation of each kind (a save is the post and the sheet page).
HTTP_REQUESTS = {"form": 1, "save": 2, "standings": 1}


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, p):
    """The ``p``-th percentile of ``values``: the sorted value at the rounded index
    p·(n−1) (halves to even, as ``round``); NaN if none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def think_times(mean, seed, user):
    """User ``user``'s think times (seconds): exponential with mean ``mean``, from an RNG
    of its own seeded by ``seed`` and ``user`` (the same run, the same waits); all 0 for
    ``mean`` 0."""
    rng = random.Random(f"{seed}:{user}")
    while True:
        yield rng.expovariate(1 / mean) if mean > 0 else 0.0


def check_loopback(url):
    """``url`` without its trailing slash; CommandError unless it is on loopback."""
    host = urllib.parse.urlsplit(url).hostname
    if host not in LOOPBACK:
        raise CommandError("--url must be a loopback address (127.0.0.1, ::1 or localhost)")
    return url.rstrip("/")


def offered_load(writers, readers, think):
    """HTTP requests per second the users would make if every answer were instant
    (None: unbounded, no think time): a writer makes those of a form and a save
    (3: form, post, sheet page) per think, a reader those of the standings (1)."""
    if think <= 0:
        return None
    per_think = {role: sum(HTTP_REQUESTS[kind] for kind in KINDS[role]) for role in KINDS}
    return {
        "writers": writers * per_think["writers"] / think,
        "readers": readers * per_think["readers"] / think,
    }


class _LoopbackCookies(http.cookiejar.DefaultCookiePolicy):
    """Secure cookies kept and sent over plain HTTP, as browsers do for a loopback
    address (the server thinks it is behind a TLS proxy: ``X-Forwarded-Proto``)."""

    def __init__(self):
        super().__init__(secure_protocols=("https", "wss", "http"))


class Command(BaseCommand):
    help = "Bounded loopback load test: N writers entering hands, N readers of the standings."

    def add_arguments(self, parser):
        parser.add_argument("--writers", type=int, default=20)
        parser.add_argument("--readers", type=int, default=20)
        parser.add_argument(
            "--think",
            type=float,
            nargs="+",
            default=[1.0],
            help="mean think time per user between operations, seconds (0: none); "
            "several values: one run each",
        )
        parser.add_argument(
            "--requests", type=int, default=1000, help="hands per writer, reads per reader, at most"
        )
        parser.add_argument("--seconds", type=float, default=60, help="per run")
        parser.add_argument("--workers", type=int, default=4)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--url", default="")

    def handle(self, *args, writers, readers, think, requests, seconds, workers, seed, url, **o):
        writers, readers = min(writers, 100), min(readers, 100)
        requests, seconds = min(requests, 10_000), min(seconds, 600)
        if writers < 0 or readers < 0 or writers + readers == 0:
            raise CommandError("--writers and --readers: one user at least, none negative")
        if any(t < 0 or t > 600 for t in think):
            raise CommandError("--think must be between 0 and 600 seconds")
        if url:
            url = check_loopback(url)
        standings = self.prepare()
        with tempfile.TemporaryDirectory(prefix="loadtest-static-") as static_root:
            server = None
            if not url:
                url, server = self.start_server(workers, static_root)
            try:
                for mean in think:
                    sheets = self.new_sheets(writers)
                    self.warm_up(url, sheets[:1], standings, workers if server else 2)
                    load = os.getloadavg()
                    meter = CpuMeter(server.pid if server else None)
                    results = self.run_load(
                        url, sheets, standings, readers, requests, seconds, mean, seed, meter
                    )
                    results["load"] = load
                    self.report(results, writers, readers, mean, workers if server else None)
                    self.check_saved(sheets, results)
            finally:
                if server is not None:
                    server.terminate()
                    server.wait(timeout=30)

    # ------------------------------------------------------------ set-up

    def prepare(self):
        """The club, season and scorer (created once, reused by later runs); the
        standings' path."""
        call_command("migrate", verbosity=0)
        call_command("createcachetable", verbosity=0)
        club, _ = Club.objects.get_or_create(slug="loadtest", defaults={"name": "Load test"})
        season = club.seasons.first() or Season.objects.create(
            club=club, name="Load", start_date="2025-09-01"
        )
        user, _ = get_user_model().objects.get_or_create(username="loadtest-scorer")
        user.set_password(PASSWORD)
        user.save()
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": Role.MANAGER})
        for name in ("Anna", "Bert", "Carl", "Dora"):
            Player.objects.get_or_create(club=club, name=name)
        self.club, self.season = club, season
        return f"/clubs/{club.slug}/seasons/{season.pk}/standings/"

    def new_sheets(self, writers):
        """A new four-seat sheet per writer: every run starts from empty sheets."""
        players = list(
            Player.objects.filter(
                club=self.club, name__in=("Anna", "Bert", "Carl", "Dora")
            ).order_by("name")
        )
        sheets = [
            services.create_sheet(season=self.season, players=players, date="2025-10-01")
            for _ in range(writers)
        ]
        return [(s.pk, f"/clubs/{self.club.slug}/sheets/{s.pk}/hands/new/") for s in sheets]

    def server_env(self, static_root):
        """The caller's environment (the database…) as a production server's."""
        return {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            # production asks for the database: the one this command prepared
            "DATABASE_URL": os.environ.get("DATABASE_URL")
            or f"sqlite:///{settings.DATABASES['default']['NAME']}",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_STATIC_ROOT": static_root,
        }

    def start_server(self, workers, static_root):
        env = self.server_env(static_root)
        base = str(settings.BASE_DIR)
        subprocess.run(
            [sys.executable, "-m", "django", "collectstatic", "--noinput", "-v", "0"],
            env=env,
            cwd=base,
            check=True,
        )
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
        server = subprocess.Popen(
            [gunicorn, "config.wsgi", "--workers", str(workers)]
            + ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
            env=env,
            cwd=base,
        )
        try:
            self.wait_for(url)
        except BaseException:
            server.terminate()
            server.wait(timeout=30)
            raise
        return url, server

    def wait_for(self, url):
        opener = self.session()
        for _ in range(150):
            try:
                with opener.open(url + "/", timeout=2) as response:
                    response.read()
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                time.sleep(0.2)
        raise CommandError("gunicorn did not start")

    def warm_up(self, url, sheets, standings, workers):
        """A few requests of each page per worker before the clock starts: each process
        imports and compiles its templates on its first requests, as a server long up
        has done. ``sheets``: a writer's sheet, or none (no writers)."""
        opener = self.session()
        pages = [url + standings]
        if sheets:
            self.log_in(opener, url)
            form = sheets[0][1]
            pages += [url + form, url + form.rsplit("hands/", 1)[0]]
        for _ in range(3 * workers):
            for page in pages:
                with opener.open(page, timeout=30) as response:
                    response.read()

    # ------------------------------------------------------------ the users

    def session(self):
        """A browser: its cookies (secure ones kept on loopback), behind a TLS proxy."""
        jar = http.cookiejar.CookieJar(policy=_LoopbackCookies())
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.addheaders = [("X-Forwarded-Proto", "https"), ("User-Agent", "loadtest")]
        return opener

    def post(self, opener, page, data):
        referer = "https" + page[len("http") :]  # as the proxy passed the page on
        request = urllib.request.Request(
            page, urllib.parse.urlencode(data).encode(), headers={"Referer": referer}
        )
        return opener.open(request, timeout=60)

    def log_in(self, opener, url):
        login = url + "/accounts/login/"
        with opener.open(login, timeout=30) as response:
            token = _hidden(response.read().decode(), "csrfmiddlewaretoken")
        data = {"username": "loadtest-scorer", "password": PASSWORD, "csrfmiddlewaretoken": token}
        with self.post(opener, login, data) as response:
            response.read()
            if response.geturl().endswith("/accounts/login/"):
                raise CommandError("the load test's scorer could not log in")

    def run_load(self, url, sheets, standings, readers, requests, seconds, think, seed, meter):
        results = {"times": {kind: [] for kind in HTTP_REQUESTS}, "errors": [], "saved": 0}
        lock = threading.Lock()
        # the scorers log in before the clock starts, as at the start of an evening (a
        # login hashes the password on purpose slowly: twenty at once hold the server
        # for seconds, which is no steady state)
        openers = [self.session() for _sheet in sheets]
        for opener in openers:
            self.log_in(opener, url)
        deadline = time.monotonic() + seconds

        def wait(thinking):
            pause = min(next(thinking), deadline - time.monotonic())
            if pause > 0:
                time.sleep(pause)

        def timed(kind, *page):
            """Fetch ``page`` (``fetch``'s arguments), timed as ``kind``: its answer or None."""
            started = time.perf_counter()
            try:
                answer = fetch(*page)
            except urllib.error.HTTPError as error:
                error.read()
                answer, problem = None, error.code
            except OSError as error:  # a refused connection, a timeout
                answer, problem = None, type(error).__name__
            took = time.perf_counter() - started
            with lock:
                results["times"][kind].append(took)
                if answer is None:
                    results["errors"].append((kind, problem))
            return answer

        def fetch(opener, page, data=None):
            response = self.post(opener, page, data) if data else opener.open(page, timeout=60)
            with response:
                return response.geturl(), response.read().decode()

        def writer(number, path, opener):
            thinking = think_times(think, seed, number)
            wait(thinking)
            for _ in range(requests):
                if time.monotonic() > deadline:
                    break
                answer = timed("form", opener, url + path)
                if answer is None:
                    continue
                html = answer[1]
                data = {
                    **HAND,
                    "action": "save",
                    "csrfmiddlewaretoken": _hidden(html, "csrfmiddlewaretoken"),
                    "idempotency_key": _hidden(html, "idempotency_key"),
                }
                wait(thinking)  # the scorer fills the form in
                answer = timed("save", opener, url + path, data)
                if answer is None:
                    continue
                if answer[0].split("#")[0].endswith("/hands/new/"):  # the form again: refused
                    with lock:
                        results["errors"].append(("save", "refused"))
                else:
                    with lock:
                        results["saved"] += 1

        def reader(number):
            opener = self.session()
            thinking = think_times(think, seed, 1000 + number)
            wait(thinking)
            for _ in range(requests):
                if time.monotonic() > deadline:
                    break
                timed("standings", opener, url + standings)
                wait(thinking)

        def guarded(role, target, *args):
            def run():
                try:
                    target(*args)
                except Exception as error:  # the login failed, a page without its form…
                    with lock:
                        results["errors"].append((role, repr(error)[:80]))

            return run

        threads = [
            threading.Thread(target=guarded("writer", writer, n, path, opener))
            for n, ((_pk, path), opener) in enumerate(zip(sheets, openers))
        ]
        threads += [threading.Thread(target=guarded("reader", reader, n)) for n in range(readers)]
        before = meter.read()
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        results["elapsed"] = time.perf_counter() - started
        results["cpu"] = meter.spent(before)
        return results

    # ------------------------------------------------------------ the report

    def report(self, results, writers, readers, think, workers):
        elapsed, errors, times = results["elapsed"], results["errors"], results["times"]
        server = f"gunicorn, {workers} workers, DEBUG off" if workers else "the server at --url"
        load = ", ".join(f"{x:.2f}" for x in results["load"])
        self.stdout.write(
            f"\nLoad test: {writers} writers + {readers} readers, think {think:g} s "
            f"(mean, exponential), {elapsed:.1f} s, {server}; load average before: {load}"
        )
        offered = offered_load(writers, readers, think)
        if offered is None:
            self.stdout.write("offered: unbounded (closed loop, no think time: saturation)")
        else:
            self.stdout.write(
                f"offered (were every answer instant): writers {offered['writers']:.1f} "
                f"req/s, readers {offered['readers']:.1f} req/s"
            )
        self.stdout.write(f"errors: {len(errors)} {errors[:5] if errors else ''}".rstrip())
        header = f"{'':>10} {'n':>6} {'op/s':>7} {'p50':>6} {'p95':>6} {'p99':>6} {'max':>6} ms"
        self.stdout.write(header)
        rows = [(kind, times[kind]) for kind in HTTP_REQUESTS]
        for role, kinds in KINDS.items():
            rows.append((role, [t for kind in kinds for t in times[kind]]))
        for name, values in rows:
            ms = [t * 1000 for t in values]
            if not ms:
                continue
            self.stdout.write(
                f"{name:>10} {len(ms):>6} {len(ms) / elapsed:7.1f} {percentile(ms, 50):6.0f} "
                f"{percentile(ms, 95):6.0f} {percentile(ms, 99):6.0f} {max(ms):6.0f}"
            )
        http_requests = sum(len(times[kind]) * n for kind, n in HTTP_REQUESTS.items())
        every = [t * 1000 for kind in HTTP_REQUESTS for t in times[kind]]
        if every:
            self.stdout.write(
                f"all: {http_requests / elapsed:.1f} HTTP requests/s, "
                f"p99 of every timed operation {percentile(every, 99):.0f} ms"
            )
        cpu = results.get("cpu") or {}
        if http_requests and cpu:
            per = {k: v / http_requests * 1000 for k, v in cpu.items() if k != "busy"}
            server = f"gunicorn {per['server']:.1f} ms, " if "server" in per else ""
            self.stdout.write(
                f"CPU per HTTP request: {server}this client {per['client']:.1f} ms; "
                f"the machine ({os.cpu_count()} cores, every process on it) "
                f"{cpu.get('busy', float('nan')) * 100:.0f}% busy"
            )

    def check_saved(self, sheets, results):
        """The saves answered against the hands in the database."""
        stored = Hand.objects.filter(sheet_id__in=[pk for pk, _path in sheets]).count()
        self.stdout.write(f"hands saved: {results['saved']} answered, {stored} in the database")
        if stored != results["saved"]:
            results["errors"].append(("save", f"{stored} stored for {results['saved']} answered"))
            self.stdout.write("error: the database does not hold the hands answered as saved")


class CpuMeter:
    """CPU seconds spent by gunicorn's workers (``server``: the master's pid), by this
    process (the clients) and the machine's busy share, from Linux's /proc (figures
    it cannot read are left out)."""

    def __init__(self, server_pid):
        self.server_pid = server_pid
        self.tick = os.sysconf("SC_CLK_TCK")

    def _process(self, pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / self.tick  # utime + stime
        except (OSError, IndexError, ValueError):
            return None

    def _workers(self):
        try:
            with open(f"/proc/{self.server_pid}/task/{self.server_pid}/children") as f:
                return [int(pid) for pid in f.read().split()]
        except (OSError, ValueError):
            return []

    def read(self):
        spent = {"client": time.process_time()}
        if self.server_pid:
            workers = {pid: self._process(pid) for pid in self._workers()}
            spent["workers"] = {pid: t for pid, t in workers.items() if t is not None}
        try:
            with open("/proc/stat") as f:
                jiffies = [int(x) for x in f.readline().split()[1:]]
            spent["machine"] = (sum(jiffies) - jiffies[3] - jiffies[4], sum(jiffies))
        except (OSError, ValueError, IndexError):
            pass
        return spent

    def spent(self, before):
        after = self.read()
        out = {"client": after["client"] - before["client"]}
        if "workers" in after and after["workers"]:
            # a worker that started during the run counts from zero
            out["server"] = sum(
                t - before.get("workers", {}).get(pid, 0) for pid, t in after["workers"].items()
            )
        if "machine" in after and "machine" in before:
            busy = after["machine"][0] - before["machine"][0]
            total = after["machine"][1] - before["machine"][1]
            if total > 0:
                out["busy"] = busy / total
        return out


def _hidden(html, name):
    """The value of the hidden input ``name`` in ``html``."""
    found = re.search(rf'name="{name}" value="([^"]+)"', html)
    if found is None:
        raise CommandError(f"no {name} in the page")
    return found.group(1)
