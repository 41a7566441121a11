# ruff: noqa: F811 (the league fixtures, imported)
"""A token made for one club names what a member of that club reads: its user, a member
of the public club A and of the members-only club B too, reads through club A's token
none of club B's hidden players (the ranking, an event, a person), as any member of A;
through club B's token, B's players by name."""

import pytest

from clubs.models import Membership, Person, Role
from tests.api.test_leagues import people, ranked  # noqa: F401 (fixtures)
from tests.leagues.fixtures import boss, clubs, event, league, lseason  # noqa: F401

pytestmark = pytest.mark.django_db

HIDDEN = {"Cécile", "Didier"}  # club B's players (members-only, not named to the league)


@pytest.fixture
def two_clubs(django_user_model, clubs):
    user = django_user_model.objects.create_user("both", password="pw-long-12345")
    for key in "ab":
        Membership.objects.create(club=clubs[key], user=user, role=Role.MEMBER)
    return user


def names(api, url):
    answer = api.get(url)
    assert answer.status_code == 200, answer.content
    return {row["name"] for row in answer.json()["results"]} - {None}


def test_a_token_for_club_a_reads_no_hidden_player_of_club_b(
    api, token, clubs, lseason, ranked, two_clubs, django_user_model
):
    of_a = api(token(two_clubs, for_club=clubs["a"]))
    of_b = api(token(two_clubs, for_club=clubs["b"]))
    ranking = f"/api/v1/leagues/comite/seasons/{lseason.pk}/ranking"
    results = f"/api/v1/leagues/comite/events/{ranked.pk}"
    cecile = f"/api/v1/persons/{Person.objects.get(name='Cécile').pk}"
    assert names(of_a, ranking) == {"Anne", "Bruno"}
    assert of_a.get(cecile).status_code == 404
    body = b"".join(of_a.get(url).content for url in (ranking, cecile))
    assert not any(name.encode() in body for name in HIDDEN)
    # every answer is a member of A's only (an event of club A names its own entries)
    only_a = django_user_model.objects.create_user("only-a", password="pw-long-12345")
    Membership.objects.create(club=clubs["a"], user=only_a, role=Role.MEMBER)
    member = api(token(only_a, for_club=clubs["a"]))
    for url in (ranking, results, cecile):
        assert of_a.get(url).content == member.get(url).content
    # the same user reads them through club B's token, as a member of B
    assert names(of_b, ranking) == {"Anne", "Bruno"} | HIDDEN
    assert names(of_b, results) >= HIDDEN
    assert of_b.get(cecile).status_code == 200
    # a superuser's token reads as its club's member too
    two_clubs.is_superuser = True
    two_clubs.save(update_fields=["is_superuser"])
    assert names(of_a, ranking) == {"Anne", "Bruno"}
