"""Licence numbers on a tournament's printed and exported results (the ranking page,
its CSV, XLSX and JSON exports, a duplicate event's ranking and exports, the API's
results file): each player's licence, but only where the reader may see the person
(``clubs.visibility``). A guest who plays for a members-only club is entered as
"Player no. N" and keeps that label and no licence for anybody else."""

import csv
import io
import json

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import Club, Membership, Person, Player, Role
from tests.tournaments.duplicate_helpers import make_event, play_round
from tournaments import queries, services
from tournaments.duplicate import services as duplicate_services
from tournaments.models import Round

HIDDEN = "H-0099"


@pytest.fixture
def people(club, django_user_model):
    """A member with a licence, a guest typed with one, and a guest who plays for a
    members-only club (hidden from whoever is not one of its members)."""
    closed = Club.objects.create(name="Cercle privé", slug="prive", is_public=False)
    hidden = Person.objects.create(name="Hélène Cachée", licence=HIDDEN)
    Player.objects.create(club=closed, name="Hélène Cachée", person=hidden)
    member = Person.objects.create(name="Marc Licencié", licence="M-0042")
    players = [Player.objects.create(club=club, name=f"Joueur {i:02d}") for i in range(1, 8)]
    players[0].person = member
    players[0].name = member.name
    players[0].save()
    insider = django_user_model.objects.create_user("insider", password="a-long-pass-1")
    Membership.objects.create(club=closed, user=insider, role=Role.MEMBER)
    guests = [
        ("guest", ("Gaston Invité", "Club voisin", "G-0555")),
        ("guest", ("Hélène Cachée", "Cercle privé", "", hidden)),
    ]
    return players, guests, insider


def register(event, players, guests):
    services.register(event, [("member", p) for p in players[:6]] + guests)


def page_licences(html):
    return [cell.split("</td>")[0] for cell in html.split("data-licence>")[1:]]


def hidden_row(rows):
    return next(r for r in rows if r["name"].startswith("Player no."))


def test_the_free_ranking_carries_the_licences_the_reader_may_see(
    client, club, people, make_tournament
):
    players, guests, insider = people
    t = make_tournament(players=0)
    register(t, players, guests)
    url = reverse("tournaments:ranking", args=[club.slug, t.pk])
    page = client.get(url).content.decode()
    assert sorted(x for x in page_licences(page) if x) == ["G-0555", "M-0042"]
    assert "Player no." in page and HIDDEN not in page
    table = list(
        csv.reader(io.StringIO(client.get(url + "?_export=csv").content.decode("utf-8-sig")))
    )
    licence = table[0].index("Licence")
    by_name = {row[2]: row[licence] for row in table[1:]}
    assert by_name["Marc Licencié"] == "M-0042" and by_name["Gaston Invité"] == "G-0555"
    assert next(v for k, v in by_name.items() if k.startswith("Player no.")) == ""
    book = load_workbook(io.BytesIO(client.get(url + "?_export=xlsx").content))
    cells = [str(c.value) for row in book.active.iter_rows() for c in row]
    assert "M-0042" in cells and HIDDEN not in cells
    export = reverse("tournaments:export_json", args=[club.slug, t.pk])
    data = json.loads(client.get(export).content)
    assert hidden_row(data["ranking"])["licence"] == ""
    assert {r["licence"] for r in data["ranking"]} == {"", "M-0042", "G-0555"}
    # a member of the hidden player's club may see her: her licence is shown to them
    client.force_login(insider)
    assert HIDDEN in page_licences(client.get(url).content.decode())
    assert hidden_row(json.loads(client.get(export).content)["ranking"])["licence"] == HIDDEN


def test_a_closed_tournament_exports_only_the_licences_the_reader_may_see(
    client, club, people, make_tournament, manager
):
    players, guests, _insider = people
    t = make_tournament(players=0, rounds=1)
    register(t, players, guests)
    t.final_ranking = {
        "players": queries.json_ranking([{**row, "licence": HIDDEN} for row in queries.ranking(t)]),
        "teams": [],
    }
    t.save()
    export = reverse("tournaments:export_json", args=[club.slug, t.pk])
    data = json.loads(client.get(export).content)
    assert HIDDEN not in {r["licence"] for r in data["ranking"]}


def test_a_duplicate_event_prints_and_exports_the_licences_the_reader_may_see(
    client, club, people, manager
):
    players, guests, insider = people
    event = make_event(club, players, manager, players=0, rounds=2, deals=2)
    register(event, players, guests)
    duplicate_services.draw_movement(event, actor=manager)
    rnd = Round.objects.get(tournament=event, number=1)
    services.start_round(rnd)
    play_round(rnd)
    page = client.get(reverse("tournaments:duplicate_ranking", args=[club.slug, event.pk]))
    shown = page_licences(page.content.decode())
    assert "M-0042" in shown and "G-0555" in shown and HIDDEN not in shown
    export = reverse("tournaments:duplicate_export", args=[club.slug, event.pk])
    data = json.loads(client.get(export).content)
    assert set(data["licences"].values()) == {"M-0042", "G-0555"}
    text = client.get(export + "?format=csv").content.decode("utf-8-sig")
    assert "M-0042" in text and "G-0555" in text and HIDDEN not in text
    client.force_login(insider)
    assert HIDDEN in client.get(export + "?format=csv").content.decode("utf-8-sig")


def test_the_api_results_file_carries_the_licences_the_caller_may_see(
    client, club, people, make_tournament
):
    players, guests, _insider = people
    t = make_tournament(players=0)
    register(t, players, guests)
    answer = client.get(f"/api/v1/clubs/{club.slug}/tournaments/{t.pk}/results").json()
    licences = {p["name"]: p["licence"] for p in answer["players"]}
    assert licences["Marc Licencié"] == "M-0042" and licences["Gaston Invité"] == "G-0555"
    assert HIDDEN not in licences.values()
