# ruff: noqa: F811 (the league fixtures, imported)
"""The held licence lines through the API: the league's managers list the pending lines
(a hidden person written as the held lines' page writes them), confirm them and dismiss
them through ``leagues.held``, once per ``Idempotency-Key``; a club's manager and a
read-only token are refused as the licence import refuses them."""

import pytest

from clubs.models import Club, Membership, Person, Player, Role
from leagues import licences
from leagues.models import HeldLicence, LeagueAuditEntry
from tests.leagues.fixtures import boss, clubs, league  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

URL = "/api/v1/leagues/comite/licences/held"
HEADER = "licence;name;club;serie\n"
LINES = HEADER + "9002;Yves Neuf;Club A;Open\n9003;Léa Neuve;Club A;\n"


@pytest.fixture
def lines(league, clubs):
    """Two lines held by club A's manager, oldest first."""
    licences.import_licences(league, LINES, actor=clubs["a_manager"], commit=True)
    return list(HeldLicence.objects.order_by("sent_at", "pk"))


@pytest.fixture
def writer(token, boss, clubs):
    """The league manager's write token, of member club A."""
    Membership.objects.create(club=clubs["a"], user=boss, role=Role.SCORER)
    return token(boss, "write", for_club=clubs["a"])


def test_the_pending_lines_a_page_at_a_time(api, writer, lines, clubs):
    body = api(writer).get(URL).json()
    assert (body["count"], body["page"], body["pages"]) == (2, 1, 1)
    first = body["results"][0]
    assert {k: first[k] for k in ("id", "licence", "name", "serie", "status")} == {
        "id": lines[0].pk,
        "licence": "9002",
        "name": "Yves Neuf",
        "serie": "Open",
        "status": "pending",
    }
    assert first["club"] == {"slug": "club-a", "name": "Club A"} and first["sent_at"]
    second = api(writer).get(URL, {"per_page": 1, "page": 9}).json()
    assert second["page"] == 2 and [r["licence"] for r in second["results"]] == ["9003"]
    assert api(writer).get(URL, {"per_page": 51}).status_code == 422


def test_a_hidden_person_is_written_as_the_page_writes_them(api, writer, league, clubs):
    hidden = Person.objects.create(name="Zoé Cachée", licence="9001", serie="Open")
    Player.objects.create(club=clubs["b"], name="Zoé Cachée", person=hidden)
    text = HEADER + "9001;Zoé Cachée;Club A;Open\n"
    licences.import_licences(league, text, actor=clubs["a_manager"], commit=True)
    response = api(writer).get(URL)
    assert "Zoé Cachée" not in response.content.decode()
    row = response.json()["results"][0]
    assert row["name"] == row["licence"] == "A player of a members-only club"


def test_confirming_imports_the_lines_once_per_key(api, writer, lines, boss):
    key = {"Idempotency-Key": "confirm-held-lines-0001"}
    ids = [lines[0].pk, lines[1].pk]
    first = api(writer).post(f"{URL}/confirm", {"ids": ids}, **key)
    assert first.status_code == 200, first.content
    assert "Idempotent-Replayed" not in first
    assert [r["status"] for r in first.json()["results"]] == ["confirmed", "confirmed"]
    assert Person.objects.filter(licence__in=["9002", "9003"]).count() == 2
    again = api(writer).post(f"{URL}/confirm", {"ids": ids}, **key)
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert LeagueAuditEntry.objects.filter(action="held_confirmed").count() == 1
    assert api(writer).get(URL).json()["count"] == 0
    # without the key, a second confirmation finds the lines decided
    decided = api(writer).post(f"{URL}/confirm", {"ids": ids})
    assert decided.status_code == 409 and decided.json()["error"]["code"] == "decided"


def test_a_line_the_import_refuses_stays_pending_with_its_reason(api, writer, lines, league):
    league.series = ["Open"]
    league.save()
    HeldLicence.objects.filter(pk=lines[1].pk).update(serie="Nulle part")
    body = api(writer).post(f"{URL}/confirm", {"ids": [lines[1].pk]}).json()
    row = body["results"][0]
    assert (row["status"], row["code"]) == ("pending", "serie_unknown")
    assert "Nulle part" in row["message"]


def test_dismissing_once_per_key(api, writer, lines):
    key = {"Idempotency-Key": "dismiss-held-line-0001"}
    url = f"{URL}/{lines[0].pk}/dismiss"
    first = api(writer).post(url, **key)
    assert first.status_code == 200 and first.json()["status"] == "dismissed"
    again = api(writer).post(url, **key)
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert LeagueAuditEntry.objects.filter(action="held_dismissed").count() == 1
    assert not Person.objects.filter(licence="9002").exists()
    decided = api(writer).post(url)
    assert decided.status_code == 409 and decided.json()["error"]["code"] == "decided"


def test_an_unknown_line_is_not_found_with_the_services_code(api, writer, lines, league):
    for response in (
        api(writer).post(f"{URL}/999999/dismiss"),
        api(writer).post(f"{URL}/confirm", {"ids": [999999]}),
    ):
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "unknown"
    too_many = api(writer).post(f"{URL}/confirm", {"ids": list(range(1, 52))})
    assert too_many.status_code == 422
    assert api(writer).post(f"{URL}/confirm", {"ids": []}).status_code == 422


def test_who_is_refused(api, token, writer, boss, lines, clubs):
    """As the licence import: no token 401, a read-only token posting 403, a club's
    manager 403 (``forbidden``), a club outside the league 404; nothing decided."""
    confirm, dismiss = f"{URL}/confirm", f"{URL}/{lines[0].pk}/dismiss"
    body = {"ids": [lines[0].pk]}
    assert api().get(URL).status_code == 401
    assert api().post(confirm, body).status_code == 401
    reader = token(boss, "read", for_club=clubs["a"])
    assert api(reader).get(URL).status_code == 200
    for response in (api(reader).post(confirm, body), api(reader).post(dismiss)):
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "token_read_only"
    sender = token(clubs["a_manager"], "write", for_club=clubs["a"])
    for response in (
        api(sender).get(URL),
        api(sender).post(confirm, body),
        api(sender).post(dismiss),
    ):
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "forbidden"
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Membership.objects.create(club=other, user=boss, role=Role.MANAGER)
    outside = token(boss, "write", for_club=other)
    assert api(outside).post(dismiss).status_code == 404
    assert HeldLicence.objects.filter(status="pending").count() == 2


def test_the_schema_describes_them(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    listed = paths["/api/v1/leagues/{league}/licences/held"]["get"]
    assert listed["security"] == [{"TokenAuth": []}]  # a token is needed, even to read
    assert "x-token-needed" not in listed
    confirm = paths["/api/v1/leagues/{league}/licences/held/confirm"]["post"]
    dismiss = paths["/api/v1/leagues/{league}/licences/held/{held_id}/dismiss"]["post"]
    for operation in (confirm, dismiss):
        assert operation["security"] == [{"TokenAuth": []}]
        assert any(p["name"] == "Idempotency-Key" for p in operation["parameters"])
        assert {"200", "401", "403", "404", "409", "422"} <= set(operation["responses"])
    schema = confirm["requestBody"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/HeldConfirmIn")
