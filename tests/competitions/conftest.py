"""Team competition fixtures: a league "comite" managed by "boss", member clubs A (public)
and B (members-only) with a manager and twelve players each; ``championship()`` makes a
division of four teams (two a club) with its fixtures."""

import pytest

from clubs.models import Club, Membership, Player, Role
from competitions import services
from competitions.models import Competition
from leagues import services as leagues

NAMES = [
    "Anna",
    "Bruno",
    "Carla",
    "Denis",
    "Emma",
    "Fabien",
    "Gaby",
    "Hugo",
    "Inès",
    "Jules",
    "Karim",
    "Léa",
]


@pytest.fixture
def boss(django_user_model):
    return django_user_model.objects.create_user("boss", password="a-long-passphrase-1")


@pytest.fixture
def league(boss, db):
    return leagues.create_league("Comité du Rhône", "comite", managers=[boss])


@pytest.fixture
def clubs(league, django_user_model):
    out = {}
    for key, public in (("a", True), ("b", False)):
        club = Club.objects.create(name=f"Club {key.upper()}", slug=f"club-{key}", is_public=public)
        manager = django_user_model.objects.create_user(f"manager_{key}", password="pw-long-12345")
        Membership.objects.create(club=club, user=manager, role=Role.MANAGER)
        leagues.accept_invitation(leagues.invite_club(league, club), actor=manager)
        out[key] = club
        out[f"{key}_manager"] = manager
        out[f"{key}_players"] = [
            Player.objects.create(club=club, name=f"{name} {key.upper()}") for name in NAMES
        ]
    return out


def team(competition, clubs, key, name, first=0, division=None, actor=None):
    players = clubs[f"{key}_players"][first : first + 4]
    return services.enter_team(
        competition,
        clubs[key],
        name=name,
        players=players,
        captain=players[0],
        division=division,
        actor=actor,
    )


@pytest.fixture
def championship(league, clubs, boss):
    def make(deals=2, scale=None, mode=Competition.Mode.DUPLICATE, teams=4, **options):
        competition = services.create_competition(
            league,
            name="Interclubs",
            kind=Competition.Kind.CHAMPIONSHIP,
            mode=mode,
            deals=deals,
            scale=scale,
            actor=boss,
            **options,
        )
        division = services.add_division(competition, "Division 1", actor=boss)
        made = []
        for index in range(teams):
            key = "ab"[index % 2]
            made.append(
                team(
                    competition,
                    clubs,
                    key,
                    f"{key.upper()}{index // 2 + 1}",
                    4 * (index // 2),
                    division,
                    boss,
                )
            )
        services.generate_fixtures(division, actor=boss)
        return competition, division, made

    return make


def line_ups(match, actor=None):
    """Both teams hand in the first four of their squads."""
    for side in (match.home, match.away):
        services.submit_line_up(match, side, list(side.squad.order_by("pk")), actor=actor)


def marques(n, e, s, w):
    return {"N": n, "E": e, "S": s, "W": w}
