"""Time the sheet import (``import_sheets``) at N hands: hands per second and peak memory.

    DATABASE_URL=postgres://… manage.py bench_import --hands 10000 100000
    DATABASE_URL=postgres://… manage.py bench_import --hands 10000 --per-sheet 20

Each size is imported with the ratings kept and with them off (``--ratings``: both,
the default, or one; off: the ledger's signals reach no rating receiver, as
``bench_ratings``' ``ratings_off``), each printed with its CPU seconds (the
importing process, its read-ahead thread and its writer processes; not the
database server's) and, with both, the ratio kept / off. With the ratings kept the
import tells them once at its end (``importing.announce_imported``), so the CPU they
add is one re-rating from the import's earliest sheet (in the import's process up to
``RATINGS_BACKGROUND_HANDS`` hands, in the background task above).

Each size runs in a child process of its own (so its peak RSS is its own), in a
database of its own created and dropped like ``bench_standings``'s. The child
writes a JSON-lines file of random sheets of ``--per-sheet`` hands (the demo's
``random_hand``, at tables of 4 and 5), then imports it, streaming, through
``scoresheet.importing.import_sheets`` and prints hands/s, queries per hand and
its peak RSS, and that of the largest writer process (``--writers`` > 1: the
import's child processes). Flat memory: the peak RSS of the sizes should be
within 10 % of each other.

Queries are the statements each line's write took (``LineResult.queries``,
counted by an ``execute_wrapper`` that only counts; each ``COPY`` of
``core.bulk`` is one), not the debug cursor's, which would keep and format every
statement and time that instead of the import: the child runs with DEBUG off,
as ``manage.py import_sheets`` on a server. The figures depend on the
machine's load: print ``uptime`` beside them.
"""

import contextlib
import json
import random
import resource
import subprocess
import sys
import tempfile
import time

from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import override_settings

from benchmarks.database import own_database
from benchmarks.management.commands.bench_ratings import ratings_off
from benchmarks.management.commands.bench_scoring import peak_mb
from clubs.models import Club, Season
from scoresheet import importing
from scoresheet.demo import random_hand
from tarot.jsonformat import parse_rules


class Command(BaseCommand):
    help = "Import N hands (own database, dropped afterwards): hands/s and peak RSS."

    def add_arguments(self, parser):
        parser.add_argument("--hands", type=int, nargs="+", default=[10_000, 100_000])
        parser.add_argument("--per-sheet", type=int, default=100)
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument(
            "--writers", type=int, default=2, help="as manage.py import_sheets --writers"
        )
        parser.add_argument(
            "--ratings", choices=["both", "kept", "off"], default="both", help="ratings kept or off"
        )
        parser.add_argument("--child", action="store_true", help="(internal) run one size")

    def handle(self, *args, hands, per_sheet, seed, writers, child, ratings, **options):
        if child:
            self.stdout.write(json.dumps(self.one(hands[0], per_sheet, seed, writers, ratings)))
            return
        rows = []
        modes = ["kept", "off"] if ratings == "both" else [ratings]
        for n, mode in [(n, mode) for n in hands for mode in modes]:
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
                    "--ratings",
                    mode,
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        used = writers if connection.vendor == "postgresql" else 1  # as import_sheets
        self.stdout.write(
            f"\nImport, {connection.vendor}, {used} writer(s) (one child process per size)\n"
        )
        self.stdout.write(
            f"{'hands':>9} {'ratings':>7} {'sheets':>7} {'seconds':>8} {'hands/s':>8} "
            f"{'CPU s':>6} {'queries/hand':>12} {'peak RSS MB':>11} {'writer RSS MB':>13}"
        )
        for r in rows:
            self.stdout.write(
                f"{r['hands']:>9,} {r['ratings']:>7} {r['sheets']:>7,} {r['seconds']:>8.1f} "
                f"{r['rate']:>8,.0f} {r['cpu']:>6.2f} {r['queries'] / r['hands']:>12.2f} "
                f"{r['rss_mb']:>11.1f} {r['writer_rss_mb']:>13.1f}"
            )
        if len(modes) == 2:
            for kept, off in zip(rows[::2], rows[1::2]):
                self.stdout.write(
                    f"{kept['hands']:,} hands: CPU kept / off {kept['cpu'] / off['cpu']:.2f}, "
                    f"time kept / off {kept['seconds'] / off['seconds']:.2f}; the ratings' "
                    f"re-rating at the end {kept['rating_cpu']:.2f} s CPU, "
                    f"{kept['rating_cpu'] / (kept['cpu'] - kept['rating_cpu']) * 100:.0f} % "
                    "of the rest of the import's"
                )
            rows = rows[::2]
        if len(rows) > 1:
            for label, key in (("peak RSS", "rss_mb"), ("writer RSS", "writer_rss_mb")):
                peaks = [r[key] for r in rows]
                if min(peaks):
                    spread = (max(peaks) / min(peaks) - 1) * 100
                    self.stdout.write(f"{label} spread: {spread:.1f} %")

    def one(self, n_hands, per_sheet, seed, writers, ratings="kept"):
        # DEBUG off, as on a server: no debug cursor keeping every statement
        with own_database("bench_import"), override_settings(DEBUG=False):
            within = ratings_off() if ratings == "off" else contextlib.nullcontext()
            with within:
                found = self.measure(n_hands, per_sheet, random.Random(seed), writers)
            return found | {"ratings": ratings}

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
            imported = queries = 0
            announced = []  # the CPU seconds of the ratings' one re-rating at the end
            announce = importing.announce_imported

            def timed(*args):
                before = time.process_time()
                announce(*args)
                announced.append(time.process_time() - before)

            importing.announce_imported = timed
            started, cpu = time.perf_counter(), _cpu()
            for result in importing.import_sheets(club, f, season=season, writers=writers):
                assert result.ok, (result.code, result.message)
                imported += result.hands
                queries += result.queries
            seconds = time.perf_counter() - started
            cpu = _cpu() - cpu
            importing.announce_imported = announce
        rss = peak_mb()
        writer_rss = peak_mb(resource.RUSAGE_CHILDREN)
        return {
            "hands": imported,
            "sheets": sheets,
            "seconds": seconds,
            "rate": imported / seconds,
            "cpu": cpu,
            "rating_cpu": sum(announced),
            "queries": queries,
            "rss_mb": rss,
            "writer_rss_mb": writer_rss,
        }


def _cpu() -> float:
    """CPU seconds of this process (its threads) and of its children waited for (the
    import's writer processes, once their pool has closed)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
