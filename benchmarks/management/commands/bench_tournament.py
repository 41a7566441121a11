"""Benchmark a large tournament: 200 players (50 tables) over 6 rounds, 5 deals a table.

    manage.py bench_tournament [--players 200] [--rounds 6] [--deals 5] [--requests 15]
    DATABASE_URL=postgres://… manage.py bench_tournament

Everything happens in one transaction rolled back at the end: the configured
database keeps nothing. A throwaway public club gets the players; the
tournament is set up, drawn (the whole schedule in advance, timed) and played
through ``tournaments.services`` and ``scoresheet.services`` (every hand
recorded as a scorer would, with its score rows and totals: the load is timed
too). Then the pages are requested through ``django.test.Client``, three
warm-up requests each, then ``--requests`` rounds: the ranking, a round's page,
the round's table cards and the route cards. Printed: median and best server
time, and the number of queries.
"""

import datetime
import statistics
import time

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club, Player
from scoresheet import services as sheets
from tournaments import services
from tournaments.models import Tournament


class Rollback(Exception):
    pass


def deal(names, i):
    """A plausible deal: the dealer turns, a garde taken, made or failed by turns."""
    n = len(names)
    data = {
        "dealer": names[i % n],
        "taker": names[(i + 1) % n],
        "contract": ("garde", "prise", "garde_sans")[i % 3],
        "bouts": 1 + i % 3,
        "points": (50, 38, 44, 61, 47)[i % 5],
    }
    if n == 5:
        data["partner"] = names[(i + 3) % n]
    return data


class Command(BaseCommand):
    help = "Time the tournament pages for a large tournament (rolled back at the end)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--rounds", type=int, default=6)
        parser.add_argument("--deals", type=int, default=5)
        parser.add_argument("--requests", type=int, default=15)

    def handle(self, *args, **options):
        self.options = options
        try:
            with transaction.atomic():
                self.run()
                raise Rollback
        except Rollback:
            pass

    def say(self, text):
        self.stdout.write(text)
        self.stdout.flush()

    def run(self):
        o = self.options
        vendor = connection.vendor
        self.say(
            f"{vendor}: {o['players']} players, {o['rounds']} rounds, "
            f"{o['deals']} deals a table of 4"
        )
        club = Club.objects.create(name="Bench club", slug="bench-tournament-club")
        players = Player.objects.bulk_create(
            Player(club=club, name=f"Player {i:03d}") for i in range(1, o["players"] + 1)
        )
        tournament = services.create_tournament(
            club,
            name="Bench",
            date=datetime.date(2026, 5, 9),
            rules="fft",
            rounds=o["rounds"],
            deals_per_round=o["deals"],
            seed=1,
        )
        services.register(tournament, [("member", p) for p in players])

        started = time.perf_counter()
        services.draw_schedule(tournament)
        self.say(f"schedule drawn in {1000 * (time.perf_counter() - started):.0f} ms")

        started = time.perf_counter()
        hands = 0
        for rnd in tournament.round_set.order_by("number"):
            services.start_round(rnd)
            for table in rnd.tables.select_related("sheet"):
                names = [s.player.name for s in table.sheet.seats.select_related("player")]
                for i in range(services.deals_for_table(tournament, len(names))):
                    sheets.record_hand(table.sheet, deal(names, i))
                    hands += 1
            services.close_round(rnd)
        elapsed = time.perf_counter() - started
        self.say(f"{hands} hands recorded through the services in {elapsed:.1f} s")
        self.bench_pages(club, Tournament.objects.get(pk=tournament.pk))

    def bench_pages(self, club, tournament):
        args = [club.slug, tournament.pk]
        middle = max(1, tournament.rounds // 2)
        pages = {
            "ranking": reverse("tournaments:ranking", args=args),
            f"round {middle}": reverse("tournaments:round", args=[*args, middle]),
            f"table cards {middle}": reverse("tournaments:table_cards", args=[*args, middle]),
            "route cards": reverse("tournaments:route_cards", args=args),
            "ranking CSV": reverse("tournaments:ranking", args=args) + "?_export=csv",
        }
        client = Client()
        times = {name: [] for name in pages}
        queries = {}
        with override_settings(ALLOWED_HOSTS=["testserver", "localhost"]):
            for url in pages.values():
                for _ in range(3):
                    assert client.get(url).status_code == 200
            for _ in range(self.options["requests"]):
                for name, url in pages.items():
                    with CaptureQueriesContext(connection) as captured:
                        started = time.perf_counter()
                        response = client.get(url)
                        times[name].append(1000 * (time.perf_counter() - started))
                    assert response.status_code == 200, (url, response.status_code)
                    queries[name] = len(captured)
        self.say(f"{'page':<18}{'median ms':>10}{'best ms':>10}{'queries':>9}")
        for name, values in times.items():
            self.say(
                f"{name:<18}{statistics.median(values):>10.1f}{min(values):>10.1f}"
                f"{queries[name]:>9}"
            )
