"""Every answer of the API in its documented shape, refusals included: a body that is
not JSON, a NUL in the query, a date that is not a date; and the schema says which
operations take a token or none."""

import pytest
from django.test import Client

from api.views import api as ninja_api

pytestmark = pytest.mark.django_db


def error_of(response):
    payload = response.json()
    assert set(payload) == {"error"}, payload
    assert {"code", "message"} <= set(payload["error"]), payload
    return payload["error"]["code"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/api/v1/clubs/rive/sheets"),
        ("post", "/api/v1/clubs/rive/sheets/{sheet}/hands"),
        ("put", "/api/v1/clubs/rive/sheets/{sheet}/hands/1"),
    ],
)
def test_a_body_that_is_not_json_is_refused_in_the_error_shape(
    api, token, scorer, seeded, method, path
):
    writer = api(token(scorer, "write"))
    url = path.format(sheet=seeded.pk)
    send = getattr(writer.client, method)
    response = send(url, "{not json", content_type="application/json", headers=writer._headers({}))
    assert response.status_code == 400
    assert error_of(response) == "invalid_json"


def test_a_licence_list_that_is_not_json_is_refused_in_the_error_shape(client):
    response = client.post("/api/v1/leagues/comite/licences", "{", content_type="application/json")
    assert response.status_code in (400, 401)
    assert error_of(response) in ("invalid_json", "unauthorized")


def test_a_nul_in_the_query_is_refused_in_the_error_shape(client, seeded):
    response = client.get("/api/v1/clubs/rive/standings", {"sort": "rank\x00"})
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert error_of(response) == "invalid"
    # a page keeps its own HTML refusal
    page = client.get("/clubs/rive/", {"q": "\x00"})
    assert page.status_code == 400
    assert page["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("value", ["0", "20260101", "1e9"])
def test_a_date_is_written_iso_only(seeded, value):
    response = Client().get("/api/v1/clubs/rive/standings", {"date_to": value})
    assert response.status_code == 422
    assert error_of(response) == "invalid"
    ok = Client().get("/api/v1/clubs/rive/standings", {"date_to": "2026-12-31"})
    assert ok.status_code == 200


#: the reads of a league's managers alone: a token is needed
TOKEN_READS = {"/api/v1/leagues/{league}/licences/held"}


def test_the_schema_says_reads_take_a_token_or_none_and_writes_need_one():
    schema = ninja_api.get_openapi_schema(path_prefix="/api/")
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method == "get" and path not in TOKEN_READS:
                assert {} in operation["security"], (method, path)
            else:
                assert operation["security"] == [{"TokenAuth": []}], (method, path)
    date_to = next(
        p
        for p in schema["paths"]["/api/v1/clubs/{slug}/standings"]["get"]["parameters"]
        if p["name"] == "date_to"
    )
    assert "date" in str(date_to["schema"])
