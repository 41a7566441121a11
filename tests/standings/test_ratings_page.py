"""The club's ratings page: ranked by the rating shown, the unrated last, the estimate and
its uncertainty, three queries, exports."""

import datetime
import re

import pytest
from django.urls import reverse

from ratings import queries, scopes
from scoresheet import services
from scoresheet.formatting import format_number
from tests.data import SEED_HANDS


def test_the_ratings_page_ranks_by_the_rating_shown(
    client, make_sheet, scorer, club, season, django_assert_num_queries, monkeypatch
):
    monkeypatch.setattr(queries, "MIN_HANDS", 3)
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
    assert "Skill estimate ± uncertainty" in html and "data-ratings" in html
    # the rating by value: 1000 + 40 (μ − 3σ), the estimate 1000 + 40μ ± 120σ
    top = rows[0]
    assert top.ordinal == pytest.approx(1000 + 40 * (top.mu - 3 * top.sigma))
    assert (top.estimate, top.spread) == pytest.approx((1000 + 40 * top.mu, 120 * top.sigma))
    cells = re.findall(r"<td[^>]*data-rating[^>]*>([^<]*)<", html)
    assert cells == [format_number(round(r.ordinal)) for r in rows], cells
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


def test_a_player_under_the_minimum_is_listed_last_as_not_rated_yet(
    client, make_sheet, scorer, club, monkeypatch
):
    club.is_public = True
    club.save()
    sheet = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    more = make_sheet(5, date=datetime.date(2026, 4, 1))
    services.record_hand(more, SEED_HANDS[0], actor=scorer)
    key = scopes.club(club.pk)
    hands = {r.name: r.hands for r in queries.scope_rows(key)}
    monkeypatch.setattr(queries, "MIN_HANDS", min(hands.values()) + 1)
    rows = queries.scope_rows(key)
    newcomer = min(hands, key=hands.get)
    assert rows[-1].name == newcomer and rows[-1].rank is None and not rows[-1].rated
    assert all(r.rank is not None for r in rows[:-1])
    html = client.get(reverse("standings:ratings", args=[club.slug])).content.decode()
    cells = re.findall(r"<td[^>]*data-rating[^>]*>([^<]*)<", html)
    assert cells[-1] == "not rated yet" and "not rated yet" not in cells[:-1]
    assert html.index(rows[0].name) < html.index(newcomer)
