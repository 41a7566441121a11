"""Benchmark the standings page against ledgers of 10,000 to 1,000,000 hands.

    manage.py bench_standings --hands 10000 1000000 [--explain]
    DATABASE_URL=postgres://… manage.py bench_standings --hands 10000 1000000

Everything happens in a database of its own, created for the run and dropped at
the end (the test database's mechanism: ``<db>_bench_standings`` on the same
PostgreSQL server, a temporary file on SQLite): the configured database and
its demo data are never touched.

For each size, a fresh public club of ``--players`` players gets one season of
sheets of 4 and 5 players (16 to 32 hands each, over 300 days), bulk-inserted
(COPY on PostgreSQL, executemany on SQLite; secondary indexes built after the
load, foreign-key checks and fsync off for this throwaway database), and its
summaries are rebuilt in SQL (``rebuild_season_totals``). Once every size is
loaded and the tables analysed, the pages are requested through
``django.test.Client``, three warm-up requests each, then ``--requests``
rounds of one request per page, so every size meets the same background load:
the season's standings (the page the target is about), the club's
all-seasons page, the season filtered to one month of tables of four, and the
season sorted by average, page 2. Printed: median and best server time, and
the number of queries; ``--explain`` adds the plans of each page's queries.

Hands are real engine output: a few hundred random hands (``scoresheet.demo``)
are recorded through ``scoresheet.services`` at template tables, and every
generated hand copies one of them onto the sheet's players, seat for seat, with
its score rows. So the rows are exactly those the services write, and each
hand's scores sum to zero.
"""

import datetime
import json
import random
import statistics
import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.core.management.color import no_style
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from benchmarks.database import own_database
from clubs.models import Club, Player, Season
from scoresheet import services
from scoresheet.demo import random_hand
from scoresheet.models import Hand, ScoreRow, SeasonTotal, Seat, Sheet, SheetFacts, SheetTotal
from scoresheet.totals import rebuild_season_totals
from tarot.jsonformat import parse_rules

SEASON_START = datetime.date(2025, 9, 1)
SEASON_DAYS = 300
TEMPLATES_PER_SIZE = 240
TABLE_SIZES = ((4, 0.65), (5, 0.35))
HANDS_PER_SHEET = (16, 32)
CHUNK_HANDS = 50_000  # hands generated and written per batch

HAND_COLUMNS = [
    "id",
    "sheet_id",
    "number",
    "dealer_id",
    "taker_id",
    "contract",
    "partner_id",
    "sits_out_id",
    "bouts",
    "points",
    "petit_au_bout",
    "poignees",
    "chelem",
    "petit_chelem",
    "miseres",
    "pools",
    "explanation",
    "is_deleted",
    "entered_by_id",
    "entered_at",
    "updated_at",
]
ROW_COLUMNS = [
    "hand_id",
    "sheet_id",
    "season_id",
    "player_id",
    "date",
    "seats",
    "position",
    "role",
    "contract",
    "made",
    "margin",
    "bouts",
    "petit_au_bout",
    "poignee",
    "misere",
    "chelem",
    "score",
    "pool",
    "playing",
    "alone",
    "number",
]
ROW_FROM_TEMPLATE = ROW_COLUMNS[6:-1]  # position … alone: copied as recorded


def _json(value):
    return None if value is None else json.dumps(value)


class Template:
    """One recorded hand, by seat position: copied onto any sheet of its size."""

    def __init__(self, hand, rows, position_of):
        def seat(player_id):
            return None if player_id is None else position_of[player_id]

        self.dealer = seat(hand["dealer_id"])
        self.taker = seat(hand["taker_id"])
        self.partner = seat(hand["partner_id"])
        self.sits_out = seat(hand["sits_out_id"])
        self.poignees = [(seat(p["player"]), p["size"]) for p in hand["poignees"]]
        self.miseres = [seat(pk) for pk in hand["miseres"]]
        self.fixed = (
            hand["contract"],
            hand["bouts"],
            hand["points"],
            hand["petit_au_bout"],
        )
        self.chelem = _json(hand["chelem"])
        self.petit_chelem = _json(hand["petit_chelem"])
        self.pools = _json(hand["pools"])
        self.explanation = _json(hand["explanation"])
        self.rows = [tuple(row[c] for c in ROW_FROM_TEMPLATE) for row in rows]

    def hand(self, hand_id, sheet_id, number, seated, now):
        """This hand at another table (``seated``: player ids by position), as HAND_COLUMNS."""

        def pk(position):
            return None if position is None else seated[position]

        contract, bouts, points, petit_au_bout = self.fixed
        poignees = [{"player": pk(p), "size": size} for p, size in self.poignees]
        miseres = [pk(p) for p in self.miseres]
        return (
            hand_id,
            sheet_id,
            number,
            pk(self.dealer),
            pk(self.taker),
            contract,
            pk(self.partner),
            pk(self.sits_out),
            bouts,
            points,
            petit_au_bout,
            json.dumps(poignees) if poignees else "[]",
            self.chelem,
            self.petit_chelem,
            json.dumps(miseres) if miseres else "[]",
            self.pools,
            self.explanation,
            False,
            None,
            now,
            now,
        )


class Command(BaseCommand):
    help = "Time the standings page on ledgers of N hands (own database, dropped afterwards)."

    def add_arguments(self, parser):
        parser.add_argument("--hands", type=int, nargs="+", default=[10_000, 1_000_000])
        parser.add_argument("--players", type=int, default=60)
        parser.add_argument("--requests", type=int, default=15, help="timed requests per page")
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument(
            "--explain", action="store_true", help="print the plans of each page's two last queries"
        )

    def handle(self, *args, hands, players, requests, seed, explain, **options):
        self.verbosity = options["verbosity"]
        self.explain = explain
        vendor = connection.vendor
        with own_database("bench_standings", log=self.log):
            results = self.run(sorted(hands), players, requests, random.Random(seed))
        self.report(vendor, results)

    def log(self, message):
        if self.verbosity:
            self.stderr.write(message)

    # ------------------------------------------------------------ run

    def run(self, sizes, n_players, requests, rng):
        """Load every size, then time the pages round-robin (sizes share the machine's load)."""
        templates = self.record_templates(rng)
        loads, pages = [], []
        for n_hands in sizes:
            club, season, load = self.fill_club(n_hands, n_players, templates, rng)
            loads.append(load)
            url = reverse("standings:season", args=[club.slug, season.pk])
            month = SEASON_START + datetime.timedelta(days=120)
            one_month = f"?date_from={month}&date_to={month + datetime.timedelta(days=30)}"
            for label, page_url in [
                ("season", url),
                ("all seasons", reverse("standings:club", args=[club.slug])),
                ("season, 1 month, 4 seats", url + one_month + "&seats=4"),
                ("season, sorted by average, p. 2", url + "?sort=-average&page=2"),
            ]:
                pages.append({"hands": n_hands, "rows": load[1], "label": label, "url": page_url})
        self.analyse()
        self.measure(pages, requests)
        return loads, pages

    def fill_club(self, n_hands, n_players, templates, rng):
        """A public club with a season of ``n_hands`` hands (and an empty older season)."""
        club = Club.objects.create(name=f"Bench {n_hands}", slug=f"bench-{n_hands}")
        season = Season.objects.create(
            club=club,
            name="2025–2026",
            start_date=SEASON_START,
            end_date=SEASON_START + datetime.timedelta(days=SEASON_DAYS),
        )
        Season.objects.create(club=club, name="2024–2025", start_date=datetime.date(2024, 9, 1))
        players = Player.objects.bulk_create(
            Player(club=club, name=f"Player {i:03d}") for i in range(1, n_players + 1)
        )
        started = time.perf_counter()
        n_rows = self.load(season, [p.pk for p in players], n_hands, templates, rng)
        loaded = time.perf_counter() - started
        started = time.perf_counter()
        with transaction.atomic():
            rebuild_season_totals(season)
        rebuilt = time.perf_counter() - started
        self.check_totals(season)
        self.log(
            f"{n_hands:,} hands, {n_rows:,} score rows: loaded in {loaded:.1f} s, "
            f"summaries rebuilt in {rebuilt:.1f} s"
        )
        return club, season, (n_hands, n_rows, loaded, rebuilt)

    def record_templates(self, rng, per_size=TEMPLATES_PER_SIZE):
        """Record random hands at template tables through the services."""
        self.log("recording template hands through scoresheet.services …")
        club = Club.objects.create(name="Templates", slug="templates", is_public=False)
        season = Season.objects.create(club=club, name="templates", start_date=SEASON_START)
        names = ["North", "East", "South", "West", "Centre"]
        seated = [Player.objects.create(club=club, name=name) for name in names]
        templates = {}
        for size, _weight in TABLE_SIZES:
            sheet = services.create_sheet(
                season=season, players=seated[:size], date=SEASON_START, table=str(size)
            )
            table_names = names[:size]
            rules = sheet.rules
            for i in range(per_size):
                data = random_hand(rng, table_names, rules, table_names[i % size])
                services.record_hand(sheet, data)
            position_of = {p.pk: i for i, p in enumerate(seated[:size])}
            rows_by_hand = {}
            for row in (
                ScoreRow.objects.filter(sheet=sheet)
                .order_by("hand_id", "position")
                .values("hand_id", *ROW_FROM_TEMPLATE)
            ):
                rows_by_hand.setdefault(row["hand_id"], []).append(row)
            templates[size] = [
                Template(hand, rows_by_hand[hand["id"]], position_of)
                for hand in Hand.objects.filter(sheet=sheet).values()
            ]
        return templates

    # ------------------------------------------------------------ bulk load

    def load(self, season, player_ids, n_hands, templates, rng):
        """Sheets, seats, hands and score rows for ``n_hands`` hands; returns the row count."""
        n_rows = 0
        self.fast_writes(True)
        put_back = self.drop_indexes([Hand, ScoreRow])
        try:
            for sheets, seats, hands, rows in self.batches(
                season, player_ids, n_hands, templates, rng
            ):
                with transaction.atomic():
                    self.write(Sheet, SHEET_COLUMNS, sheets)
                    self.write(Seat, ["sheet_id", "player_id", "position"], seats)
                    self.write(Hand, HAND_COLUMNS, hands)
                    self.write(ScoreRow, ROW_COLUMNS, rows)
                n_rows += len(rows)
                self.log(f"  … {n_rows:,} score rows")
        finally:
            self.fast_writes(False)
            with connection.cursor() as cursor:
                for sql in put_back:
                    cursor.execute(sql)
                for sql in connection.ops.sequence_reset_sql(no_style(), [Sheet, Hand]):
                    cursor.execute(sql)
        return n_rows

    def batches(self, season, player_ids, n_hands, templates, rng):
        """Rows to insert, about CHUNK_HANDS hands at a time: (sheets, seats, hands, rows)."""
        ops = connection.ops
        now = ops.adapt_datetimefield_value(timezone.now())
        rules = _json(parse_rules(season.rules).as_dict())
        next_sheet = (Sheet.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
        next_hand = (Hand.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
        sizes = [size for size, _ in TABLE_SIZES]
        weights = [weight for _, weight in TABLE_SIZES]
        tables_of_day = {}
        left = n_hands
        while left > 0:
            sheets, seats, hands, rows = [], [], [], []
            while left > 0 and len(hands) < CHUNK_HANDS:
                size = rng.choices(sizes, weights)[0]
                count = min(left, rng.randint(*HANDS_PER_SHEET))
                left -= count
                day = SEASON_START + datetime.timedelta(days=rng.randrange(SEASON_DAYS))
                tables_of_day[day] = tables_of_day.get(day, 0) + 1
                sheet_id, next_sheet = next_sheet, next_sheet + 1
                seated = rng.sample(player_ids, size)
                date = ops.adapt_datefield_value(day)
                sheets.append(
                    (
                        sheet_id,
                        season.club_id,
                        season.pk,
                        date,
                        str(tables_of_day[day]),
                        rules,
                        now,
                        size,
                        count,
                    )
                )
                seats.extend((sheet_id, pk, i) for i, pk in enumerate(seated))
                pool = templates[size]
                for number in range(1, count + 1):
                    template = pool[rng.randrange(len(pool))]
                    hands.append(template.hand(next_hand, sheet_id, number, seated, now))
                    rows.extend(
                        (next_hand, sheet_id, season.pk, seated[row[0]], date, size, *row, number)
                        for row in template.rows
                    )
                    next_hand += 1
            yield sheets, seats, hands, rows

    def drop_indexes(self, models):
        """Drop the big tables' secondary indexes (and, on PostgreSQL, unique
        constraints): building them once after the load beats maintaining them
        row by row. Returns the statements that put them back. Not inside a
        transaction (the tests load a few hundred hands with the indexes on)."""
        if connection.in_atomic_block:
            return []
        tables = [m._meta.db_table for m in models]
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                marks = ", ".join(["%s"] * len(tables))
                cursor.execute(
                    "SELECT name, sql FROM sqlite_master WHERE type = 'index' "
                    f"AND sql IS NOT NULL AND tbl_name IN ({marks})",
                    tables,
                )
                indexes = cursor.fetchall()
                constraints = []
            else:
                cursor.execute(
                    """SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)
                       FROM pg_constraint c
                       WHERE c.conrelid::regclass::text = ANY(%s) AND c.contype = 'u'""",
                    [tables],
                )
                constraints = cursor.fetchall()
                cursor.execute(
                    """SELECT i.indexname, i.indexdef FROM pg_indexes i
                       WHERE i.tablename = ANY(%s) AND NOT EXISTS (
                           SELECT 1 FROM pg_constraint c
                           WHERE c.conname = i.indexname AND c.contype IN ('p', 'u'))""",
                    [tables],
                )
                indexes = cursor.fetchall()
            for table, name, _definition in constraints:
                cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
            for name, _definition in indexes:
                cursor.execute(f'DROP INDEX "{name}"')
        return [definition for _name, definition in indexes] + [
            f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}'
            for table, name, definition in constraints
        ]

    def fast_writes(self, on):
        """Bulk-load settings for this throwaway database, this session only.

        PostgreSQL: no foreign-key triggers (the rows are generated consistent)
        and no wait for the WAL flush; SQLite: no fsync, no foreign-key checks,
        a 256 MB page cache.
        """
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(f"SET session_replication_role = {'replica' if on else 'DEFAULT'}")
                cursor.execute(f"SET synchronous_commit = {'off' if on else 'DEFAULT'}")
            elif connection.vendor == "sqlite" and not connection.in_atomic_block:
                cursor.execute(f"PRAGMA synchronous = {'OFF' if on else 'FULL'}")
                cursor.execute(f"PRAGMA foreign_keys = {'OFF' if on else 'ON'}")
                cursor.execute(f"PRAGMA cache_size = {-262144 if on else -2000}")  # KiB

    def write(self, model, columns, rows):
        # columns added to the model since (NOT NULL with a default): their default
        extra = [
            f
            for f in model._meta.concrete_fields
            if f.column not in columns and not f.null and not f.primary_key
        ]
        if extra:
            defaults = tuple(
                json.dumps(f.get_default())
                if f.get_internal_type() == "JSONField"
                else f.get_db_prep_save(f.get_default(), connection)
                for f in extra
            )
            columns = [*columns, *(f.column for f in extra)]
            rows = [(*row, *defaults) for row in rows]
        table = model._meta.db_table
        quote = connection.ops.quote_name
        names = ", ".join(quote(c) for c in columns)
        if connection.vendor == "postgresql":
            with (
                connection.cursor() as cursor,
                cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN") as copy,
            ):
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(columns))
            with connection.cursor() as cursor:
                cursor.executemany(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", rows)

    def analyse(self):
        """Statistics and the visibility map, as autovacuum keeps them on a live server,
        and the written pages flushed, so no background work runs while timing."""
        models = (Sheet, Seat, Hand, ScoreRow, SheetTotal, SheetFacts, SeasonTotal)
        tables = [m._meta.db_table for m in models]
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                for table in tables:
                    cursor.execute(f"VACUUM ANALYZE {connection.ops.quote_name(table)}")
                cursor.execute("CHECKPOINT")
            else:
                cursor.execute("ANALYZE")

    def check_totals(self, season):
        """Each hand's scores sum to zero, so the season's totals do too."""
        totals = SeasonTotal.objects.filter(season=season).values_list("score", flat=True)
        assert sum(totals) == 0, f"the season's totals sum to {sum(totals)}, not 0"

    # ------------------------------------------------------------ measure

    def measure(self, pages, requests):
        """Warm up, then ``requests`` rounds of one request per page; adds the median,
        the best time and the queries (of one more request) to each page."""
        client = Client()
        with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"]):
            for page in pages:
                for _ in range(3):  # connection, templates, the database's caches
                    assert client.get(page["url"]).status_code == 200, page["url"]
                page["times"] = []
            for _ in range(requests):
                for page in pages:
                    started = time.perf_counter()
                    response = client.get(page["url"])
                    page["times"].append(time.perf_counter() - started)
                    assert response.status_code == 200, page["url"]
            for page in pages:
                with CaptureQueriesContext(connection) as queries:
                    client.get(page["url"])
                page["queries"] = [q["sql"] for q in queries]
                page["median"] = statistics.median(page["times"]) * 1000
                page["best"] = min(page["times"]) * 1000
                if self.explain:
                    title = f"{page['hands']:,} hands, {page['label']}"
                    self.print_plans(title, page["queries"][-2:])

    def print_plans(self, title, queries):
        """The plans (EXPLAIN ANALYZE; on SQLite EXPLAIN QUERY PLAN) of the count and rows."""
        explain = "EXPLAIN ANALYZE" if connection.vendor == "postgresql" else "EXPLAIN QUERY PLAN"
        for sql in queries:
            with connection.cursor() as cursor:
                cursor.execute(f"{explain} {sql}")
                plan = "\n".join("    " + " ".join(map(str, row)) for row in cursor.fetchall())
            self.stdout.write(f"\n{title}\n  {sql[:160]}…\n{plan}")

    def report(self, vendor, results):
        loads, pages = results
        max_age = connection.settings_dict["CONN_MAX_AGE"]
        self.stdout.write(
            f"\nStandings page, {vendor} (DEBUG={settings.DEBUG}, CONN_MAX_AGE={max_age}; "
            "server time through django.test.Client, pages timed round-robin)\n"
        )
        header = (
            f"{'hands':>10}  {'score rows':>11}  {'page':<32} "
            f"{'median ms':>9}  {'best ms':>7}  {'queries':>7}"
        )
        self.stdout.write(header)
        self.stdout.write("-" * len(header))
        for page in pages:
            self.stdout.write(
                f"{page['hands']:>10,}  {page['rows']:>11,}  {page['label']:<32} "
                f"{page['median']:>9.1f}  {page['best']:>7.1f}  {len(page['queries']):>7}"
            )
        by_label = {}
        for page in pages:
            by_label.setdefault(page["label"], []).append(page)
        for label, same in by_label.items():
            if len(same) > 1:
                small, big = same[0], same[-1]
                self.stdout.write(
                    f"{label}: {big['hands']:,} / {small['hands']:,} hands, median time ratio "
                    f"{big['median'] / small['median']:.2f}"
                )
        for n_hands, _rows, loaded, rebuilt in loads:
            self.stdout.write(
                f"{n_hands:,} hands: bulk load {loaded:.1f} s, summary rebuild {rebuilt:.1f} s"
            )


SHEET_COLUMNS = [
    "id",
    "club_id",
    "season_id",
    "date",
    "table",
    "rules",
    "created_at",
    "seat_count",
    "hand_count",
]
