"""Benchmark the ratings: a club rated from scratch, a hand post, a correction.

    manage.py bench_ratings --hands 100000 1000000
    DATABASE_URL=postgres://… manage.py bench_ratings --hands 100000 1000000

In a database of its own (``benchmarks.database``), each size is a club loaded as
``bench_standings`` loads it (one season of 4- and 5-seat sheets of real engine
hands, bulk-inserted). Printed per size:

- ``from scratch``: the club's scope rated again from its whole ledger
  (``ratings.keeping.rerate``: read every row in order, rate, write the history and
  ratings), then its season's scope; and, of that, the rating alone (``ratings.compute`` on
  the rows already read, in memory) and the hands per second;
- ``hand post``: ``scoresheet.services.record_hand`` on a new 200-hand sheet dated
  after the others, ``--posts`` times with the ratings kept and as many without
  (their receiver disconnected), alternated: median time and queries of each;
- ``correction``: ``correct_hand`` of hand 1 of that 200-hand sheet (the ratings
  of the club and its season re-rated from it), with and without the ratings; and
  of hand 1 of the club's first sheet (every later hand re-rated: over
  ``keeping.BACKGROUND_HANDS`` rows, by the background task, timed apart)
  (``--no-corrections``: not run; ``--no-from-scratch``: the club's and season's
  ratings not made first, the posts' figures alone, the rows made by the first posts);
- ``league``: the club joins a league with a second, small member club (one of its
  players the same person as one at the club's new sheet): the league rated from
  scratch (the join's re-rating); then hand posts on that sheet, alternated: with
  the ratings off, kept (the league's rows added to in the club's statement), and
  kept as it once was (the league re-rated from the sheet on each post:
  ``identity_of`` taken off its kind): median time and queries of each.
"""

import dataclasses
import datetime
import random
import statistics
import time

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from benchmarks.database import own_database
from benchmarks.management.commands import bench_standings
from clubs.models import Club, Membership, Person, Player, Role
from leagues import rating_scope as league_ratings
from leagues import services as league_services
from ratings import keeping, scopes
from ratings.compute import Rater
from ratings.models import Rating, Recompute
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
        parser.add_argument("--no-corrections", action="store_true")
        parser.add_argument(
            "--no-from-scratch",
            action="store_true",
            help="rate the club only through the league's join (the posts' figures alone)",
        )

    def handle(
        self, *args, hands, players, posts, seed, no_corrections, no_from_scratch, **options
    ):
        self.verbosity = options["verbosity"]
        vendor = connection.vendor
        with own_database("bench_ratings", log=self.log):
            rng = random.Random(seed)
            templates = self.record_templates(rng)
            for n_hands in sorted(hands):
                club, season, _load = self.fill_club(n_hands, players, templates, rng)
                self.analyse()
                self.out(f"\n{vendor}, {n_hands:,} hands, {players} players")
                if not no_from_scratch:
                    self.from_scratch(club, season, n_hands)
                sheet = self.posts_and_corrections(club, season, posts, not no_corrections)
                self.league_posts(club, sheet, posts)

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
                f"rating {rated:.1f} s ({rated / n_hands * 1e6:.1f} µs a hand)"
            )

    def timed_posts(self, sheet, data, posts, modes):
        """``posts`` hand posts on ``sheet`` per mode, the modes alternated: mode →
        (median ms, median queries, median CPU ms of this process: on a loaded machine
        the wall time is loose). A mode is a context manager (or None)."""
        timed = {mode: [] for mode in modes}
        cpu = {mode: [] for mode in modes}
        queries = {mode: [] for mode in modes}
        for _ in range(posts):
            for mode, within in modes.items():
                connection.queries_log.clear()  # a bounded log: counts past its end are wrong
                with CaptureQueriesContext(connection) as captured:
                    started, started_cpu = time.perf_counter(), time.process_time()
                    if within is None:
                        services.record_hand(sheet, data)
                    else:
                        with within():
                            services.record_hand(sheet, data)
                    timed[mode].append(time.perf_counter() - started)
                    cpu[mode].append(time.process_time() - started_cpu)
                queries[mode].append(len(captured.captured_queries))
        return {
            mode: (
                statistics.median(timed[mode]) * 1000,
                statistics.median(queries[mode]),
                statistics.median(cpu[mode]) * 1000,
            )
            for mode in modes
        }

    def league_posts(self, club, sheet, posts):
        manager = Membership.objects.filter(club=club, role=Role.MANAGER).first()
        if manager is None:
            user = get_user_model().objects.create_user(f"bench-{club.pk}", password="x" * 16)
            manager = Membership.objects.create(club=club, user=user, role=Role.MANAGER)
        other = Club.objects.create(name=f"{club.name} (2)", slug=f"{club.slug}-2")
        other_manager = get_user_model().objects.create_user(f"bench-{other.pk}", password="x" * 16)
        Membership.objects.create(club=other, user=other_manager, role=Role.MANAGER)
        seated = list(sheet.seats.order_by("position").values_list("player_id", flat=True))
        twin = Player.objects.create(club=other, name="Twin")
        league = league_services.create_league(f"League {club.pk}", f"league-{club.pk}")
        person = Person.objects.create(licence=f"B-{club.pk}", name="Twin")
        # linked before the join (no signal: the league rated once, by the club's join)
        Player.objects.filter(pk__in=[seated[0], twin.pk]).update(person=person)
        started = time.perf_counter()
        with transaction.atomic():
            for member, user in ((other, other_manager), (club, manager.user)):
                link = league_services.invite_club(league, member)
                league_services.accept_invitation(link, actor=user)  # the league rated
        joined = time.perf_counter() - started
        key = league_ratings.key(league.pk)
        # over ``keeping.BACKGROUND_HANDS`` hands the join left the league to the
        # background task: run it here, timed apart
        started = time.perf_counter()
        waiting = list(Recompute.objects.values_list("scope", flat=True))
        for scope in waiting:
            keeping.recompute.call(scope)
        background = time.perf_counter() - started
        rated = Rating.objects.filter(scope=key).count()
        later = f", then rated from scratch in the background in {background:.1f} s"
        self.out(
            f"  league joined, a person linked across its clubs: {joined:.1f} s in the "
            f"request{later if waiting else ''} ({rated} persons rated)"
        )
        data = dict(HAND, dealer=sheet.seats.get(position=0).player.name)
        data["taker"] = sheet.seats.get(position=1).player.name
        kind = scopes._REGISTERED[league_ratings.KIND]

        class re_rated:
            """Within the block, a new hand re-rates the league from its sheet (the path
            in its earlier form)."""

            def __enter__(self):
                scopes._REGISTERED[league_ratings.KIND] = dataclasses.replace(
                    kind, identity_of=None
                )

            def __exit__(self, *exc):
                scopes._REGISTERED[league_ratings.KIND] = kind

        for _ in range(2):  # the first hands after the join read and write
            services.record_hand(sheet, data)
        # kept and off alternated; then re-rated and off (a re-rating rewrites the rows:
        # a kept post after it would read them again)
        figures = self.timed_posts(sheet, data, posts, {"off": ratings_off, "kept": None})
        figures.update(self.timed_posts(sheet, data, posts, {"re-rated": re_rated}))
        for mode, (ms, queries, cpu) in figures.items():
            self.out(
                f"  hand post in a league, ratings {mode:8}: median {ms:.2f} ms "
                f"({cpu:.2f} ms CPU), "
                f"{queries:.0f} queries ({posts} posts)"
            )

    def posts_and_corrections(self, club, season, posts, corrections=True):
        players = list(Player.objects.filter(club=club).order_by("name")[:4])
        last = Sheet.objects.filter(club=club).order_by("-date").values_list("date", flat=True)[0]
        sheet = services.create_sheet(
            season=season, players=players, date=last + datetime.timedelta(days=1), table="new"
        )
        data = dict(HAND, dealer=players[0].name, taker=players[1].name)
        for _ in range(200):
            services.record_hand(sheet, data)
        figures = self.timed_posts(sheet, data, posts, {"off": ratings_off, "kept": None})
        for mode in ("off", "kept"):
            ms, queries, cpu = figures[mode]
            self.out(
                f"  hand post, ratings {mode:4}: median {ms:.2f} ms ({cpu:.2f} ms CPU), "
                f"{queries:.0f} queries ({posts} posts)"
            )
        # the extra hands re-rated in (the ratings of those posted without them)
        with transaction.atomic():
            keeping.rerate_club(club.pk, [sheet])
        if not corrections:
            return sheet
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
        return sheet
