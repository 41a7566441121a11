"""Benchmark a large tournament: 200 players (50 tables) over 6 rounds, 5 deals a table.

    manage.py bench_tournament [--players 200] [--rounds 6] [--deals 5] [--requests 15]
    DATABASE_URL=postgres://… manage.py bench_tournament

It works in a database of its own, made for the run and dropped afterwards
(``<name>_bench_tournament`` beside the configured one on PostgreSQL, a
temporary file on SQLite), so the configured database needs no migration and
keeps nothing. A public club gets the players; the tournament is set up, drawn
(the whole schedule in advance, timed) and played through
``tournaments.services`` and ``scoresheet.services`` (every hand recorded as a
scorer would, one transaction each, with its score rows and totals: the load is
timed, per round too, so a cost growing with the tournament would show). Then
the pages are requested through ``django.test.Client``, three warm-up requests
each, then ``--requests`` rounds: the ranking, a round's page, the round's
table cards, the route cards and the ranking's CSV. Printed: median and best
server time, the number of queries and their time (as Django's debug cursor
logs it, to the millisecond), and the machine's load average before and after
(on a shared machine, read the figures beside it).
"""

import datetime
import os
import statistics
import time

from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmarks.database import own_database
from clubs.models import Club, Player
from scoresheet import services as sheets
from tournaments import services
from tournaments.models import Tournament


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


def play_tables(tournament, rnd) -> int:
    """Enter every table's deals of a started round through the services (as the tables
    would): the number of hands entered."""
    hands = 0
    for table in rnd.tables.select_related("sheet"):
        seats = table.sheet.seats.select_related("player").order_by("position")
        names = [s.player.name for s in seats]
        for i in range(services.deals_for_table(tournament, len(names))):
            sheets.record_hand(table.sheet, deal(names, i))
            hands += 1
    return hands


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


class Command(BaseCommand):
    help = "Time the tournament pages for a large tournament (own database, dropped afterwards)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--rounds", type=int, default=6)
        parser.add_argument("--deals", type=int, default=5)
        parser.add_argument("--requests", type=int, default=15)

    def handle(self, *args, **options):
        self.options = options
        with own_database("bench_tournament"):
            self.run()

    def say(self, text):
        self.stdout.write(text)
        self.stdout.flush()

    def run(self):
        o = self.options
        self.say(
            f"{connection.vendor}: {o['players']} players, {o['rounds']} rounds, "
            f"{o['deals']} deals a table of 4; load average {load_average()} (1, 5, 15 min)"
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
        self.load(tournament)
        self.bench_pages(club, Tournament.objects.get(pk=tournament.pk))
        self.say(f"load average after: {load_average()}")

    def load(self, tournament):
        """Play every round through the services, as the tables would (DEBUG off: the
        debug cursor would format every statement and time that too)."""
        queries = 0

        def count(execute, sql, params, many, context):
            nonlocal queries
            queries += 1
            return execute(sql, params, many, context)

        hands, per_round = 0, []
        with override_settings(DEBUG=False), connection.execute_wrapper(count):
            started = time.perf_counter()
            for rnd in tournament.round_set.order_by("number"):
                services.start_round(rnd)
                round_started, round_queries = time.perf_counter(), queries
                n = play_tables(tournament, rnd)
                seconds = time.perf_counter() - round_started
                hands += n
                per_round.append((rnd.number, n, seconds, queries - round_queries))
                services.close_round(rnd)
            elapsed = time.perf_counter() - started
        self.say(f"{hands} hands recorded through the services in {elapsed:.1f} s")
        for number, n, seconds, q in per_round:
            self.say(
                f"  round {number}: {n} hands, {1000 * seconds / n:.1f} ms and "
                f"{q / n:.1f} queries a hand"
            )

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
        sql = {name: [] for name in pages}
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
                    sql[name].append(1000 * sum(float(q["time"]) for q in captured))
        self.say(
            f"{'page':<18}{'median ms':>10}{'best ms':>10}{'queries':>9}{'SQL ms (median)':>17}"
        )
        for name, values in times.items():
            self.say(
                f"{name:<18}{statistics.median(values):>10.1f}{min(values):>10.1f}"
                f"{queries[name]:>9}{statistics.median(sql[name]):>17.1f}"
            )
