"""A league counts each event by the ranking its kind publishes: a duplicate event by its
comparison of the same deals (matchpoints here), not by its players' summed marques; and
closing a duplicate event freezes that ranking."""

import datetime

import pytest

from clubs.models import Player
from leagues import services
from leagues.models import EventResult, Standing
from tests.tournaments.duplicate_helpers import make_event, play_round
from tournaments import queries
from tournaments import services as tournament_services
from tournaments.duplicate import results as duplicate_results
from tournaments.duplicate import services as duplicate_services
from tournaments.models import Round, Tournament


@pytest.fixture
def proportional(league):
    return services.save_season(
        league,
        name="2025-2026",
        start_date=datetime.date(2025, 9, 1),
        end_date=datetime.date(2026, 6, 30),
        scale={"kind": "proportional", "points": 100},
    )


def play_duplicate(club, manager, players=20, rounds=2):
    members = [Player.objects.create(club=club, name=f"Joueur {i:02d}") for i in range(players)]
    event = make_event(club, members, manager, players=players, rounds=rounds, deals=3)
    duplicate_services.draw_movement(event, actor=manager)
    for number in range(1, rounds + 1):
        rnd = Round.objects.get(tournament=event, number=number)
        tournament_services.start_round(rnd)
        play_round(rnd)
        tournament_services.close_round(Round.objects.get(pk=rnd.pk), actor=manager)
    return Tournament.objects.get(pk=event.pk)


def test_a_duplicate_event_enters_the_league_with_its_own_ranking(clubs, proportional):
    club, manager = clubs["a"], clubs["a_manager"]
    event = play_duplicate(club, manager)
    published = {
        row["entry"].player_id: row["rank"]
        for row in duplicate_results.barometer(duplicate_results.load(event))
    }
    summed = {row["player_id"]: row["rank"] for row in queries.ranking(event)}
    assert published != summed  # the two rankings differ: the test tells them apart
    league_event = services.register_event(proportional, event, actor=manager)
    tournament_services.close_tournament(event, actor=manager)
    stored = dict(EventResult.objects.filter(event=league_event).values_list("player", "rank"))
    assert stored == published
    # one event: the league's places are the event's
    persons = {p.pk: p.person_id for p in Player.objects.filter(pk__in=published)}
    assert all(person is None for person in persons.values())  # unlinked: no standing yet
    frozen = Tournament.objects.get(pk=event.pk).final_ranking["players"]
    assert {(row["number"], row["rank"]) for row in frozen} == {
        (row["entry"].number, row["rank"])
        for row in duplicate_results.barometer(duplicate_results.load(event))
    }


def test_league_places_of_linked_persons_equal_the_event_ranking(clubs, proportional, boss):
    club, manager = clubs["a"], clubs["a_manager"]
    event = play_duplicate(club, manager)
    for i, player in enumerate(Player.objects.filter(club=club).order_by("pk")):
        services.link_by_licence(proportional.league, player, f"L{i:05d}", actor=boss)
    services.register_event(proportional, event, actor=manager)
    tournament_services.close_tournament(event, actor=manager)
    published = {
        row["entry"].player.person_id: row["rank"]
        for row in duplicate_results.barometer(duplicate_results.load(event))
    }
    places = dict(Standing.objects.filter(season=proportional).values_list("person", "place"))
    assert len(places) == 20
    assert places == published
