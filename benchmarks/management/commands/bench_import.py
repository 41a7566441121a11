"""Time the sheet import (``import_sheets``) at N hands: hands per second and peak memory.

    DATABASE_URL=postgres://… manage.py bench_import --hands 10000 100000

Each size runs in a child process of its own (so its peak RSS is its own), in a
database of its own created and dropped like ``bench_standings``'s. The child
writes a JSON-lines file of random sheets of ``--per-sheet`` hands (the demo's
``random_hand``, at tables of 4 and 5), then imports it, streaming, through
``scoresheet.importing.import_sheets`` and prints hands/s, queries per hand and
its peak RSS. Flat memory: the peak RSS of the sizes should be within 10 % of
each other.

Queries are counted by an ``execute_wrapper`` that only counts (each ``COPY`` of
``core.bulk`` is one), not by the debug cursor, which would keep and format every
statement and time that instead of the import. The figures depend on the
machine's load: print ``uptime`` beside them.
"""

import itertools
import json
import random
import subprocess
import sys
import tempfile
import time

from django.core.management.base import BaseCommand
from django.db import connection
from django.db.backends.signals import connection_created

from benchmarks.database import own_database
from benchmarks.management.commands.bench_scoring import peak_mb
from clubs.models import Club, Season
from scoresheet import importing
from scoresheet.demo import random_hand
from scoresheet.scoring.jsonformat import parse_rules


class Command(BaseCommand):
    help = "Import N hands (own database, dropped afterwards): hands/s and peak RSS."

    def add_arguments(self, parser):
        parser.add_argument("--hands", type=int, nargs="+", default=[10_000, 100_000])
        parser.add_argument("--per-sheet", type=int, default=100)
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument(
            "--writers", type=int, default=2, help="as manage.py import_sheets --writers"
        )
        parser.add_argument("--child", action="store_true", help="(internal) run one size")

    def handle(self, *args, hands, per_sheet, seed, writers, child, **options):
        if child:
            self.stdout.write(json.dumps(self.one(hands[0], per_sheet, seed, writers)))
            return
        rows = []
        for n in hands:
            out = subprocess.run(
                [
                    sys.executable,
                    "manage.py",
                    "bench_import",
                    "--child",
                    "--hands",
                    str(n),
                    "--per-sheet",
                    str(per_sheet),
                    "--seed",
                    str(seed),
                    "--writers",
                    str(writers),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        self.stdout.write(
            f"\nImport, {connection.vendor}, {writers} writer(s) (one child process per size)\n"
        )
        self.stdout.write(
            f"{'hands':>9} {'sheets':>7} {'seconds':>8} {'hands/s':>8} "
            f"{'queries/hand':>12} {'peak RSS MB':>11}"
        )
        for r in rows:
            self.stdout.write(
                f"{r['hands']:>9,} {r['sheets']:>7,} {r['seconds']:>8.1f} {r['rate']:>8,.0f} "
                f"{r['queries'] / r['hands']:>12.2f} {r['rss_mb']:>11.1f}"
            )
        if len(rows) > 1:
            peaks = [r["rss_mb"] for r in rows]
            self.stdout.write(f"peak RSS spread: {(max(peaks) / min(peaks) - 1) * 100:.1f} %")

    def one(self, n_hands, per_sheet, seed, writers):
        with own_database("bench_import"):
            return self.measure(n_hands, per_sheet, random.Random(seed), writers)

    def measure(self, n_hands, per_sheet, rng, writers):
        club = Club.objects.create(name="Import", slug="import")
        season = Season.objects.create(club=club, name="2025–2026", start_date="2025-09-01")
        rules = parse_rules(season.rules).as_dict()
        names = [f"Player {i:02d}" for i in range(1, 41)]
        sheets = 0
        with tempfile.NamedTemporaryFile("w+", suffix=".jsonl") as f:
            left = n_hands
            while left > 0:
                count = min(left, per_sheet)
                seated = rng.sample(names, rng.choice((4, 5)))
                hands = [
                    random_hand(rng, seated, rules, seated[i % len(seated)]) for i in range(count)
                ]
                day = f"2026-{rng.randint(1, 6):02d}-{rng.randint(1, 28):02d}"
                f.write(
                    json.dumps({"players": seated, "hands": hands, "date": day}, default=float)
                    + "\n"
                )
                left -= count
                sheets += 1
            f.flush()
            f.seek(0)
            counted = itertools.count()

            def count(execute, sql, params, many, context):
                # counts only: the debug cursor would format every statement (huge
                # multi-row INSERTs) and measure that instead of the import
                next(counted)
                return execute(sql, params, many, context)

            def count_on(sender, connection, **kwargs):  # the writers' own connections
                connection.execute_wrappers.append(count)

            imported = 0
            connection_created.connect(count_on)
            try:
                with connection.execute_wrapper(count):
                    started = time.perf_counter()
                    for result in importing.import_sheets(club, f, season=season, writers=writers):
                        assert result.ok, (result.code, result.message)
                        imported += result.hands
                    seconds = time.perf_counter() - started
            finally:
                connection_created.disconnect(count_on)
            queries = next(counted)
        rss = peak_mb()
        return {
            "hands": imported,
            "sheets": sheets,
            "seconds": seconds,
            "rate": imported / seconds,
            "queries": queries,
            "rss_mb": rss,
        }
