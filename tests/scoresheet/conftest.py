import datetime

import pytest

from clubs.models import Club, Membership, Player, Role, Season
from scoresheet import services

NAMES = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fred"]

#: The house-rules fields as a browser posts them untouched (plain FFT), for the
#: season form and the sheet form's "other rules" alike.
RULES_POST = {
    "preset": "fft",
    "rounding": "1",
    "poignee_single": "20",
    "poignee_double": "30",
    "poignee_triple": "40",
    "misere": "0",
    "five_player_split": "two_to_one",
    "ante": "10",
    "dealer_stake": "5",
}


@pytest.fixture
def club(db):
    return Club.objects.create(name="Club de la Rive", slug="rive")


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="2026", start_date=datetime.date(2026, 1, 1), rules={"preset": "fft"}
    )


@pytest.fixture
def players(club):
    return [Player.objects.create(club=club, name=name) for name in NAMES]


@pytest.fixture
def scorer(django_user_model, club):
    """A user with the scorer role in ``club``."""
    user = django_user_model.objects.create_user("scorer", password="a-long-passphrase-1")
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    return user


@pytest.fixture
def make_sheet(season, players, scorer):
    def make(n=4, rules=None, **kwargs):
        return services.create_sheet(
            season=season,
            players=players[:n],
            date=kwargs.pop("date", datetime.date(2026, 3, 14)),
            table=kwargs.pop("table", "1"),
            rules=rules,
            user=scorer,
        )

    return make


#: The seed's five hands (RULES.md §1; German seed's corrected table).
SEED_HANDS = [
    {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
    {
        "dealer": "Anna",
        "taker": "Bert",
        "contract": "garde",
        "bouts": 3,
        "points": 49,
        "petit_au_bout": "attack",
    },
    {
        "dealer": "Bert",
        "taker": "Carl",
        "contract": "garde",
        "bouts": 2,
        "points": 40,
        "petit_au_bout": "defence",
    },
    {
        "dealer": "Carl",
        "taker": "Carl",
        "contract": "garde",
        "bouts": 2,
        "points": 41,
        "petit_au_bout": "defence",
    },
    {
        "dealer": "Dora",
        "taker": "Dora",
        "contract": "garde",
        "bouts": 3,
        "points": 40,
        "poignees": [{"player": "Anna", "size": "single"}],
    },
]
SEED_TOTALS = {"Anna": 108, "Bert": 172, "Carl": -380, "Dora": 100}
