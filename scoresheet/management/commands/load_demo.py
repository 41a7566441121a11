"""A demo club with a season of realistic sheets, generated reproducibly."""

import datetime
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs.models import Club, Membership, Player, Role, Season
from scoresheet import services
from scoresheet.demo import random_hand

SLUG = "demo"
PLAYERS = [
    "Amélie",
    "Bastien",
    "Chloé",
    "Denis",
    "Élodie",
    "François",
    "Gaëlle",
    "Hugo",
    "Inès",
    "Julien",
    "Karine",
    "Louis",
    "Margot",
    "Nicolas",
    "Olivier",
]
DEMO_USER = ("scorer", "tarot-scorer-demo")
# (seats, rules or None for the season's, forced events for the first hands)
TABLES = [
    (
        4,
        None,
        [
            "petit_au_bout_attack",
            "petit_au_bout_defence",
            "poignee_single",
            "poignee_double",
            "poignee_triple",
            "chelem_announced",
            "passed",
        ],
    ),
    (5, None, ["chelem_unannounced", "chelem_defence"]),
    (3, None, []),
]
SPECIAL = [  # one evening each: pools, the misère option, a six-seat table
    (4, {"preset": "mouches"}, ["passed"]),
    (4, {"preset": "fft", "misere": 10, "rounding": 10}, ["misere"]),
    (6, None, []),
]


# The Savoyard season's tables: (seats, its first hands; declarer and partner as
# the number of seats after the dealer).
SAVOYARD_TABLES = [
    (
        5,
        [
            {"mode": "call", "partner": 3, "count": 40, "baga": {"to": "declarers"}},
            {"mode": "solo", "declarer": 2, "cards_asked": 0, "count": 52},
            {"mode": "call", "partner": 1, "count": 34},
            {"mode": "solo", "declarer": 1, "cards_asked": 1, "count": 30},
        ],
    ),
    (3, [{"mode": "solo", "declarer": 1, "cards_asked": 2, "count": 45}]),
]


class Command(BaseCommand):
    help = "Load the demo club (idempotent; --reset rebuilds it)."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="delete and rebuild the demo")
        parser.add_argument("--seed", type=int, default=1902)
        parser.add_argument("--evenings", type=int, default=8)

    def handle(self, *args, reset, seed, evenings, **options):
        User = get_user_model()
        user = User.objects.filter(username=DEMO_USER[0]).first()
        if user is None:
            user = User.objects.create_user(DEMO_USER[0], password=DEMO_USER[1])
        existing = Club.objects.filter(slug=SLUG).first()
        if existing and not reset:
            self.stdout.write(f"Demo club present; log in as {DEMO_USER[0]} / {DEMO_USER[1]}")
            return
        with transaction.atomic():
            if existing:
                existing.sheets.all().delete()
                existing.delete()
            hands = self.build(random.Random(seed), user, evenings)
        self.stdout.write(
            f"Demo club loaded: {hands} hands; log in as {DEMO_USER[0]} / {DEMO_USER[1]}"
        )

    def build(self, rng, user, evenings):
        club = Club.objects.create(name="Club de démonstration", slug=SLUG)
        Membership.objects.create(club=club, user=user, role=Role.MANAGER)
        season = Season.objects.create(
            club=club,
            name="2026–2027",
            start_date=datetime.date(2026, 9, 1),
            end_date=datetime.date(2027, 6, 30),
            rules={"preset": "fft"},
        )
        players = [Player.objects.create(club=club, name=name) for name in PLAYERS]
        first_friday = datetime.date(2026, 9, 4)
        total = 0
        for evening in range(evenings):
            date = first_friday + datetime.timedelta(weeks=evening)
            tables = list(TABLES)
            if evening < len(SPECIAL):
                tables[-1] = SPECIAL[evening]
            pool = list(players)
            rng.shuffle(pool)
            for number, (seats, rules, forced) in enumerate(tables, start=1):
                seated, pool = pool[:seats], pool[seats:]
                sheet = services.create_sheet(
                    season=season,
                    players=seated,
                    date=date,
                    table=str(number),
                    rules=rules,
                    actor=user,
                )
                names = [p.name for p in seated]
                ruleset = sheet.rules
                forced = forced if evening == 0 or rules else []
                for i in range(rng.randint(12, 20)):
                    extras = (forced[i],) if i < len(forced) else ()
                    data = random_hand(rng, names, ruleset, names[i % seats], extras=extras)
                    services.record_hand(sheet, data, actor=user)
                    total += 1
        return total + self.build_savoyard(rng, club, players, user)

    def build_savoyard(self, rng, club, players, user):
        """A season under the Savoyard rules of 1902: an evening at five (its first
        hands a call with a baga, a solo as dealt and a tie) and a table of three."""
        season = Season.objects.create(
            club=club,
            name="Chambéry 1902",
            start_date=datetime.date(2027, 1, 8),
            end_date=datetime.date(2027, 6, 30),
            rules={"preset": "savoyard"},
        )
        total = 0
        date = datetime.date(2027, 1, 8)
        for number, (seats, first) in enumerate(SAVOYARD_TABLES, start=1):
            seated = rng.sample(players, seats)
            sheet = services.create_sheet(
                season=season, players=seated, date=date, table=str(number), actor=user
            )
            names = [p.name for p in seated]
            for i in range(rng.randint(10, 14)):
                dealer = names[i % seats]
                if i < len(first):
                    data = {"dealer": dealer, **first[i]}
                    for field in ("declarer", "partner"):  # a seat after the dealer
                        if field in data:
                            data[field] = names[(i + data[field]) % seats]
                else:
                    data = random_hand(rng, names, sheet.rules, dealer)
                services.record_hand(sheet, data, actor=user)
                total += 1
        return total
