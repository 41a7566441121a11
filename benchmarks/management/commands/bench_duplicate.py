"""Benchmark a duplicate event: 64 players (16 tables) over 8 rounds of 3 deals a set.

    manage.py bench_duplicate [--players 64] [--rounds 8] [--deals 3] [--requests 15]
    DATABASE_URL=postgres://… manage.py bench_duplicate

In a database of its own, made for the run and dropped afterwards (``own_database``).
The event is set up, its movement drawn, and every round played through the services
as the tables would (``record_table_hand``: each deal scored once with its score rows;
each table handed in and confirmed by a second entry), the last table of the last
round left handed in but unconfirmed. Then timed: that table's confirmation (the
second entry, ``check_table``) and, right after it, the pages that show it — the
barometer (the ranking page), the projector screen and the travellers — through
``django.test.Client``: the first request after the confirmation, then ``--requests``
rounds (median, best, queries, SQL time, and this process's CPU time: on a shared
machine the wall-clock figures carry the neighbours' load, the CPU time much less).
Nothing is cached: every request reads the stored rows and compares them, so every
request is the updated one. Also timed: the
movement of 30 tables over 10 rounds (``tournaments.duplicate.movement``) and its plan.
"""

import cProfile
import datetime
import io
import os
import pstats
import statistics
import time

from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmarks.database import own_database
from clubs.models import Club, Player
from tournaments import services
from tournaments.duplicate import plan as duplicate_plan
from tournaments.duplicate import services as duplicate_services
from tournaments.duplicate.movement import movement
from tournaments.models import Round, RoundTable


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def hand(deal, table, names):
    """A plausible deal, varying with the deal and the table."""
    if (deal + table) % 9 == 0:
        return {"taker": None}
    return {
        "taker": names[(deal + table) % 4],
        "contract": ("prise", "garde", "garde_sans", "prise")[(deal * 3 + table) % 4],
        "bouts": (deal + table) % 4,
        "points": 30 + (deal * 7 + table * 5) % 40,
    }


class Command(BaseCommand):
    help = "Time a duplicate event's barometer and travellers after a confirmation (own database)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=64)
        parser.add_argument("--rounds", type=int, default=8)
        parser.add_argument("--deals", type=int, default=3)
        parser.add_argument("--requests", type=int, default=15)
        parser.add_argument("--movement-tables", type=int, default=30)
        parser.add_argument("--movement-rounds", type=int, default=10)
        parser.add_argument(
            "--profile", action="store_true", help="print where one request of each page spends"
        )

    def handle(self, *args, **options):
        self.options = options
        self.say(f"load average {load_average()} (1, 5, 15 min)")
        self.bench_movement()
        with own_database("bench_duplicate"):
            self.run()
        self.say(f"load average after: {load_average()}")

    def say(self, text):
        self.stdout.write(text)
        self.stdout.flush()

    def bench_movement(self):
        o = self.options
        tables, rounds = o["movement_tables"], o["movement_rounds"]
        started = time.perf_counter()
        chosen = movement(tables, rounds)
        middle = time.perf_counter()
        plan = duplicate_plan.plan(range(1, 4 * tables + 1), rounds)
        done = time.perf_counter()
        self.say(
            f"movement {tables} tables × {rounds} rounds: {1000 * (middle - started):.0f} ms "
            f"({chosen.repeated} repeated meetings); the event's plan "
            f"{1000 * (done - middle):.0f} ms ({plan.repeated})"
        )

    def run(self):
        o = self.options
        self.say(
            f"{connection.vendor}: {o['players']} players, {o['rounds']} rounds, "
            f"{o['deals']} deals a set"
        )
        club = Club.objects.create(name="Bench club", slug="bench-duplicate-club")
        players = Player.objects.bulk_create(
            Player(club=club, name=f"Player {i:03d}") for i in range(1, o["players"] + 1)
        )
        event = duplicate_services.create_duplicate(
            club,
            name="Bench duplicate",
            date=datetime.date(2026, 6, 6),
            rounds=o["rounds"],
            deals_per_set=o["deals"],
            seed=1,
        )
        services.register(event, [("member", p) for p in players])
        started = time.perf_counter()
        plan = duplicate_services.draw_movement(event)
        self.say(
            f"movement drawn in {1000 * (time.perf_counter() - started):.0f} ms: "
            f"{plan.tables} tables, {plan.repeated} repeated meetings"
        )
        last = self.play(event)
        self.bench_pages(club, event, last)

    def play(self, event):
        """Every round through the services; returns the last table, handed in only."""
        hands, last = 0, None
        started = time.perf_counter()
        with override_settings(DEBUG=False):
            for rnd in event.round_set.order_by("number"):
                services.start_round(rnd)
                tables = list(
                    RoundTable.objects.filter(round=rnd)
                    .select_related("round__tournament", "sheet")
                    .order_by("number")
                )
                for table in tables:
                    names = [
                        s.player.name
                        for s in table.sheet.seats.select_related("player").order_by("position")
                    ]
                    for i in range(1, event.deals_per_round + 1):
                        deal = (table.set_number - 1) * event.deals_per_round + i
                        services.record_table_hand(table, hand(deal, table.number, names))
                        hands += 1
                    services.submit_table(table, by_name="first")
                    if rnd.number == event.rounds and table is tables[-1]:
                        last = table
                        continue
                    self.confirm(table)
                if rnd.number < event.rounds:
                    services.close_round(Round.objects.get(pk=rnd.pk))
        elapsed = time.perf_counter() - started
        self.say(f"{hands} hands entered, handed in and confirmed in {elapsed:.1f} s")
        return last

    @staticmethod
    def confirm(table):
        totals, _deals = services.snapshot(table)
        result = services.check_table(
            table, totals=[totals[str(n)] for n in table.seats], by_name="second"
        )
        assert result.confirmed

    def bench_pages(self, club, event, last):
        args = [club.slug, event.pk]
        pages = {
            "barometer": reverse("tournaments:duplicate_ranking", args=args),
            "screen": reverse("tournaments:duplicate_screen", args=args),
            "travellers": reverse("tournaments:duplicate_travellers", args=args),
        }
        client = Client()
        with override_settings(ALLOWED_HOSTS=["testserver", "localhost"]):
            for url in pages.values():  # warm the templates and the connection
                assert client.get(url).status_code == 200
            started = time.perf_counter()
            self.confirm(last)
            confirmed = 1000 * (time.perf_counter() - started)
            first = {}
            for name, url in pages.items():
                started = time.perf_counter()
                response = client.get(url)
                first[name] = 1000 * (time.perf_counter() - started)
                assert response.status_code == 200
            times = {name: [] for name in pages}
            cpu = {name: [] for name in pages}
            sql = {name: [] for name in pages}
            queries = {}
            for _ in range(self.options["requests"]):
                for name, url in pages.items():
                    with CaptureQueriesContext(connection) as captured:
                        started, started_cpu = time.perf_counter(), time.process_time()
                        response = client.get(url)
                        times[name].append(1000 * (time.perf_counter() - started))
                        cpu[name].append(1000 * (time.process_time() - started_cpu))
                    assert response.status_code == 200
                    queries[name] = len(captured)
                    sql[name].append(1000 * sum(float(q["time"]) for q in captured))
            if self.options["profile"]:
                for name, url in pages.items():
                    profile = cProfile.Profile()
                    profile.runcall(client.get, url)
                    self.say(f"--- {name}")
                    stream = io.StringIO()
                    pstats.Stats(profile, stream=stream).sort_stats("tottime").print_stats(18)
                    self.say(stream.getvalue())
        self.say(f"the last table's confirmation (second entry): {confirmed:.1f} ms")
        self.say(
            f"{'page':<12}{'first ms':>10}{'median ms':>11}{'best ms':>9}{'queries':>9}"
            f"{'SQL ms':>8}{'CPU ms':>8}"
        )
        for name in pages:
            self.say(
                f"{name:<12}{first[name]:>10.1f}{statistics.median(times[name]):>11.1f}"
                f"{min(times[name]):>9.1f}{queries[name]:>9}{statistics.median(sql[name]):>8.1f}"
                f"{statistics.median(cpu[name]):>8.1f}"
            )
