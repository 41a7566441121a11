"""The league pages read a fixed number of queries, whatever the count of persons,
events and member clubs (``bench_leagues`` times them at 300 clubs and 9,000 persons)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club, Person, Player
from leagues import services
from tests.leagues.test_ranking import counted

#: page → its queries (pinned: a change is a decision, not a drift)
#: (the ranking and a person's page also read who the reader may see named)
PINNED = {"home": 6, "ranking": 5, "event": 4, "person": 5}


def grow(lseason, clubs, event, size):
    people = {}
    for i in range(size):
        person = Person.objects.create(name=f"N{size}-{i}", licence=f"L{size}-{i}", serie="Open")
        club = clubs["a"] if i % 2 else clubs["b"]
        people[person.name] = Player.objects.create(club=club, name=person.name, person=person)
    for e in range(size // 3):
        ranks = {name: 1 + (i + e) % size for i, name in enumerate(people)}
        last = counted(lseason, event, f"T{size}-{e}", 1, ranks, people)
    for n in range(size // 3):
        club = Club.objects.create(name=f"Club {size}-{n}", slug=f"club-{size}-{n}")
        services.accept_invitation(services.invite_club(lseason.league, club))
    # a person of the public club A: named to the anonymous reader (clubs.visibility)
    return last, next(p for p in people.values() if p.club_id == clubs["a"].pk).person_id


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as seen:
        assert client.get(url).status_code == 200
    return len(seen)


@pytest.mark.parametrize("size", [3, 30])
def test_the_league_pages_read_fixed_queries(client, clubs, lseason, event, size):
    last, person = grow(lseason, clubs, event, size)
    counts = {
        "home": queries(client, reverse("leagues:home", args=["comite"])),
        "ranking": queries(client, reverse("leagues:ranking", args=["comite", lseason.pk])),
        "event": queries(client, reverse("leagues:event", args=["comite", last.pk])),
        "person": queries(client, reverse("leagues:person", args=[person])),
    }
    assert counts == PINNED
