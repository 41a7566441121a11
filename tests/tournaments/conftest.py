"""Tournament fixtures: the suite's club "rive" (public) with a manager and 20 members, and
``make_tournament(players=17, rounds=3, deals=4)`` entering the first members."""

import datetime

import pytest

from clubs.models import Membership, Player, Role
from tournaments import services
from tournaments.services import rounds as round_services

DATE = datetime.date(2026, 5, 9)


@pytest.fixture(autouse=True)
def quick_schedule(monkeypatch):
    """The pages' schedule search, shortened: the draw's own tests time the real one."""
    monkeypatch.setattr(round_services, "SCHEDULE_EFFORT", 0.3)


@pytest.fixture
def manager(django_user_model, club):
    user = django_user_model.objects.create_user("organiser", password="a-long-passphrase-1")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


@pytest.fixture
def members(club):
    return [Player.objects.create(club=club, name=f"Member {i:02d}") for i in range(1, 21)]


@pytest.fixture
def make_tournament(club, members, manager):
    def make(players=17, rounds=3, deals=4, minutes=None, five="five", rules=None, seed=7, **more):
        tournament = services.create_tournament(
            club,
            name="Tournoi de printemps",
            date=DATE,
            rules=rules or {"preset": "fft"},
            rounds=rounds,
            deals_per_round=None if minutes else deals,
            minutes_per_round=minutes,
            five_tables=five,
            actor=manager,
            seed=seed,
            **more,
        )
        if players:
            services.register(tournament, [("member", p) for p in members[:players]])
        return tournament

    return make
