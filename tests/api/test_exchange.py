"""The results files (a season's, a tournament's): stable, versioned, valid against the
published JSON Schema, and holding what the pages show (the ranking, every deal)."""

import json
from pathlib import Path

import jsonschema
import pytest
from django.conf import settings

from api import exchange
from scoresheet import services
from tests.api.test_reads import tournament  # noqa: F401 (the fixture)
from tests.data import SEED_TOTALS
from tournaments import queries

pytestmark = pytest.mark.django_db


def published():
    path = Path(settings.STATICFILES_DIRS[0]) / exchange.PUBLISHED
    return path.read_text(encoding="utf-8")


def test_the_published_schema_is_the_apis_shape():
    assert published() == exchange.text(), "write it again: api.exchange.write()"


def valid(document):
    jsonschema.Draft202012Validator(json.loads(published())).validate(document)
    return document


def test_a_seasons_results(api, seeded, season, make_sheet, scorer):
    other = make_sheet(4, table="2")
    services.record_hand(
        other,
        {"dealer": "Anna", "taker": "Dora", "contract": "prise", "bouts": 1, "points": 60},
        actor=scorer,
    )
    services.delete_hand(seeded.hands.get(number=5), actor=scorer)
    body = valid(api().get(f"/api/v1/clubs/rive/seasons/{season.pk}/results").json())
    assert (body["format"], body["version"]) == ("tarot-ledger-results", 1)
    assert body["event"]["kind"] == "season" and body["event"]["id"] == season.pk
    standings = api().get("/api/v1/clubs/rive/standings", {"season": season.pk}).json()
    assert [(r["name"], r["rank"], r["total"]) for r in body["ranking"]] == [
        (r["name"], r["rank"], r["total"]) for r in standings["results"]
    ]
    first = body["sheets"][0]
    assert [deal["number"] for deal in first["deals"]] == [1, 2, 3, 4]  # the live ones
    for sheet in body["sheets"]:
        summed = {name: sum(d["scores"][name] for d in sheet["deals"]) for name in sheet["players"]}
        assert summed == sheet["totals"]
    paged = (
        api()
        .get(f"/api/v1/clubs/rive/seasons/{season.pk}/results", {"per_page": 1, "page": 2})
        .json()
    )
    assert [s["id"] for s in paged["sheets"]] == [other.pk] and paged["pages"] == 2


def test_the_seed_in_a_results_file(api, seeded, season):
    body = api().get(f"/api/v1/clubs/rive/seasons/{season.pk}/results").json()
    assert body["sheets"][0]["totals"] == SEED_TOTALS
    assert body["sheets"][0]["deals"][1]["hand"]["petit_au_bout"] == "attack"


def test_a_tournaments_results(api, tournament):  # noqa: F811
    body = valid(api().get(f"/api/v1/clubs/rive/tournaments/{tournament.pk}/results").json())
    assert body["event"]["kind"] == "tournament"
    ranking = queries.ranking(tournament)
    assert [(r["player_id"], r["rank"]) for r in body["ranking"]] == [
        (r["player_id"], r["rank"]) for r in ranking
    ]
    assert [r["rounds"] for r in body["ranking"]][0] == [240, 62]
    assert [s["round"] for s in body["sheets"]] == [1, 2]
    assert all(len(s["deals"]) == 1 for s in body["sheets"])
    assert {p["club"] for p in body["players"]} == {"Club de la Rive"}
