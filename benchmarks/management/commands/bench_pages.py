"""Time every page a user reaches on a club of 10,000 to 1,000,000 hands, beside a neighbour.

    DATABASE_URL=postgres://… manage.py bench_pages --hands 10000 1000000

In a database of its own (created and dropped like ``bench_standings``, whose bulk
loader it reuses: real engine hands copied onto generated sheets, COPY on
PostgreSQL), a *small* club of the first size is loaded and its pages timed; then
each bigger club is loaded beside it and both are timed again, so the report
gives each page's big/small ratio and the effect of the big neighbour on the
small club (its own data unchanged). Each club also gets a 250-hand sheet at four
seats and one at six (through the bulk import, so their rows are the services').
Pages: a player's season and all-seasons statistics (from the statistics cache,
and once with the cache cleared), the club's season statistics (likewise), the
standings in every sort and a month/4-seat filter, the CSV export, the sheet list
in every sort, the 250-hand sheets (four and six seats) and the first one's JSON
export, and the ranking of a 20-player club tournament (3 rounds, played through
the services), and the season's exports (JSON Lines, XLSX, CSV: streamed, read to
their end). Printed per page: median server time
(``django.test.Client``), queries and size in KB; and the ratios.

The small club alone is timed in a copy of the database taken before the bigger
clubs are loaded (PostgreSQL ``CREATE DATABASE … TEMPLATE``, or the SQLite
file), so that every state of a page is timed in the same rounds, one after the
other, and each ratio is the median of the per-round ratios: on a machine whose
speed drifts minute to minute, a ratio of medians taken minutes apart measures
the drift as much as the page.
"""

import datetime
import gc
import json
import os
import random
import shutil
import statistics
import time

from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmarks.management.commands import bench_standings, bench_tournament
from clubs.models import Player
from scoresheet import importing
from scoresheet.demo import random_hand
from scoresheet.models import Sheet
from tarot.jsonformat import parse_rules
from tournaments import services as tournaments

STANDINGS_SORTS = ["", "?sort=-total", "?sort=-average", "?sort=-hands", "?sort=player"]
SHEET_SORTS = ["", "?sort=-hands", "?sort=hands", "?sort=-players", "?sort=date"]


class Command(bench_standings.Command):
    help = "Time every page at N hands, with a big neighbour club (own database, dropped)."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.set_defaults(requests=7)

    def run(self, sizes, n_players, requests, rng):
        """Load the small club and keep a copy of the database as it is then
        (``snapshot``); load each bigger club beside it (a copy after each but the
        last). Then time every page in rounds, each round visiting every state one
        after the other: the small club alone, beside each bigger club, and each
        bigger club. A ratio is the median of the ratios within the rounds (taken
        seconds apart), so the machine's speed, which drifts by a fifth from one
        minute to the next, does not enter it."""
        templates = self.record_templates(rng)
        small_size, bigger = sizes[0], sizes[1:]
        loads, snapshots = [], []
        small = self.fill(small_size, n_players, templates, rng, loads)
        self.analyse()
        states = []  # (database: a snapshot's name, None for the live one; its clubs)
        try:
            if bigger:
                snapshots.append(self.snapshot("alone"))
            states.append((snapshots[-1] if bigger else None, [(f"{small_size:,}", small)]))
            for i, size in enumerate(bigger):
                big = self.fill(size, n_players, templates, rng, loads)
                self.analyse()
                last = i == len(bigger) - 1
                if not last:
                    snapshots.append(self.snapshot(f"beside{i}"))
                clubs = [(f"{small_size:,} beside {size:,}", small), (f"{size:,}", big)]
                states.append((None if last else snapshots[-1], clubs))
            return loads, self.time_pages(states, requests)
        finally:
            self.use_database(None)
            for name in snapshots:
                self.drop_snapshot(name)

    # ------------------------------------------------------------ database states

    def snapshot(self, suffix):
        """A copy of the database as it is now (PostgreSQL: ``CREATE DATABASE …
        TEMPLATE``; SQLite: the file); returns its name."""
        self.live = getattr(self, "live", connection.settings_dict["NAME"])
        name = f"{self.live}_{suffix}"
        connection.close()
        if connection.vendor == "postgresql":
            quote = connection.ops.quote_name
            with connection._nodb_cursor() as cursor:
                cursor.execute(f"DROP DATABASE IF EXISTS {quote(name)}")
                cursor.execute(f"CREATE DATABASE {quote(name)} TEMPLATE {quote(self.live)}")
        else:
            shutil.copyfile(self.live, name)
        return name

    def drop_snapshot(self, name):
        connection.close()
        if connection.vendor == "postgresql":
            with connection._nodb_cursor() as cursor:
                cursor.execute(f"DROP DATABASE IF EXISTS {connection.ops.quote_name(name)}")
        elif os.path.exists(name):
            os.remove(name)

    def use_database(self, name):
        """Point the connection at a snapshot (``None``: the live database), connected
        before any timing starts."""
        wanted = name or getattr(self, "live", connection.settings_dict["NAME"])
        if connection.settings_dict["NAME"] != wanted:
            connection.close()
            connection.settings_dict["NAME"] = wanted
        connection.ensure_connection()

    def fill(self, n_hands, n_players, templates, rng, loads):
        club, season, load = self.fill_club(n_hands, n_players, templates, rng)
        loads.append(load)
        player = Player.objects.filter(club=club).order_by("pk").first()
        names = [p.name for p in Player.objects.filter(club=club).order_by("pk")[:6]]
        rules = parse_rules(season.rules).as_dict()
        sheets = {}
        for seats in (4, 6):  # six seats: the widest sheet (the dealer sits out)
            seated = names[:seats]
            hands = [random_hand(rng, seated, rules, seated[i % seats]) for i in range(250)]
            line = json.dumps(
                {
                    "players": seated,
                    "hands": hands,
                    "date": str(season.start_date),
                    "table": f"250 ×{seats}",
                },
                default=float,
            )
            [result] = importing.import_sheets(club, [line], season=season)
            assert result.ok, result.message
            sheets[seats] = result.sheet
        return {
            "club": club,
            "season": season,
            "player": player,
            "sheet": sheets[4],
            "sheet6": sheets[6],
            "tournament": self.tournament(club),
        }

    def tournament(self, club):
        """A club tournament of 20 of its players, 3 rounds of 4 deals, played through the
        services (its ranking reads its own tables, whatever the club's ledger)."""
        players = list(Player.objects.filter(club=club).order_by("pk")[:20])
        tournament = tournaments.create_tournament(
            club,
            name="Bench cup",
            date=bench_standings.SEASON_START + datetime.timedelta(days=200),
            rules="fft",
            rounds=3,
            deals_per_round=4,
            seed=1,
        )
        tournaments.register(tournament, [("member", p) for p in players])
        tournaments.draw_schedule(tournament)
        for rnd in tournament.round_set.order_by("number"):
            tournaments.start_round(rnd)
            bench_tournament.play_tables(tournament, rnd)
            tournaments.close_round(rnd)
        return tournament

    def pages(self, c):
        club, season, player, sheet = c["club"], c["season"], c["player"], c["sheet"]
        slug = club.slug
        stand = reverse("standings:season", args=[slug, season.pk])
        month = bench_standings.SEASON_START + datetime.timedelta(days=120)
        one_month = f"date_from={month}&date_to={month + datetime.timedelta(days=30)}&seats=4"
        sheets = reverse("scoresheet:sheets", args=[slug])
        pages = [
            (
                "player season stats",
                reverse("stats:player_season", args=[slug, player.pk, season.pk]),
            ),
            ("player all-seasons stats", reverse("stats:player", args=[slug, player.pk])),
            ("club season stats", reverse("stats:season", args=[slug, season.pk])),
        ]
        pages += [(f"standings {s or 'rank'}", stand + s) for s in STANDINGS_SORTS]
        pages += [
            ("standings 1 month, 4 seats", f"{stand}?{one_month}"),
            ("standings all seasons", reverse("standings:club", args=[slug])),
            ("standings CSV export", stand + "?_export=csv"),
        ]
        pages += [(f"sheet list {s or 'date'}", sheets + s) for s in SHEET_SORTS]
        pages += [
            ("250-hand sheet", reverse("scoresheet:sheet", args=[slug, sheet.pk])),
            ("250-hand sheet, 6 seats", reverse("scoresheet:sheet", args=[slug, c["sheet6"].pk])),
            ("250-hand sheet JSON", reverse("scoresheet:sheet_export", args=[slug, sheet.pk])),
            ("tournament ranking", reverse("tournaments:ranking", args=[slug, c["tournament"].pk])),
            # the season's exports and the club's backup, streamed (transfer.streams)
            ("season export JSON Lines", reverse("transfer:season_jsonl", args=[slug, season.pk])),
            ("season export XLSX", reverse("transfer:season_xlsx", args=[slug, season.pk])),
            ("season export CSV", reverse("transfer:season_csv", args=[slug, season.pk])),
        ]
        return pages

    def time_pages(self, states, requests):
        """Every page of every club in every state: two requests, then ``requests``
        rounds; in each round every state's request of the page, one after the other,
        and for a statistics page one more with the statistics cache cleared first
        (``cold``: what the first reader after a write waits for). Returns a row per
        (club, page) with its times (and cold times) in round order."""
        client = Client()
        rows = {}
        # what the loading left is kept out of the collector's rounds, as the server's
        # start is (config/wsgi.py): a full collection over the loader's objects
        # would otherwise land in some request's time
        gc.collect()
        gc.freeze()
        with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"]):
            visits = []  # (database, club label, page name, url)
            for database, clubs in states:
                self.use_database(database)
                for label, c in clubs:
                    visits += [(database, label, name, url) for name, url in self.pages(c)]
            names = list(dict.fromkeys(name for _db, _label, name, _url in visits))
            for page in names:
                mine = [v for v in visits if v[2] == page]
                for database, label, name, url in mine:
                    self.use_database(database)
                    response = client.get(url)
                    assert response.status_code == 200, (url, response.status_code)
                    body(response)
                    with CaptureQueriesContext(connection) as queries:
                        size = body(client.get(url))
                    rows[(label, name)] = {
                        "club": label,
                        "page": name,
                        "cold": None,
                        "queries": len(queries),
                        "kb": size / 1024,
                        "times": [],
                        "cold_times": [],
                    }
                for _ in range(requests):
                    for database, label, name, url in mine:
                        self.use_database(database)
                        row = rows[(label, name)]
                        if "stats" in name:  # the first request after a write
                            caches["stats"].clear()
                            started = time.perf_counter()
                            client.get(url)
                            row["cold_times"].append(time.perf_counter() - started)
                        started = time.perf_counter()
                        body(client.get(url))  # a streamed export: read to its end
                        row["times"].append(time.perf_counter() - started)
                for _database, label, name, _url in mine:
                    row = rows[(label, name)]
                    row["median"] = statistics.median(row["times"]) * 1000
                    if row["cold_times"]:
                        row["cold"] = statistics.median(row["cold_times"]) * 1000
                    self.log(f"  {label:>24} {name:<28} {row['median']:8.1f} ms")
        self.use_database(None)
        return list(rows.values())

    def report(self, vendor, results):
        loads, rows = results
        self.stdout.write(
            f"\nPages, {vendor} (DEBUG={settings.DEBUG}; median server time through "
            "django.test.Client, every state of a page timed in the same rounds; "
            "'cold': statistics computed, cache empty, in the same rounds)\n"
        )
        header = (
            f"{'club (hands)':>26}  {'page':<28} {'ms':>8} {'cold ms':>8} {'queries':>7} {'KB':>7}"
        )
        self.stdout.write(header)
        self.stdout.write("-" * len(header))
        for r in rows:
            cold = f"{r['cold']:8.1f}" if r["cold"] is not None else " " * 8
            self.stdout.write(
                f"{r['club']:>26}  {r['page']:<28} {r['median']:8.1f} {cold} "
                f"{r['queries']:>7} {r['kb']:7.1f}"
            )
        by = {}
        for r in rows:
            by.setdefault(r["club"], {})[r["page"]] = r
        labels = list(by)
        small = labels[0]
        self.stdout.write(
            "\nratios: the median of the per-round ratios (each round times both pages "
            "seconds apart)"
        )
        for other in labels[1:]:
            what = "neighbour effect" if "beside" in other else "ratio"
            ratios = {
                page: round_ratio(by[other][page]["times"], by[small][page]["times"])
                for page in by[small]
            }
            for page in by[small]:
                if by[small][page]["cold_times"]:
                    ratios[f"{page} (cold)"] = round_ratio(
                        by[other][page]["cold_times"], by[small][page]["cold_times"]
                    )
            worst = max((ratio, page) for page, ratio in ratios.items())
            self.stdout.write(f"{what} {other} / {small}: worst {worst[0]:.2f} ({worst[1]})")
            for page, ratio in ratios.items():
                self.stdout.write(f"    {page:<28} {ratio:5.2f}")
        slow = [f"{r['club']}: {r['page']} {r['median']:.0f} ms" for r in rows if r["median"] > 300]
        slow += [
            f"{r['club']}: {r['page']} {r['cold']:.0f} ms cold"
            for r in rows
            if r["cold"] is not None and r["cold"] > 300
        ]
        heavy = [f"{r['club']}: {r['page']} {r['kb']:.0f} KB" for r in rows if r["kb"] > 500]
        worst = max(rows, key=lambda r: r["median"])
        self.stdout.write(
            f"slowest page: {worst['club']}: {worst['page']} {worst['median']:.1f} ms; "
            f"over 300 ms: {', '.join(slow) or 'none'}; over 500 KB: {', '.join(heavy) or 'none'}"
        )
        for n_hands, _rows, loaded, rebuilt in loads:
            self.stdout.write(
                f"{n_hands:,} hands: bulk load {loaded:.1f} s, summary rebuild {rebuilt:.1f} s"
            )


def body(response) -> int:
    """The response's size in bytes, a streamed one read to its end (its time counts)."""
    if response.streaming:
        return sum(len(chunk) for chunk in response.streaming_content)
    return len(response.content)


def round_ratio(times, base_times) -> float:
    """The median of ``times[i] / base_times[i]``: two pages timed in the same rounds."""
    return statistics.median(t / b for t, b in zip(times, base_times, strict=True))


__all__ = ["Command", "random", "Sheet"]
