"""League fixtures, shared by the tests of the leagues, of the team competitions and of
the API's league reads (their conftests import them): a league "comite" managed by
"boss", two member clubs (A public, B members-only) each with a manager, a season, and
``event(name, date)`` making a tournament of A."""

import datetime

import pytest

from clubs.models import Club, Membership, Role
from leagues import services
from tournaments import services as tournament_services

DAY = datetime.date(2026, 3, 1)


@pytest.fixture
def boss(django_user_model):
    return django_user_model.objects.create_user("boss", password="a-long-passphrase-1")


@pytest.fixture
def league(boss, db):
    return services.create_league("Comité du Rhône", "comite", managers=[boss])


def member_clubs(league, django_user_model) -> dict:
    """Clubs A (public) and B (members-only), members of ``league``, each with a manager:
    ``{"a": club, "a_manager": user, "b": …, "b_manager": …}``."""
    out = {}
    for key, public in (("a", True), ("b", False)):
        club = Club.objects.create(name=f"Club {key.upper()}", slug=f"club-{key}", is_public=public)
        manager = django_user_model.objects.create_user(f"manager_{key}", password="pw-long-12345")
        Membership.objects.create(club=club, user=manager, role=Role.MANAGER)
        link = services.invite_club(league, club)
        services.accept_invitation(link, actor=manager)
        out[key] = club
        out[f"{key}_manager"] = manager
    return out


@pytest.fixture
def clubs(league, django_user_model):
    return member_clubs(league, django_user_model)


@pytest.fixture
def lseason(league):
    return services.save_season(
        league,
        name="2025-2026",
        start_date=datetime.date(2025, 9, 1),
        end_date=datetime.date(2026, 6, 30),
        scale={"kind": "table", "tables": [{"from": 1, "points": [10, 6, 4, 2]}]},
        best_events=2,
        qualified=1,
    )


@pytest.fixture
def event(clubs):
    def make(name, date=DAY, club="a", rounds=1):
        return tournament_services.create_tournament(
            clubs[club],
            name=name,
            date=date,
            rules={"preset": "fft"},
            rounds=rounds,
            deals_per_round=4,
        )

    return make
