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
                    user=user,
                )
                names = [p.name for p in seated]
                ruleset = sheet.rules
                forced = forced if evening == 0 or rules else []
                for i in range(rng.randint(12, 20)):
                    extras = (forced[i],) if i < len(forced) else ()
                    data = random_hand(rng, names, ruleset, names[i % seats], extras=extras)
                    services.record_hand(sheet, data, user=user)
                    total += 1
        return total
