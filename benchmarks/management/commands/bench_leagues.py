"""Time the league pages at federation scale, and a club's own pages beside the league.

    DATABASE_URL=postgres://… manage.py bench_leagues [--clubs 300] [--players 30]
        [--events 2000] [--field 24] [--requests 9]

In a database of its own (``benchmarks.database.own_database``, dropped afterwards):
two clubs get the same season of real sheets (through the services, from the same
seed); one of them joins a league loaded beside it in bulk, the other stays out:
``--clubs`` member clubs of ``--players`` licensed players each (a person per player,
linked again to a guest record in another member club), each club's season totals,
``--events`` closed tournaments counted in one league season with ``--field`` stored
results each (random persons, random ranks, a points table, best 10 counted, the first
8 of each série qualified), the season's standings summed once. Printed: the time to
sum an event's persons again (what closing or withdrawing an event writes), then the
median server time (``django.test.Client``) and queries of the league ranking (every
person, one série, one club), the home, an event's results, a person's page; and the
club pages of both clubs, timed in the same rounds, with the ratio in/out of the league
(the median of the rounds' ratios, so the machine's drift does not enter it).
"""

import datetime
import random
import statistics
import sys
import time
from decimal import Decimal
from fractions import Fraction

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmarks.database import own_database
from clubs.models import Club, Person, Player, Season
from leagues import scales, season_standings
from leagues import services as leagues
from leagues.models import EventResult, LeagueClub, LeagueEvent, LeagueSeason
from scoresheet import services as sheets
from scoresheet.models import SeasonTotal
from tournaments.models import Tournament

SERIES = ["Open", "1ère", "2ème", "Promotion"]
SCALE = {"kind": "table", "tables": [{"from": 1, "points": list(range(30, 0, -1))}]}


class Command(BaseCommand):
    help = "Time the league ranking, a person's page and a club's pages at federation scale."

    def add_arguments(self, parser):
        parser.add_argument("--clubs", type=int, default=300)
        parser.add_argument("--players", type=int, default=30)
        parser.add_argument("--events", type=int, default=2000)
        parser.add_argument("--field", type=int, default=24)
        parser.add_argument("--requests", type=int, default=9)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--profile", action="store_true", help="print cProfile's top functions of a ranking"
        )

    def handle(self, *args, **options):
        self.options = options
        with own_database("leagues", log=self.stdout.write):
            self.run(random.Random(options["seed"]))

    def run(self, rng):
        seed = self.options["seed"]
        # two clubs of the same data (the same generator's seed): one joins the league,
        # the other stays out of it; their pages are timed in the same rounds
        club = self.home_club(random.Random(seed), "000")
        solo = self.home_club(random.Random(seed), "solo")
        started = time.perf_counter()
        league, season, person = self.load_league(club, rng)
        loaded = time.perf_counter() - started
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("ANALYZE")
        self.stdout.write(
            f"loaded {Club.objects.count():,} clubs, {Player.objects.count():,} players, "
            f"{Person.objects.count():,} persons, {LeagueEvent.objects.count():,} events, "
            f"{EventResult.objects.count():,} stored results in {loaded:.1f} s"
        )
        event = season.events.order_by("pk").first()
        times, cpu = [], []
        for _ in range(self.options["requests"]):
            started, started_cpu = time.perf_counter(), time.process_time()
            with transaction.atomic():
                season_standings.restand(season, event.results.values_list("person_id", flat=True))
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        self.stdout.write(
            f"an event's {event.results.count()} persons summed again on write "
            f"(its closing, a withdrawal): {statistics.median(times):.1f} ms, "
            f"cpu {statistics.median(cpu):.1f} ms"
        )
        league_pages = [
            ("league ranking", reverse("leagues:ranking", args=[league.slug, season.pk])),
            (
                "league ranking, one série",
                reverse("leagues:ranking", args=[league.slug, season.pk]) + "?serie=Open",
            ),
            (
                "league ranking, one club",
                reverse("leagues:ranking", args=[league.slug, season.pk]) + f"?club={club.pk}",
            ),
            ("league home", reverse("leagues:home", args=[league.slug])),
            ("an event's results", reverse("leagues:event", args=[league.slug, event.pk])),
            ("a person's page", reverse("leagues:person", args=[person.pk])),
            # the season's exports, whole in the request (rows read with ``values``)
            ("export: season JSON", reverse("leagues:season_json", args=[league.slug, season.pk])),
            ("export: results CSV", reverse("leagues:season_csv", args=[league.slug, season.pk])),
            (
                "export: ranking XLSX",
                reverse("leagues:ranking", args=[league.slug, season.pk]) + "?_export=xlsx",
            ),
        ]
        if self.options["profile"]:
            self.profile(league_pages[0][1])
        inside, outside = self.club_pages(club), self.club_pages(solo)
        measured = self.measure(
            league_pages
            + [(f"in {label}", url) for label, url in inside]
            + [(f"out {label}", url) for label, url in outside]
        )
        vendor = connection.vendor
        self.stdout.write(
            f"\n{vendor}, DEBUG={settings.DEBUG}, {self.options['requests']} requests a page "
            "(median server time, ms; the median CPU time of this process, ms; queries)"
        )
        for label, _url in league_pages:
            median, queries, _times, cpu = measured[label]
            self.stdout.write(
                f"  {label:<32} {median:8.1f} ms  cpu {cpu:7.1f} ms  {queries:3d} queries"
            )
        self.stdout.write(
            "\na club's own pages: the same data out of the league → in it, timed in the "
            "same rounds (ratio: the median of the rounds' ratios)"
        )
        for label, _url in inside:
            out_median, q1, out_times, _cpu = measured[f"out {label}"]
            in_median, q2, in_times, _cpu = measured[f"in {label}"]
            ratio = statistics.median(b / a for a, b in zip(out_times, in_times, strict=True))
            self.stdout.write(
                f"  {label:<32} {out_median:7.1f} → {in_median:7.1f} ms  ×{ratio:4.2f}"
                f"  queries {q1} → {q2}"
            )

    # ------------------------------------------------------------ data

    def home_club(self, rng, key) -> Club:
        """A club whose pages are timed: 30 players, a season of 60 sheets of 10 hands."""
        club = Club.objects.create(name=f"Club {key}", slug=f"club-{key}")
        season = Season.objects.create(club=club, name="2026", start_date=datetime.date(2026, 1, 1))
        players = [Player.objects.create(club=club, name=f"P-{i:02d}") for i in range(30)]
        for n in range(60):
            seated = rng.sample(players, 4)
            names = [p.name for p in seated]
            sheet = sheets.create_sheet(
                season=season, players=seated, date=datetime.date(2026, 1, 1 + n % 28)
            )
            for i in range(10):
                sheets.record_hand(
                    sheet,
                    {
                        "dealer": names[i % 4],
                        "taker": names[(i + 1) % 4],
                        "contract": rng.choice(["prise", "garde"]),
                        "bouts": rng.randint(0, 3),
                        "points": rng.randint(20, 70),
                    },
                )
        return club

    def club_pages(self, club):
        player = club.players.first()
        return [
            ("club home", reverse("clubs:detail", args=[club.slug])),
            ("club standings", reverse("standings:club", args=[club.slug])),
            ("club player statistics", reverse("stats:player", args=[club.slug, player.pk])),
            ("club players", reverse("clubhouse:players", args=[club.slug])),
            ("club tournaments", reverse("tournaments:list", args=[club.slug])),
        ]

    def load_league(self, home, rng):
        league = leagues.create_league("Fédération", "federation")
        leagues.set_series(league, SERIES)
        day = datetime.date(2025, 9, 1)
        with transaction.atomic():
            clubs, persons = self.load_clubs(league, home, rng, day)
            lseason = LeagueSeason.objects.create(
                league=league,
                name="2025-2026",
                start_date=day,
                end_date=datetime.date(2026, 6, 30),
                scale=scales.parse_scale(SCALE),
                best_events=10,
                qualified=8,
            )
            results = self.load_events(clubs, persons, lseason, rng, day)
            started = time.perf_counter()
            season_standings.restand(lseason)
            self.stdout.write(
                f"the season's standings summed from {len(results):,} results in "
                f"{(time.perf_counter() - started) * 1000:.0f} ms"
            )
        return league, lseason, persons[0]

    def load_clubs(self, league, home, rng, day):
        """The member clubs (``home`` first) with their season, licensed players, guest
        records and season totals; returns the clubs and the persons."""
        o = self.options
        clubs = [home] + Club.objects.bulk_create(
            Club(name=f"Club {i:03d}", slug=f"club-{i:03d}") for i in range(1, o["clubs"])
        )
        LeagueClub.objects.bulk_create(
            LeagueClub(league=league, club=c, accepted_at=datetime.datetime.now(datetime.UTC))
            for c in clubs
        )
        seasons = Season.objects.bulk_create(
            Season(club=c, name="2026", start_date=day) for c in clubs[1:]
        )
        seasons = [home.seasons.get()] + seasons
        persons = Person.objects.bulk_create(
            Person(
                name=f"Licencié {i:05d}",
                sort_key=f"licencie {i:05d}",
                licence=f"{i:07d}",
                serie=rng.choice(SERIES),
            )
            for i in range(len(clubs) * o["players"])
        )
        own = list(home.players.order_by("pk"))
        for p, person in zip(own, persons, strict=False):
            p.person = person
        Player.objects.bulk_update(own, ["person"])
        new_players = []
        for ci, c in enumerate(clubs[1:], start=1):
            for k in range(o["players"]):
                person = persons[ci * o["players"] + k]
                new_players.append(Player(club=c, name=person.name, person=person))
        # each person also has a guest record in another club (linked, not merged)
        for i, person in enumerate(persons):
            # never the timed club: its own data stays as it was
            host = clubs[1 + (i // o["players"] + i % 7) % (len(clubs) - 1)]
            new_players.append(Player(club=host, name=f"{person.name} (invité)", person=person))
        Player.objects.bulk_create(new_players, batch_size=2000)
        totals = []
        for c, s in zip(clubs[1:], seasons[1:], strict=True):
            for p in Player.objects.filter(club=c, name__endswith="").order_by("pk")[
                : o["players"]
            ]:
                totals.append(
                    SeasonTotal(
                        season=s,
                        player=p,
                        seated=10,
                        sheets=10,
                        hands=100,
                        taken=20,
                        made=12,
                        score=Decimal(rng.randint(-500, 500)),
                    )
                )
        SeasonTotal.objects.bulk_create(totals, batch_size=2000)
        return clubs, persons

    def load_events(self, clubs, persons, lseason, rng, day):
        """The season's closed tournaments counted as league events, and their results."""
        o = self.options

        def host(e):  # never the timed club
            return clubs[1 + e % (len(clubs) - 1)]

        t_seasons = Season.objects.bulk_create(
            Season(
                club=host(e),
                kind="tournament",
                name=f"T{e}",
                start_date=day,
            )
            for e in range(o["events"])
        )
        tournaments_ = Tournament.objects.bulk_create(
            Tournament(
                club=host(e),
                season=s,
                name=f"Tournoi {e}",
                date=day + datetime.timedelta(days=e % 300),
                rounds=3,
                deals_per_round=4,
                state="closed",
            )
            for e, s in enumerate(t_seasons)
        )
        now = datetime.datetime.now(datetime.UTC)
        events = LeagueEvent.objects.bulk_create(
            LeagueEvent(
                season=lseason,
                tournament=t,
                coefficient=Decimal(rng.choice(["1", "1", "1.5", "2"])),
                field_size=o["field"],
                results_at=now,
            )
            for t in tournaments_
        )
        results = []
        for event in events:
            field = rng.sample(persons, o["field"])
            ranks = sorted(rng.randint(1, o["field"]) for _ in field)
            points = scales.points_of_ranks(lseason.scale, ranks)
            for person, r, p in zip(field, ranks, points, strict=True):
                weighted = Decimal(p.numerator) / p.denominator * event.coefficient
                results.append(
                    EventResult(
                        event=event,
                        season=lseason,
                        person=person,
                        name=person.name,
                        rank=r,
                        total=Decimal(0),
                        points=Decimal(p.numerator) / p.denominator,
                        weighted=weighted,
                        exact=str(p * Fraction(str(event.coefficient))),
                    )
                )
        EventResult.objects.bulk_create(results, batch_size=5000)
        return results

    # ------------------------------------------------------------ timing

    def profile(self, url):
        import cProfile  # noqa: PLC0415 (only with --profile)
        import pstats  # noqa: PLC0415

        client = Client()
        with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"]):
            client.get(url)
            profiler = cProfile.Profile()
            profiler.enable()
            client.get(url)
            profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(20)

    def measure(self, pages):
        """Three warm-up requests a page, then rounds of one request per page: the median
        (ms), the queries of one more request, the times and the median CPU time of this
        process (ms: the database server's work is not in it), by label."""
        client = Client()
        out, times = {}, {label: [] for label, _ in pages}
        cpus = {label: [] for label, _ in pages}
        with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"]):
            for _label, url in pages:
                for _ in range(3):
                    assert client.get(url).status_code == 200, url
            for _ in range(self.options["requests"]):
                for label, url in pages:
                    started, cpu = time.perf_counter(), time.process_time()
                    response = client.get(url)
                    times[label].append(time.perf_counter() - started)
                    cpus[label].append(time.process_time() - cpu)
                    assert response.status_code == 200, url
            for label, url in pages:
                with CaptureQueriesContext(connection) as queries:
                    client.get(url)
                out[label] = (
                    statistics.median(times[label]) * 1000,
                    len(queries),
                    times[label],
                    statistics.median(cpus[label]) * 1000,
                )
        return out
