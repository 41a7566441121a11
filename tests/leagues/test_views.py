"""The league pages through the client: the ranking's filters, sorting and exports, an
event's results, the managers' forms, My account's claim and the club's confirmation,
bad input answered without a 500."""

import csv
import io
import json

import openpyxl
import pytest
from django.urls import reverse

from clubs.models import Person, Player
from leagues import services
from leagues.models import LeagueSeason, LinkClaim
from tests.leagues.test_ranking import counted


@pytest.fixture
def ranked(clubs, lseason, event):
    people = {}
    for i, (name, serie) in enumerate((("Anne", "Open"), ("Bruno", "1ère"), ("Cécile", "Open"))):
        person = Person.objects.create(name=name, licence=f"L{i}", serie=serie)
        people[name] = Player.objects.create(club=clubs["a"], name=name, person=person)
    e = counted(lseason, event, "Open", 1, {"Anne": 1, "Bruno": 2, "Cécile": 3}, people)
    return e


def test_the_ranking_page_filters_sorts_and_exports(client, lseason, ranked):
    url = reverse("leagues:ranking", args=["comite", lseason.pk])
    page = client.get(url).content.decode()
    assert page.index("Anne") < page.index("Bruno") < page.index("Cécile")
    page = client.get(url, {"serie": "Open"}).content.decode()
    assert "Bruno" not in page and "qualified" in page  # Anne is the first of Open
    page = client.get(url, {"sort": "-name"}).content.decode()
    assert page.index("Cécile") < page.index("Bruno") < page.index("Anne")
    response = client.get(url, {"_export": "csv"})
    lines = list(csv.reader(io.StringIO(response.content.decode().lstrip("\ufeff"))))
    assert lines[1][:4] == ["1", "1", "Anne", "L0"] and lines[1][6] == "10"
    # French: ";" between cells, numbers that a French spreadsheet reads
    french = client.get(url, {"_export": "csv"}, HTTP_ACCEPT_LANGUAGE="fr")
    rows = list(csv.reader(io.StringIO(french.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[1][:4] == ["1", "1", "Anne", "L0"] and rows[1][6] == "10"
    assert all("." not in cell for row in rows[1:] for cell in row[5:8])
    book = client.get(url, {"_export": "xlsx"})
    assert book["Content-Type"].startswith("application/vnd")
    cells = list(openpyxl.load_workbook(io.BytesIO(book.content)).active.values)
    assert len(cells) == len(lines) and cells[0] == tuple(lines[0])
    assert cells[1][:4] == (1, 1, "Anne", "L0") and cells[1][6] == 10  # numbers as numbers
    assert [row[2] for row in cells[1:]] == [line[2] for line in lines[1:]]
    assert client.get(url, {"_export": "pdf"}).status_code == 400
    assert client.get(url, {"serie": "nope", "club": "x", "sort": "evil"}).status_code == 200


def test_season_exports_carry_licences(client, lseason, ranked):
    data = json.loads(
        client.get(reverse("leagues:season_json", args=["comite", lseason.pk])).content
    )
    assert [r["licence"] for r in data["ranking"]] == ["L0", "L1", "L2"]
    assert data["events"][0]["field"] == 3 and data["results"][0]["points"] == "10.000"
    assert data["results"][0]["licence"] == "L0" and data["results"][0]["event"] == ranked.pk
    text = client.get(reverse("leagues:season_csv", args=["comite", lseason.pk])).content.decode()
    assert "L1" in text and "Open" in text
    lines = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert [line[4:6] for line in lines[1:]] == [["Anne", "L0"], ["Bruno", "L1"], ["Cécile", "L2"]]
    assert len(lines) == 1 + len(data["results"])


def test_the_event_page_and_the_home(client, lseason, ranked):
    page = client.get(reverse("leagues:event", args=["comite", ranked.pk])).content.decode()
    assert "Anne" in page and "10.000" in page
    home = client.get(reverse("leagues:home", args=["comite"])).content.decode()
    assert "Club A" in home and "Open" in home


def test_the_manager_makes_a_season_then_sets_its_scale_in_the_editor(client, boss, league):
    client.force_login(boss)
    url = reverse("leagues:manage", args=["comite"])
    post = {"action": "season", "name": "S2", "start_date": "2026-09-01"}
    response = client.post(url, post, follow=True)
    season = LeagueSeason.objects.get()
    assert response.redirect_chain[-1][0] == reverse(
        "leagues:season_edit", args=["comite", season.pk]
    )
    assert "S2" in str(list(response.context["messages"])[0])
    assert season.scale == {"kind": "proportional", "points": "100"}
    edit = reverse("leagues:season_edit", args=["comite", season.pk])
    rows = {"row-TOTAL_FORMS": "3", "row-INITIAL_FORMS": "0"}
    base = {"name": "S2", "start_date": "2026-09-01", **rows}
    # a refused value is named with its place, in French for a French reader
    bad = {**base, "scale-kind": "table", "row-0-start": "1", "row-0-points": "10 six 4"}
    page = client.post(edit, bad, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Place 2\u00a0: «\u00a0six\u00a0» n’est pas un nombre." in page
    season.refresh_from_db()
    assert season.scale["kind"] == "proportional"
    # the preview shows each place's points and saves nothing
    table = {
        **base,
        "scale-kind": "table",
        "row-0-start": "1",
        "row-0-points": "10 6 4 2",
        "row-1-start": "9",
        "row-1-points": "20 15 10 5 2,5",
    }
    page = client.post(edit, {**table, "action": "preview"}).content.decode()
    assert "1 to 8 players" in page and "9 players and more" in page and "5. 2.5" in page
    season.refresh_from_db()
    assert season.scale["kind"] == "proportional"
    response = client.post(edit, {**table, "action": "save"}, follow=True)
    assert "saved" in str(list(response.context["messages"])[0])
    season.refresh_from_db()
    assert season.scale == {
        "kind": "table",
        "tables": [
            {"from": 1, "points": ["10", "6", "4", "2"]},
            {"from": 9, "points": ["20", "15", "10", "5", "5/2"]},
        ],
    }
    # proportional, previewed on a few field sizes, exact to show: 4 players, 100 → 66.67
    prop = {**base, "scale-kind": "proportional", "scale-top": "100", "action": "preview"}
    page = client.post(edit, prop).content.decode()
    assert "2. 66.67" in page and "3. 33.33" in page
    # the invitation's club comes from the list: an unknown one is refused on the form
    assert client.post(url, {"action": "invite", "club": "nowhere"}).status_code == 200


def test_a_claim_from_my_account_confirmed_on_the_club_page(client, clubs, django_user_model):
    from clubs.models import Membership  # noqa: PLC0415

    zoe = django_user_model.objects.create_user("zoe", password="pw-long-12345")
    Membership.objects.create(club=clubs["a"], user=zoe)
    player = Player.objects.create(club=clubs["a"], name="Zoé")
    client.force_login(zoe)
    mine = reverse("leagues:mine")
    client.post(mine, {"name": "Zoé", "licence": "99", "serie": "Open"})
    client.post(mine, {"action": "claim", "player": player.pk})
    assert client.post(mine, {"action": "claim", "player": "abc"}).status_code == 404
    claim = LinkClaim.objects.get()
    client.force_login(clubs["a_manager"])
    page = reverse("league_club:leagues", args=["club-a"])
    assert client.post(page, {"action": "confirm", "claim": claim.pk}).status_code == 302
    player.refresh_from_db()
    assert player.person.licence == "99" and player.person.user == zoe
    assert client.post(page, {"action": "confirm", "claim": "x"}).status_code == 404


def test_the_person_page_reads_in_few_queries(client, clubs, ranked, django_assert_max_num_queries):
    person = Person.objects.get(name="Anne")
    services.link_by_licence(
        clubs["a"].league_links.get().league,
        Player.objects.create(club=clubs["b"], name="Anne B"),
        "L0",
    )
    url = reverse("leagues:person", args=[person.pk])
    with django_assert_max_num_queries(12):
        page = client.get(url).content.decode()
    assert "Club A" in page and "Anne B" not in page  # club B is members-only


def test_the_history_page_lists_the_leagues_audit_newest_first_for_its_managers(
    client, boss, clubs, lseason, django_assert_num_queries
):
    from leagues.models import League, LeagueAuditEntry  # noqa: PLC0415
    from leagues.views import HISTORY_PER_PAGE  # noqa: PLC0415

    league = League.objects.get(slug="comite")
    url = reverse("leagues:history", args=["comite"])
    # a club's manager, even of a member club, is no manager of the league
    client.force_login(clubs["a_manager"])
    assert client.get(url).status_code == 403
    assert reverse("leagues:history", args=["comite"]) not in (
        client.get(reverse("leagues:home", args=["comite"])).content.decode()
    )
    client.force_login(boss)
    home = client.get(reverse("leagues:home", args=["comite"])).content.decode()
    assert f'href="{url}"' in home
    services.set_series(league, ["Open", "Espoirs"], actor=boss)
    with django_assert_num_queries(7):  # session, user, league, manager, count, page, hidden
        page = client.get(url).content.decode()
    rows = [
        line.split('data-action="')[1].split('"')[0]
        for line in page.splitlines()
        if "data-action=" in line
    ]
    # newest first: the séries, the season, the clubs joined and invited, the league
    assert rows == [
        "series_changed",
        "season_saved",
        "club_joined",
        "club_invited",
        "club_joined",
        "club_invited",
        "league_created",
    ]
    assert "séries changed" in page and "series: Open, Espoirs" in page and "boss" in page
    client.cookies["django_language"] = "fr"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "séries modifiées" in page and "club invité" in page and "Historique" in page
    # paged: a page of the newest, the rest on the next ones; a page past the end is the last
    LeagueAuditEntry.objects.bulk_create(
        LeagueAuditEntry(league=league, action="club_left", label=f"Club {i:03d}")
        for i in range(HISTORY_PER_PAGE)
    )
    client.cookies["django_language"] = "en"
    first = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "57 changes" in first and "Page 1 of 2" in first and "series_changed" not in first
    last = client.get(url, {"page": "999"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Page 2 of 2" in last and "series_changed" in last and "league_created" in last
    assert client.get(url, {"page": "x"}).status_code == 200


def test_the_ranking_filters_by_a_club_typed_or_followed_in_few_queries(
    client, clubs, lseason, ranked, django_assert_num_queries
):
    from clubs.models import Club  # noqa: PLC0415

    for name in ("Club Azur", "Club Azalée"):
        club = Club.objects.create(name=name, slug=name.lower().replace(" ", "-"))
        services.accept_invitation(services.invite_club(lseason.league, club))
    url = reverse("leagues:ranking", args=["comite", lseason.pk])
    with django_assert_num_queries(5):  # league, season, the rows, their clubs, who is named
        page = client.get(url).content.decode()
    assert "Club B</option>" not in page  # no list of every member club
    assert f'href="?club={clubs["a"].pk}"' in page  # a row's club filters by it
    with django_assert_num_queries(6):  # and the club named
        page = client.get(url, {"club": "club a"}).content.decode()
    assert 'value="Club A"' in page and "Anne" in page and "data-club-matches" not in page
    page = client.get(url, {"club": "az"}).content.decode()
    assert "Several member clubs match" in page and "Club Azalée" in page and "Club Azur" in page
    assert "Anne" in page  # not filtered while ambiguous
    page = client.get(url, {"club": clubs["b"].pk}).content.decode()
    assert "No result yet." in page  # nobody of club B ranked
    page = client.get(url, {"club": "nowhere"}).content.decode()
    assert "No member club matches this name." in page
    assert client.get(url, {"club": "Club\tA", "page": "-3"}).status_code == 200
    assert client.get(url, {"club": "\x00"}).status_code == 400  # refused before the view
