"""The installable app's checks that can run here, as figures:

    manage.py bench_app_shell

- installability: the manifest (name, start_url, display, a 192 and a 512 icon that
  answer 200 as PNG) and the service worker (200 at /sw.js, JavaScript, scope "/");
- the app shell's size: every file the worker caches at install (the shell its first
  line names, ``config.pwa.SHELL``),
  the manifest and the worker itself, raw and gzip-compressed (what a server that
  compresses, WhiteNoise in production, transfers), against the 300 KB target;
- the pages a scorer keeps offline, for scale: a 4-seat sheet and its hand form
  (HTML, raw and gzip), from a throwaway club in a transaction rolled back.

Requests go through Django's test client (no network, no server): the sizes are the
bodies' sizes, headers left out.
"""

import datetime
import gzip
import json

from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Membership, Player, Role, Season
from scoresheet import services

TARGET = 300 * 1024
HOST = "localhost"
DATE = datetime.date(2026, 1, 1)


def sizes(body: bytes) -> tuple[int, int]:
    return len(body), len(gzip.compress(body, compresslevel=9))


def read_static(name: str) -> bytes:
    """A static file's bytes: from the apps' folders, or collected (production)."""
    path = finders.find(name)
    if path:
        with open(path, "rb") as handle:
            return handle.read()
    with staticfiles_storage.open(name) as handle:
        return handle.read()


def worker_facts(source: bytes) -> dict:
    """The facts config.pwa puts on the worker's first line: self.TAROT_LEDGER = {…};"""
    first = source.split(b"\n", 1)[0].decode()
    return json.loads(first.split("=", 1)[1].strip().rstrip(";"))


def body_of(response) -> bytes:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return response.content


class Command(BaseCommand):
    help = "Installability checks and the app shell's size."

    def handle(self, *args, **options):
        client = Client(HTTP_HOST=HOST)
        out = self.stdout.write
        manifest_url = reverse("manifest")
        response = client.get(manifest_url)
        data = json.loads(body_of(response))
        icons = {icon["sizes"]: icon for icon in data.get("icons", [])}
        static_url = staticfiles_storage.base_url  # static("") is refused by a manifest storage
        icon_ok = all(  # the icons as collected (the test client serves no static file)
            read_static(icons[s]["src"].removeprefix(static_url)).startswith(b"\x89PNG")
            for s in ("192x192", "512x512")
        )
        out(
            f"manifest: {response.status_code} {response['Content-Type']}; "
            f"start_url {data.get('start_url')!r}, display {data.get('display')!r}, "
            f"icons {sorted(icons)} (served: {icon_ok})"
        )
        worker = client.get("/sw.js")
        out(
            f"service worker: {worker.status_code} {worker['Content-Type']}, "
            f"Service-Worker-Allowed {worker.get('Service-Worker-Allowed')!r}"
        )
        installable = (
            response.status_code == 200
            and data.get("start_url")
            and data.get("display") in ("standalone", "fullscreen", "minimal-ui")
            and icon_ok
            and worker.status_code == 200
        )
        out(f"installable (manifest + service worker): {'yes' if installable else 'NO'}")

        rows = [("/sw.js", *sizes(body_of(worker))), (manifest_url, *sizes(body_of(response)))]
        static_url = staticfiles_storage.base_url  # static("") is refused by a manifest storage
        for url in worker_facts(body_of(worker))["shell"]:  # what the worker caches
            # the files as collected (a server sends them as they are)
            rows.append((url, *sizes(read_static(url.removeprefix(static_url)))))
        out(f"\n{'app shell file':<40} {'raw':>9} {'gzip':>9}")
        for url, raw, packed in rows:
            out(f"{url:<40} {raw:>9,} {packed:>9,}")
        raw = sum(r[1] for r in rows)
        packed = sum(r[2] for r in rows)
        out(f"{'total':<40} {raw:>9,} {packed:>9,}")
        out(
            f"app shell transferred: {packed / 1024:.1f} KB gzip ({raw / 1024:.1f} KB raw); "
            f"target < {TARGET // 1024} KB: {'met' if packed < TARGET else 'NOT met'}"
        )
        self.pages(out)

    def pages(self, out):

        with transaction.atomic():
            user = get_user_model().objects.create_user("bench-shell", password="x" * 20)
            club = Club.objects.create(name="Bench shell", slug="bench-shell")
            Membership.objects.create(club=club, user=user, role=Role.SCORER)
            season = Season.objects.create(
                club=club, name="2026", start_date=DATE, rules={"preset": "fft"}
            )
            players = [Player.objects.create(club=club, name=n) for n in "ABCD"]
            sheet = services.create_sheet(season=season, players=players, date=DATE, actor=user)
            client = Client(HTTP_HOST=HOST)
            client.force_login(user)
            out(f"\n{'page kept offline':<40} {'raw':>9} {'gzip':>9}")
            for name in ("scoresheet:sheet", "scoresheet:hand_create"):
                url = reverse(name, args=[club.slug, sheet.pk])
                raw, packed = sizes(body_of(client.get(url)))
                out(f"{url:<40} {raw:>9,} {packed:>9,}")
            transaction.set_rollback(True)
