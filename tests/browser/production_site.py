"""The app served as ``make serve`` serves it, for the browser tests that need it.

``ProductionSite(root)`` prepares a site under ``config.settings.production`` in ``root``
(a SQLite file, ``collectstatic`` into a temporary STATIC_ROOT: hashed names, the
manifest storage, WhiteNoise, DEBUG off), seeds a club with a sheet and a scorer, and
runs gunicorn on a free port. The seeding and the reads run in child processes under
the production settings (``python -m tests.browser.production_site seed|hands``): the
test's own process keeps its test settings and database.
"""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
GUNICORN = str(Path(PYTHON).with_name("gunicorn"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ProductionSite:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.port = free_port()
        self.url = f"http://localhost:{self.port}"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DJANGO_SECRET_KEY": "production-like-test-key-" + "x" * 40,
            "DJANGO_ALLOWED_HOSTS": "localhost,127.0.0.1",
            "DATABASE_URL": f"sqlite:///{self.root / 'db.sqlite3'}",
            "DJANGO_STATIC_ROOT": str(self.root / "static"),
            # plain http on localhost (a secure context for the browser): no redirect
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_SECURE_HSTS_SECONDS": "0",
            "PYTHONPATH": str(ROOT),
        }
        for name in ("DJANGO_TEST_DB_NAME", "DJANGO_ALLOW_ASYNC_UNSAFE"):
            self.env.pop(name, None)
        self.server = None

    def manage(self, *args):
        subprocess.run(
            [PYTHON, "manage.py", *args], cwd=ROOT, env=self.env, check=True, capture_output=True
        )

    def child(self, *args) -> dict:
        done = subprocess.run(
            [PYTHON, "-m", "tests.browser.production_site", *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        return json.loads(done.stdout.strip().splitlines()[-1])

    def start(self, seats=4) -> dict:
        """Migrate, collect, seed; gunicorn up. Answers what ``seed`` printed."""
        self.manage("migrate", "--noinput")
        self.manage("createcachetable")
        self.manage("collectstatic", "--noinput")
        facts = self.child("seed", str(seats))
        self.server = subprocess.Popen(
            [GUNICORN, "config.wsgi", "--workers", "2", "--bind", f"127.0.0.1:{self.port}"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(self.url + "/", timeout=5)
                break
            except OSError:
                if self.server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.3)
        return facts

    def stop(self):
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=30)
            self.server = None


# ------------------------------------------------------------ run in a child process


def _seed(seats: int) -> dict:
    import datetime

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.urls import reverse

    from clubs.models import Club, Membership, Player, Role, Season
    from scoresheet import services
    from tests.data import NAMES

    club = Club.objects.create(name="Club de la Rive", slug="rive")
    season = Season.objects.create(
        club=club, name="2026", start_date=datetime.date(2026, 1, 1), rules={"preset": "fft"}
    )
    players = [Player.objects.create(club=club, name=name) for name in NAMES[:seats]]
    user = get_user_model().objects.create_user("scorer", password="a-long-passphrase-1")
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    sheet = services.create_sheet(
        season=season,
        players=players,
        date=datetime.date(2026, 3, 14),
        table="1",
        rules=None,
        actor=user,
    )
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return {
        "cookie": settings.SESSION_COOKIE_NAME,
        "session": session.session_key,
        "sheet": reverse("scoresheet:sheet", args=["rive", sheet.pk]),
        "form": reverse("scoresheet:hand_create", args=["rive", sheet.pk]),
    }


def _hands() -> dict:
    from scoresheet.models import Hand, ScoreRow

    out = []
    for hand in Hand.objects.order_by("number"):
        rows = ScoreRow.objects.filter(hand=hand).order_by("position")
        out.append(
            {
                "number": hand.number,
                "dealer": hand.dealer.name if hand.dealer_id else None,
                "sits_out": hand.sits_out.name if hand.sits_out_id else None,
                "halves": [int(row.score * 2) for row in rows],
            }
        )
    return {"hands": out}


if __name__ == "__main__":
    import django

    django.setup()
    command = sys.argv[1]
    answer = _seed(int(sys.argv[2])) if command == "seed" else _hands()
    print(json.dumps(answer))
