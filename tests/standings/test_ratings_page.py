"""The club's ratings page: ranked by the ordinal, σ as a range, three queries, exports."""

import datetime

from django.urls import reverse

from ratings import queries, scopes
from scoresheet import services
from tests.data import SEED_HANDS


def test_the_ratings_page_ranks_by_the_ordinal(
    client, make_sheet, scorer, club, season, django_assert_num_queries
):
    sheet = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    club.is_public = True
    club.save()
    url = reverse("standings:ratings", args=[club.slug])
    rows = queries.scope_rows(scopes.club(club.pk))
    assert [r.ordinal for r in rows] == sorted((r.ordinal for r in rows), reverse=True)
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.index(rows[0].name) < html.index(rows[-1].name)
    assert "μ ± 3σ" in html and "data-ratings" in html
    # the season's page, and the CSV export
    season_url = reverse("standings:season_ratings", args=[club.slug, season.pk])
    assert client.get(season_url).status_code == 200
    csv = client.get(url + "?_export=csv")
    assert csv.status_code == 200 and rows[0].name in csv.content.decode("utf-8-sig")
    assert client.get(url + "?_export=pdf").status_code == 400


def test_the_page_takes_the_same_queries_whatever_the_hands(
    client, make_sheet, scorer, club, django_assert_num_queries
):
    club.is_public = True
    club.save()
    url = reverse("standings:ratings", args=[club.slug])
    sheet = make_sheet(4)
    services.record_hand(sheet, SEED_HANDS[0], actor=scorer)
    client.get(url)
    with django_assert_num_queries(3) as captured:  # the club, the ratings, recomputing?
        client.get(url)
    more = make_sheet(5, date=datetime.date(2026, 4, 1))
    for data in SEED_HANDS:
        services.record_hand(more, data, actor=scorer)
    with django_assert_num_queries(len(captured.captured_queries)):
        client.get(url)
