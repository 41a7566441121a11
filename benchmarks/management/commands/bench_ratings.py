"""Benchmark the ratings: a club rated from scratch, a hand post, a correction.

    manage.py bench_ratings --hands 100000 1000000
    DATABASE_URL=postgres://… manage.py bench_ratings --hands 100000 1000000

In a database of its own (``benchmarks.database``), each size is a club loaded as
``bench_standings`` loads it (one season of 4- and 5-seat sheets of real engine
hands, bulk-inserted). Printed per size:

- ``from scratch``: the club's scope rated again from its whole ledger
  (``ratings.keeping.rerate``: read every row in order, rate, write the history and
  ratings), then its season's scope; and, of that, the rating alone (openskill on
  the rows already read, in memory) and the hands per second;
- ``hand post``: ``scoresheet.services.record_hand`` on a new 200-hand sheet dated
  after the others, ``--posts`` times with the ratings kept and as many without
  (their receiver disconnected), alternated: median time and queries of each;
- ``correction``: ``correct_hand`` of hand 1 of that 200-hand sheet (the ratings
  of the club and its season re-rated from it), with and without the ratings; and
  of hand 1 of the club's first sheet (every later hand re-rated: over
  ``keeping.BACKGROUND_HANDS`` rows, by the background task, timed apart).
"""

import datetime
import random
import statistics
import time

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from benchmarks.database import own_database
from benchmarks.management.commands import bench_standings
from clubs.models import Player
from ratings import keeping, scopes
from ratings.compute import Rater
from ratings.models import Recompute
from scoresheet import services
from scoresheet.models import Sheet
from scoresheet.signals import hand_recorded, ledger_changed

HAND = {
    "dealer": "Player 001",
    "taker": "Player 002",
    "contract": "garde",
    "bouts": 2,
    "points": 56,
}


class ratings_off:
    """Within the block, the ledger's signals reach no rating receiver."""

    def __enter__(self):
        hand_recorded.disconnect(keeping._recorded)
        ledger_changed.disconnect(keeping._changed)

    def __exit__(self, *exc):
        hand_recorded.connect(keeping._recorded)
        ledger_changed.connect(keeping._changed)


class Command(bench_standings.Command):
    help = "Rate a club from scratch, post and correct hands, with the ratings and without."

    def add_arguments(self, parser):
        parser.add_argument("--hands", type=int, nargs="+", default=[100_000, 1_000_000])
        parser.add_argument("--players", type=int, default=60)
        parser.add_argument("--posts", type=int, default=50)
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, hands, players, posts, seed, **options):
        self.verbosity = options["verbosity"]
        vendor = connection.vendor
        with own_database("bench_ratings", log=self.log):
            rng = random.Random(seed)
            templates = self.record_templates(rng)
            for n_hands in sorted(hands):
                club, season, _load = self.fill_club(n_hands, players, templates, rng)
                self.analyse()
                self.out(f"\n{vendor}, {n_hands:,} hands, {players} players")
                self.from_scratch(club, season, n_hands)
                self.posts_and_corrections(club, season, posts)

    def out(self, line):
        self.stdout.write(line)
        self.stdout.flush()

    def from_scratch(self, club, season, n_hands):
        for key in (scopes.club(club.pk), scopes.season(season.pk)):
            started = time.perf_counter()
            with transaction.atomic():
                keeping.rerate(key)
            whole = time.perf_counter() - started
            with transaction.atomic():
                started = time.perf_counter()
                rows, kinds = keeping.ledger_rows(key)
                rows = list(rows)
                read = time.perf_counter() - started
            started = time.perf_counter()
            rater = Rater()
            keeping.rate_rows(rows, kinds, rater)
            rated = time.perf_counter() - started
            self.out(
                f"  from scratch, {key.split(':')[0]}: {whole:.1f} s in all "
                f"({n_hands / whole:,.0f} hands/s); of which the rows read {read:.1f} s, "
                f"openskill {rated:.1f} s ({rated / n_hands * 1e6:.1f} µs a hand)"
            )

    def posts_and_corrections(self, club, season, posts):
        players = list(Player.objects.filter(club=club).order_by("name")[:4])
        last = Sheet.objects.filter(club=club).order_by("-date").values_list("date", flat=True)[0]
        sheet = services.create_sheet(
            season=season, players=players, date=last + datetime.timedelta(days=1), table="new"
        )
        data = dict(HAND, dealer=players[0].name, taker=players[1].name)
        for _ in range(200):
            services.record_hand(sheet, data)
        timed = {True: [], False: []}
        queries = {True: [], False: []}
        for i in range(2 * posts):
            kept = i % 2 == 0
            connection.queries_log.clear()  # a bounded log: counts past its end are wrong
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                if kept:
                    services.record_hand(sheet, data)
                else:
                    with ratings_off():
                        services.record_hand(sheet, data)
                timed[kept].append(time.perf_counter() - started)
            queries[kept].append(len(captured.captured_queries))
        for kept in (False, True):
            self.out(
                f"  hand post, ratings {'kept' if kept else 'off '}: median "
                f"{statistics.median(timed[kept]) * 1000:.2f} ms, "
                f"{statistics.median(queries[kept]):.0f} queries ({posts} posts)"
            )
        # the extra hands re-rated in (the ratings of those posted without them)
        with transaction.atomic():
            keeping.rerate_club(club.pk, [sheet])
        first_hand = sheet.hands.get(number=1)
        for label, hand in [
            ("hand 1 of the last 200+-hand sheet", first_hand),
            (
                "hand 1 of the club's first sheet",
                Sheet.objects.filter(club=club).order_by("date", "pk").first().hands.get(number=1),
            ),
        ]:
            figures, background = {}, []
            for kept in (False, True):
                times = []
                for _ in range(2):
                    # the hand as it is: the correction re-scores and re-rates all the same
                    entry = services.hand_data(hand, services.Table.of(hand.sheet))
                    started = time.perf_counter()
                    if kept:
                        services.correct_hand(hand, entry)
                    else:
                        with ratings_off():
                            services.correct_hand(hand, entry)
                    times.append(time.perf_counter() - started)
                    # over ``keeping.BACKGROUND_HANDS`` rows, the re-rating was left to the
                    # background task (``keeping.defer``): run it here, timed apart
                    started = time.perf_counter()
                    waiting = list(Recompute.objects.values_list("scope", flat=True))
                    for key in waiting:
                        keeping.recompute.call(key)
                    if waiting:
                        background.append(time.perf_counter() - started)
                figures[kept] = statistics.median(times)
            later = (
                f"; then {statistics.median(background) * 1000:.0f} ms in the background"
                if background
                else ""
            )
            self.out(
                f"  correction of {label}: {figures[True] * 1000:.0f} ms with the ratings, "
                f"{figures[False] * 1000:.0f} ms without{later}"
            )
