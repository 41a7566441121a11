"""The API's reads give what the pages show for the same data: the standings' rows (every
filter and sort), a sheet's totals, a hand's explanation, a tournament's ranking."""

import datetime

import pytest
from django.urls import reverse

from clubs.models import Season
from scoresheet import services
from tests.data import SEED_TOTALS
from tournaments import queries
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def page_rows(client, url, params=None):
    """The standings page's rows, as its table holds them (name, rank, total)."""
    response = client.get(url, params or {})
    assert response.status_code == 200
    table = response.context["table"]
    return [
        (row.record["name"], row.record["rank"], int(row.record["total"]))
        for row in table.page.object_list
    ]


def api_rows(api, url, params=None):
    response = api.get(url, params)
    assert response.status_code == 200, response.content
    return [(row["name"], row["rank"], row["total"]) for row in response.json()["results"]]


@pytest.fixture
def two_evenings(seeded, make_sheet, scorer):
    """The seed's sheet and a five-seat sheet on another evening."""
    sheet = make_sheet(5, date=datetime.date(2026, 3, 21), table="2")
    hand = {"dealer": "Emil", "taker": "Anna", "contract": "garde", "partner": "Carl"}
    services.record_hand(sheet, {**hand, "bouts": 2, "points": 60}, actor=scorer)
    services.record_hand(sheet, {**hand, "taker": "Emil", "bouts": 1, "points": 30}, actor=scorer)
    return seeded, sheet


FILTERS = [
    {},
    {"seats": "4"},
    {"seats": "5"},
    {"date_from": "2026-03-20"},
    {"date_to": "2026-03-15"},
    {"sort": "-total"},
    {"sort": "name"},
    {"sort": "-average"},
    {"sort": "made_pct"},
    {"sort": "hands_taken"},
    {"per_page": "2", "page": "2"},
]


@pytest.mark.parametrize("params", FILTERS, ids=lambda p: ",".join(p) or "all")
def test_the_standings_are_the_pages_rows(client, api, two_evenings, season, params):
    page_params = params  # the page's own query string: the same names
    shown = page_rows(client, reverse("standings:club", args=["rive"]), page_params)
    assert shown
    assert api_rows(api(), "/api/v1/clubs/rive/standings", params) == shown
    season_page = reverse("standings:season", args=["rive", season.pk])
    with_season = {**params, "season": str(season.pk)}
    assert api_rows(api(), "/api/v1/clubs/rive/standings", with_season) == page_rows(
        client, season_page, page_params
    )


def test_a_season_ranked_by_its_rule_reads_the_ranked_rows(client, api, two_evenings, season):
    season.ranking = {"by": "points", "points": [10, 6, 4, 2, 1]}
    season.save()
    url = reverse("standings:season", args=["rive", season.pk])
    shown = page_rows(client, url)
    body = api().get("/api/v1/clubs/rive/standings", {"season": season.pk}).json()
    assert body["ranking"] == season.ranking
    assert [(r["name"], r["rank"], r["total"]) for r in body["results"]] == shown
    assert all(r["value"] is not None for r in body["results"])
    by_value = (
        api()
        .get("/api/v1/clubs/rive/standings", {"season": season.pk, "sort": "-value"})
        .json()["results"]
    )
    values = [r["value"] for r in by_value]
    assert values == sorted(values, reverse=True)


def test_the_standings_sum_the_seed(api, seeded):
    rows = api().get("/api/v1/clubs/rive/standings").json()["results"]
    assert {r["name"]: r["total"] for r in rows} == SEED_TOTALS
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]


def test_a_sheets_totals_are_the_sheet_pages(client, api, seeded):
    services.delete_hand(seeded.hands.get(number=2), actor=None)  # out of the totals
    page = client.get(reverse("scoresheet:sheet", args=["rive", seeded.pk]))
    shown = {name: int(total) for name, total, _url in page.context["standings"]}
    body = api().get(f"/api/v1/clubs/rive/sheets/{seeded.pk}").json()
    assert body["totals"] == shown
    assert [h["number"] for h in body["hand_list"]] == [1, 2, 3, 4, 5]
    assert [h["deleted"] for h in body["hand_list"]] == [False, True, False, False, False]
    assert body["hands"] == 4  # the live ones, as the sheet list counts them


def test_a_hand_carries_its_explanation(client, api, seeded):
    body = api().get(f"/api/v1/clubs/rive/sheets/{seeded.pk}/hands/2").json()
    assert body["scores"] == {"Anna": -96, "Bert": 288, "Carl": -96, "Dora": -96}
    assert body["explanation"] == "(25 + 13 + 10 petit au bout) × 2 = 96 per defender; taker +288"
    assert body["data"]["petit_au_bout"] == "attack"
    french = api().get(
        f"/api/v1/clubs/rive/sheets/{seeded.pk}/hands/2", **{"Accept-Language": "fr"}
    )
    assert "par défenseur" in french.json()["explanation"]


def test_the_sheet_list_filters_as_the_page(api, two_evenings):
    _first, second = two_evenings
    rows = api().get("/api/v1/clubs/rive/sheets", {"players": 5}).json()["results"]
    assert [r["id"] for r in rows] == [second.pk]
    assert rows[0]["players"] == ["Anna", "Bert", "Carl", "Dora", "Emil"]
    everything = api().get("/api/v1/clubs/rive/sheets").json()
    assert everything["count"] == 2


def test_a_players_statistics_are_the_pages(client, api, seeded, players, season):
    page = client.get(reverse("stats:player_season", args=["rive", players[1].pk, season.pk]))
    summary = page.context["summary"]
    body = (
        api()
        .get(f"/api/v1/clubs/rive/players/{players[1].pk}/statistics", {"season": season.pk})
        .json()
    )
    assert body["standing"]["rank"] == page.context["standing"]["rank"] == 1
    assert body["summary"]["total"] == int(summary["total"]) == 172
    assert body["summary"]["taken"] == summary["taken"]
    assert body["summary"]["made_pct"] == summary["made_pct"]


def test_pages_are_bounded(api, seeded):
    body = api().get("/api/v1/clubs/rive/players", {"per_page": 2, "page": 99}).json()
    assert (body["count"], body["page"], body["pages"]) == (6, 3, 3)
    assert len(body["results"]) == 2
    refused = api().get("/api/v1/clubs/rive/players", {"per_page": 1000})
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "invalid"


def test_an_unknown_season_is_not_found(api, seeded):
    other = Season.objects.create(
        club=seeded.club, name="T", kind="tournament", start_date=datetime.date(2026, 1, 1)
    )
    for season in (other.pk, 99999):
        response = api().get("/api/v1/clubs/rive/standings", {"season": season})
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"


# ---------------------------------------------------------------- a tournament


@pytest.fixture
def tournament(club, players, manager):
    """Four players, two rounds of one deal each (tests/tournaments/test_ranking.py)."""
    t = tournament_services.create_tournament(
        club,
        name="Printemps",
        date=datetime.date(2026, 4, 4),
        rules={"preset": "fft"},
        rounds=2,
        deals_per_round=1,
        minutes_per_round=None,
        five_tables="five",
        actor=manager,
        seed=7,
    )
    tournament_services.register(t, [("member", p) for p in players[:4]])
    names = {e.number: e.name for e in t.entries.all()}
    for number, (taker, bouts, points) in {1: (1, 2, 56), 2: (3, 0, 50)}.items():
        rnd = t.round_set.get(number=number)
        tournament_services.draw_round(rnd)
        tournament_services.start_round(rnd)
        (table,) = rnd.tables.select_related("sheet")
        seated = [s.player.name for s in table.sheet.seats.select_related("player")]
        data = {"dealer": seated[0], "taker": names[taker], "contract": "garde"}
        services.record_hand(table.sheet, {**data, "bouts": bouts, "points": points})
        tournament_services.close_round(rnd)
    return t


def test_a_tournaments_ranking_is_the_pages(client, api, tournament):
    page = client.get(reverse("tournaments:ranking", args=["rive", tournament.pk]))
    shown = [(row["number"], row["rank"]) for row in page.context["rows"]]
    body = api().get(f"/api/v1/clubs/rive/tournaments/{tournament.pk}/ranking").json()
    assert [(r["number"], r["rank"]) for r in body["players"]] == shown
    assert [(r["number"], r["total"], r["rank"]) for r in body["players"]] == [
        (1, 302, 1),
        (2, -18, 2),
        (4, -18, 2),
        (3, -266, 4),
    ]
    assert body["players"][0]["rounds"] == [240, 62]
    assert [r["number"] for r in queries.ranking(tournament)] == [1, 2, 4, 3]


def test_a_tournament_its_rounds_and_tables(api, tournament):
    detail = api().get(f"/api/v1/clubs/rive/tournaments/{tournament.pk}").json()
    assert [r["number"] for r in detail["round_list"]] == [1, 2]
    tables = api().get(f"/api/v1/clubs/rive/tournaments/{tournament.pk}/rounds/1/tables").json()
    assert len(tables) == 1
    assert sorted(seat["total"] for seat in tables[0]["seats"]) == [-80, -80, -80, 240]
    listed = api().get("/api/v1/clubs/rive/tournaments").json()
    assert [t["id"] for t in listed["results"]] == [tournament.pk]
