"""Statistics of a Savoyard season: solos by cards asked, calls, ties, doubled games,
baga, in place of contracts, bouts and the French Tarot bonuses (SQL over the
ledger; the query counts pinned like the French Tarot pages')."""

import datetime

import pytest
from django.urls import reverse

from clubs.models import Season
from scoresheet import services
from tests.stats.test_statistics import PLAYER_QUERIES, SEASON_QUERIES

# Five seated (Anna … Emil): total 68, tie 34.
HANDS = [
    # Anna calls Dora, 40: won (factor 1); baga to the declarers
    {
        "dealer": "Anna",
        "mode": "call",
        "partner": "Dora",
        "count": 40,
        "baga": {"to": "declarers", "announced": False},
    },
    # Carl alone as dealt, 52: won, ×8
    {"dealer": "Bert", "mode": "solo", "declarer": "Carl", "cards_asked": 0, "count": 52},
    # Anna alone with two cards, 30: lost (factor 1)
    {"dealer": "Carl", "mode": "solo", "declarer": "Anna", "cards_asked": 2, "count": 30},
    # Dora calls Anna, 34: a tie; baga to the opponents
    {
        "dealer": "Dora",
        "mode": "call",
        "partner": "Anna",
        "count": 34,
        "baga": {"to": "opponents", "announced": True},
    },
    # Emil calls Bert, 10: lost, the declarers under 17: doubled
    {"dealer": "Emil", "mode": "call", "partner": "Bert", "count": 10},
]


@pytest.fixture
def savoyard_season(club, players, scorer):
    season = Season.objects.create(
        club=club,
        name="1902",
        start_date=datetime.date(2026, 1, 1),
        rules={"preset": "savoyard", "deck": 78, "count": "classic", "baga": 10},
    )
    sheet = services.create_sheet(
        season=season, players=players[:5], date=datetime.date(2026, 3, 14), actor=scorer
    )
    for hand in HANDS:
        services.record_hand(sheet, hand, actor=scorer)
    return season


def test_season_page_shows_the_savoyard_figures(
    client, django_assert_num_queries, club, savoyard_season
):
    url = reverse("stats:season", args=[club.slug, savoyard_season.pk])
    # one query more than a French Tarot season: the Savoyard aggregate
    with django_assert_num_queries(SEASON_QUERIES + 1):
        response = client.get(url)
    assert response.status_code == 200
    figures = response.context["savoyard"]
    assert figures["hands"] == 5
    assert [(s["cards"], s["taken"], s["won"], s["lost"]) for s in figures["solos"]] == [
        (2, 1, 0, 1),
        (1, 0, 0, 0),
        (0, 1, 1, 0),
    ]
    assert figures["calls"]["taken"] == 3 and figures["calls"]["won"] == 1
    assert figures["ties"] == 1
    assert figures["doubled"] == 2  # the solo as dealt (×8) and the call under 17 (×2)
    assert figures["baga"]["declarers"] == 1 and figures["baga"]["opponents"] == 1
    html = response.content.decode()
    assert 'id="savoyard"' in html and 'id="table-solos"' in html
    assert 'id="contracts"' not in html and 'id="bonuses"' not in html


def test_player_page_shows_the_savoyard_figures(
    client, django_assert_num_queries, club, savoyard_season, players
):
    anna = players[0]
    url = reverse("stats:player_season", args=[club.slug, anna.pk, savoyard_season.pk])
    with django_assert_num_queries(PLAYER_QUERIES["season"] + 1):
        response = client.get(url)
    assert response.status_code == 200
    figures = response.context["savoyard"]
    # Anna: soloist once (two cards, lost), dealer who called once (won), called once (tie)
    assert figures["solos_taken"] == 1 and figures["solos"][0]["lost"] == 1
    assert figures["calls"] == {"taken": 1, "won": 1, "called": 1, "called_won": 0}
    # baga: hand 1 to her side (a declarer); hand 4 to the opponents while she was a declarer
    # (Dora's partner): not hers; hand 2 none
    assert figures["baga"]["won"] == 1
    html = response.content.decode()
    assert 'id="savoyard"' in html and 'id="taker"' not in html and 'id="five"' not in html
    # all seasons: the French Tarot page as before (no Savoyard aggregate)
    response = client.get(reverse("stats:player", args=[club.slug, anna.pk]))
    assert response.status_code == 200 and "savoyard" not in response.context


def test_a_french_tarot_season_has_no_savoyard_section(client, club, season, make_sheet):
    response = client.get(reverse("stats:season", args=[club.slug, season.pk]))
    assert response.status_code == 200 and "savoyard" not in response.context
