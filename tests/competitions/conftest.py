# ruff: noqa: F811 (the league fixtures, imported)
"""Team competition fixtures: the league fixtures (``tests.leagues.fixtures``: "comite"
managed by "boss", member clubs A public and B members-only with a manager), twelve
players a club; ``championship()`` makes a division of four teams (two a club) with its
fixtures."""

import pytest

from clubs.models import Player
from competitions import services
from competitions.models import Competition
from tests.leagues.fixtures import boss, league, member_clubs  # noqa: F401 (fixtures)

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
def clubs(league, django_user_model):
    """The league's clubs (``tests.leagues.fixtures``), twelve players each."""
    out = member_clubs(league, django_user_model)
    for key in "ab":
        out[f"{key}_players"] = [
            Player.objects.create(club=out[key], name=f"{name} {key.upper()}") for name in NAMES
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
    def make(
        deals=2, scale=None, mode=Competition.Mode.DUPLICATE, teams=4, name="Interclubs", **options
    ):
        competition = services.create_competition(
            league,
            name=name,
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
