"""A duplicate event through the API: its barometer and its travellers are the pages'
figures (every table's result per deal and each seat's comparison score, DUPLICATE.md
§3–§4), read from the stored results; a free-deals tournament has none (404)."""

import datetime
from fractions import Fraction

import pytest
from django.urls import reverse

from clubs.models import Player
from tarot.duplicate import SEATS, json_score
from tests.tournaments.duplicate_helpers import make_event, play_round
from tournaments import services as tournament_services
from tournaments.duplicate import services as duplicate_services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(club, manager):
    """16 players, 3 rounds of 2 deals; rounds 1 and 2 played and confirmed, round 2
    still open (the barometer is provisional)."""
    members = [Player.objects.create(club=club, name=f"Joueur {i:02d}") for i in range(1, 17)]
    event = make_event(club, members, manager, players=16, rounds=3, deals=2)
    duplicate_services.set_series(
        event, {n: ("Open" if n <= 8 else "Promotion") for n in range(1, 17)}, actor=manager
    )
    duplicate_services.draw_movement(event, actor=manager)
    for number in (1, 2):
        rnd = Round.objects.get(tournament=event, number=number)
        tournament_services.start_round(rnd)
        play_round(rnd)
        if number == 1:
            tournament_services.close_round(rnd, actor=manager)
    return Tournament.objects.get(pk=event.pk)


def page(client, name, event, params=None):
    response = client.get(
        reverse(f"tournaments:{name}", args=[event.club.slug, event.pk]), params or {}
    )
    assert response.status_code == 200
    return response.context


def test_the_travellers_are_the_pages(client, api, played):
    shown = [
        (
            t["deal"],
            t["dealer"],
            [
                (
                    row["table"],
                    row["round"],
                    row["contract"],
                    row["taker"],
                    [
                        (
                            cell["seat"],
                            cell["entry"].number,
                            None if cell["marque"] is None else json_score(cell["marque"]),
                            json_score(cell["score"]),
                        )
                        for cell in row["seats"]
                    ],
                )
                for row in t["tables"]
            ],
        )
        for t in page(client, "duplicate_travellers", played)["travellers"]
    ]
    assert len(shown) == 4 * 2  # 4 sets of 2 deals, each played so far
    url = f"/api/v1/clubs/rive/tournaments/{played.pk}/duplicate/travellers"
    got = []
    body = api().get(url, {"per_page": 3}).json()
    assert (body["count"], body["pages"], body["provisional"]) == (8, 3, True)
    for number in range(1, body["pages"] + 1):
        for t in api().get(url, {"per_page": 3, "page": number}).json()["results"]:
            got.append(
                (
                    t["deal"],
                    t["dealer"],
                    [
                        (
                            row["table"],
                            row["round"],
                            row["contract"],
                            row["taker"],
                            [
                                (cell["seat"], cell["number"], cell["marque"], cell["score"])
                                for cell in row["seats"]
                            ],
                        )
                        for row in t["tables"]
                    ],
                )
            )
    assert got == shown
    # each deal's comparison: a seat's scores over the tables that played it balance
    # around the neutral score (matchpoints: 50 %), as DUPLICATE.md §3 compares
    one = api().get(url, {"deal": 3}).json()["results"]
    assert [t["deal"] for t in one] == [3]
    north = [Fraction(str(row["seats"][0]["score"])) for row in one[0]["tables"]]
    assert sum(north) / len(north) == 50
    assert [cell["seat"] for cell in one[0]["tables"][0]["seats"]] == list(SEATS)


def test_the_barometer_is_the_pages(client, api, played):
    context = page(client, "duplicate_ranking", played)
    shown = [(r["rank"], r["player"], json_score(r["score"])) for r in context["rows"]]
    url = f"/api/v1/clubs/rive/tournaments/{played.pk}/duplicate/ranking"
    body = api().get(url).json()
    assert [(r["rank"], r["number"], r["score"]) for r in body["players"]] == shown
    assert body["provisional"] is True and body["rounds_in"] == [1, 2]
    assert sorted(body["series"]) == ["Open", "Promotion"]
    assert [r["rank"] for r in body["series"]["Open"]] == [
        r["rank"] for r in context["series_rows"]["Open"]
    ]
    after_one = page(client, "duplicate_ranking", played, {"round": 1})
    first = api().get(url, {"round": 1}).json()
    assert [(r["number"], r["score"]) for r in first["players"]] == [
        (r["player"], json_score(r["score"])) for r in after_one["rows"]
    ]
    assert first["provisional"] is False and first["until_round"] == 1


def test_a_free_tournament_has_no_travellers(api, club, manager):
    free = tournament_services.create_tournament(
        club,
        name="Libre",
        date=datetime.date(2026, 6, 6),
        rules={"preset": "fft"},
        rounds=1,
        deals_per_round=4,
    )
    url = f"/api/v1/clubs/rive/tournaments/{free.pk}/duplicate/travellers"
    assert api().get(url).status_code == 404
