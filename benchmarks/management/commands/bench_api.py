"""The JSON API against the pages it mirrors, at 10,000 to 1,000,000 hands.

    DATABASE_URL=postgres://… manage.py bench_api --hands 10000 1000000 [--requests 15]

In a database of its own (``bench_standings``' loader: real engine hands copied onto
generated sheets, COPY on PostgreSQL, dropped afterwards), each club gets a scorer
with a personal write token and a four-seat sheet. Then, round-robin over every size
and pair so both sides meet the same background load, ``--requests`` rounds of:

* the season's standings: the page (``standings:season``) and
  ``GET /api/v1/clubs/<slug>/standings?season=<id>`` (with the token);
* a hand posted to the sheet: the hand form's save (``scoresheet:hand_create``,
  logged in, with its idempotency key) and ``POST /api/v1/…/hands`` (with an
  ``Idempotency-Key``), alternately on the same sheet.

Printed per size: the median and best server time (``django.test.Client``) of each,
the queries of one more request, and the API's time over the page's (the median of
the per-round ratios, so a drift of the machine's speed cancels out).
"""

import statistics
import time

from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmarks.management.commands import bench_standings
from benchmarks.management.commands.bench_pages import round_ratio
from clubs import tokens
from clubs.models import Membership, Player, Role
from core.idempotency import new_key
from scoresheet import services

FORM_HAND = {"dealer": "3", "taker": "0", "contract": "garde", "bouts": "2", "points": "56"}


class Command(bench_standings.Command):
    help = "Time the JSON API beside the pages it mirrors (own database, dropped)."

    def run(self, sizes, n_players, requests, rng):
        templates = self.record_templates(rng)
        loads, clubs = [], []
        User = Membership._meta.get_field("user").related_model
        for n_hands in sizes:
            club, season, load = self.fill_club(n_hands, n_players, templates, rng)
            loads.append(load)
            user = User.objects.create_user(f"scorer-{n_hands}", password="bench-password-1")
            Membership.objects.create(club=club, user=user, role=Role.SCORER)
            token = tokens.create_token(club=club, name="bench", scope="write", actor=user)[1]
            players = list(Player.objects.filter(club=club).order_by("pk")[:4])
            sheet = services.create_sheet(
                season=season, players=players, date=season.start_date, actor=user
            )
            names = [p.name for p in players]
            clubs.append(
                {
                    "hands": n_hands,
                    "rows": load[1],
                    "user": user,
                    "token": token,
                    "standings_page": reverse("standings:season", args=[club.slug, season.pk]),
                    "standings_api": f"/api/v1/clubs/{club.slug}/standings?season={season.pk}",
                    "hand_page": reverse("scoresheet:hand_create", args=[club.slug, sheet.pk]),
                    "hand_api": f"/api/v1/clubs/{club.slug}/sheets/{sheet.pk}/hands",
                    "api_hand": {
                        "dealer": names[3],
                        "taker": names[0],
                        "contract": "garde",
                        "bouts": 2,
                        "points": 56,
                    },
                }
            )
        self.analyse()
        with override_settings(
            ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"], API_RATE=1_000_000
        ):
            self.measure_pairs(clubs, requests)
        return loads, clubs

    def calls(self, club):
        """(label, page call, API call): each returns its response."""
        page, api = Client(), Client()
        page.force_login(club["user"])
        bearer = {"Authorization": f"Bearer {club['token']}"}

        def page_post():
            data = {**FORM_HAND, "action": "save", "idempotency_key": new_key()}
            return page.post(club["hand_page"], data)

        def api_post():
            return api.post(
                club["hand_api"],
                club["api_hand"],
                content_type="application/json",
                headers={**bearer, "Idempotency-Key": new_key()},
            )

        return [
            (
                "standings (season)",
                lambda: page.get(club["standings_page"]),
                lambda: api.get(club["standings_api"], headers=bearer),
            ),
            ("hand post", page_post, api_post),
        ]

    def measure_pairs(self, clubs, requests):
        pairs = []
        for club in clubs:
            for label, page_call, api_call in self.calls(club):
                pair = {"club": club, "label": label, "page": page_call, "api": api_call}
                for side in ("page", "api"):
                    for _ in range(3):  # warm up: connections, templates, caches
                        assert pair[side]().status_code in (200, 201, 302), (label, side)
                    pair[f"{side}_times"] = []
                pairs.append(pair)
        for _ in range(requests):
            for pair in pairs:
                for side in ("page", "api"):
                    started = time.perf_counter()
                    response = pair[side]()
                    pair[f"{side}_times"].append(time.perf_counter() - started)
                    assert response.status_code in (200, 201, 302), (pair["label"], side)
        for pair in pairs:
            for side in ("page", "api"):
                with CaptureQueriesContext(connection) as queries:
                    pair[side]()
                pair[f"{side}_queries"] = len(queries)
                pair[f"{side}_median"] = statistics.median(pair[f"{side}_times"]) * 1000
                pair[f"{side}_best"] = min(pair[f"{side}_times"]) * 1000
            pair["ratio"] = round_ratio(pair["api_times"], pair["page_times"])
        self.pairs = pairs

    def report(self, vendor, results):
        max_age = connection.settings_dict["CONN_MAX_AGE"]
        self.stdout.write(
            f"\nJSON API beside the pages, {vendor} (DEBUG={settings.DEBUG}, "
            f"CONN_MAX_AGE={max_age}; server time through django.test.Client, round-robin)\n"
        )
        header = (
            f"{'hands':>10}  {'what':<20} {'page ms':>8} {'(best)':>7} {'q':>3}  "
            f"{'API ms':>8} {'(best)':>7} {'q':>3}  {'API/page':>8}"
        )
        self.stdout.write(header)
        self.stdout.write("-" * len(header))
        for pair in self.pairs:
            self.stdout.write(
                f"{pair['club']['hands']:>10,}  {pair['label']:<20} "
                f"{pair['page_median']:>8.1f} {pair['page_best']:>7.1f} "
                f"{pair['page_queries']:>3}  {pair['api_median']:>8.1f} "
                f"{pair['api_best']:>7.1f} {pair['api_queries']:>3}  {pair['ratio']:>8.2f}"
            )
