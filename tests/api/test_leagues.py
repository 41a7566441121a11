# ruff: noqa: F811 (the league fixtures, imported)
"""The API's league reads give what the league pages show for the same data: the
ranking's rows (every filter and sort, a page at a time), an event's results with the
names a reader may see, a person's season; a token reads no league beyond its club."""

import pytest
from django.urls import reverse

from clubs import tokens
from clubs.models import Club, Membership, Person, Player, Role
from leagues import rating_scope as league_ratings
from leagues import services
from tests.leagues.fixtures import boss, clubs, event, league, lseason  # noqa: F401 (fixtures)
from tests.leagues.test_ranking import counted
from tests.leagues.test_ratings import SEED_HANDS, _sheet, ledger  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

NAMES = (
    ("Anne", "Open", "a"),
    ("Bruno", "1ère", "a"),
    ("Cécile", "Open", "b"),
    ("Didier", "Promotion", "b"),
)


@pytest.fixture
def people(clubs):  # noqa: F811
    out = {}
    for i, (name, serie, club) in enumerate(NAMES):
        person = Person.objects.create(name=name, licence=f"L{i}", serie=serie)
        out[name] = Player.objects.create(club=clubs[club], name=name, person=person)
    return out


@pytest.fixture
def ranked(lseason, event, people):  # noqa: F811
    """Two events: Cécile and Didier play for the members-only club B (not named)."""
    first = counted(
        lseason, event, "E1", 1, {"Anne": 1, "Bruno": 2, "Cécile": 2, "Didier": 4}, people
    )
    counted(lseason, event, "E2", "1.5", {"Cécile": 1, "Anne": 2, "Didier": 3}, people)
    return first


def page_ranking(client, url, params):
    response = client.get(url, params)
    assert response.status_code == 200
    return [
        (r["person_id"], r["rank"], r["serie_rank"], r["name"], str(r["total"]), r["qualified"])
        for r in response.context["rows"]
    ]


def api_ranking(api, url, params):
    response = api.get(url, params)
    assert response.status_code == 200, response.content
    return [
        (r["person_id"], r["rank"], r["serie_rank"], r["name"], r["total"], r["qualified"])
        for r in response.json()["results"]
    ]


FILTERS = [
    {},
    {"serie": "Open"},
    {"serie": "Promotion"},
    {"club": "a"},
    {"club": "b"},
    {"sort": "-rank"},
    {"sort": "name"},
    {"sort": "-name"},
    {"sort": "total"},
    {"sort": "played"},
    {"sort": "serie"},
    {"serie": "Open", "club": "b"},
]


@pytest.mark.parametrize(
    "params", FILTERS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "all"
)
def test_the_ranking_is_the_pages(client, api, clubs, lseason, ranked, params):  # noqa: F811
    page_params = dict(params)
    api_params = dict(params)
    if "club" in params:
        page_params["club"] = clubs[params["club"]].pk
        api_params["club"] = clubs[params["club"]].slug
    page_url = reverse("leagues:ranking", args=["comite", lseason.pk])
    shown = page_ranking(client, page_url, page_params)
    assert shown
    url = f"/api/v1/leagues/comite/seasons/{lseason.pk}/ranking"
    assert api_ranking(api(), url, api_params) == shown


def test_the_ranking_hides_a_members_only_clubs_players_and_pages(api, clubs, lseason, ranked):  # noqa: F811
    url = f"/api/v1/leagues/comite/seasons/{lseason.pk}/ranking"
    body = api().get(url).json()
    names = {r["person_id"]: r["name"] for r in body["results"]}
    assert sorted(n for n in names.values() if n) == ["Anne", "Bruno"]
    assert body["count"] == 4 and body["season"]["best_events"] == 2
    cecile = Person.objects.get(name="Cécile")
    row = next(r for r in body["results"] if r["person_id"] == cecile.pk)
    # 6 (2nd of 4, tied) + 10 × 1.5
    assert (row["total"], row["rank"], row["licence"], row["clubs"]) == (
        "21.000",
        1,
        None,
        [{"slug": "club-b", "name": "Club B"}],
    )
    second = api().get(url, {"per_page": 3, "page": 2}).json()
    assert (second["page"], second["pages"], len(second["results"])) == (2, 2, 1)
    assert api().get(url, {"per_page": 3, "page": 9}).json()["page"] == 2
    refused = api().get(url, {"serie": "Nope"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_filter"
    assert api().get(url, {"club": "elsewhere"}).status_code == 400


def test_an_events_results_are_its_pages(client, api, clubs, lseason, ranked):  # noqa: F811
    page = client.get(reverse("leagues:event", args=["comite", ranked.pk]))
    shown = [(r.rank, r.shown, str(r.points), str(r.weighted)) for r in page.context["results"]]
    body = api().get(f"/api/v1/leagues/comite/events/{ranked.pk}").json()
    assert [(r["rank"], r["name"], r["points"], r["weighted"]) for r in body["results"]] == shown
    assert (body["tournament"], body["club"]["slug"], body["field"], body["stored"]) == (
        "E1",
        "club-a",
        4,
        True,
    )
    events = api().get(f"/api/v1/leagues/comite/seasons/{lseason.pk}/events").json()
    assert [(e["tournament"], e["coefficient"]) for e in events["results"]] == [
        ("E1", "1.00"),
        ("E2", "1.50"),
    ]


def test_a_persons_season_is_their_pages(client, api, clubs, lseason, ranked):  # noqa: F811
    anne = Person.objects.get(name="Anne")
    page = client.get(reverse("leagues:person", args=[anne.pk]))
    shown = [(r.event_id, r.rank, str(r.weighted)) for r in page.context["results"]]
    body = api().get(f"/api/v1/persons/{anne.pk}").json()
    assert [(r["event"], r["rank"], r["weighted"]) for r in body["results"]] == shown
    assert body["person"] == {"id": anne.pk, "name": "Anne", "licence": "L0", "serie": "Open"}
    assert [c["club"]["slug"] for c in body["clubs"]] == ["club-a"]
    # Cécile plays for the members-only club B only: she is not named to anybody who
    # may not read it, and her page answers as an unknown person's
    cecile = Person.objects.get(name="Cécile")
    assert api().get(f"/api/v1/persons/{cecile.pk}").status_code == 404
    assert client.get(reverse("leagues:person", args=[cecile.pk])).status_code == 404
    assert api().get("/api/v1/persons/999999").status_code == 404


def test_a_token_reads_no_league_beyond_its_club(
    api,
    token,
    clubs,
    league,
    lseason,
    ranked,
    django_user_model,  # noqa: F811
):
    league.is_public = False
    league.save()
    url = f"/api/v1/leagues/comite/seasons/{lseason.pk}/ranking"
    assert api().get(url).status_code == 404  # anonymous
    assert api().get("/api/v1/leagues").json()["count"] == 0
    # a member of club B reads the league through B's token, not through another club's
    zoe = django_user_model.objects.create_user("zoe", password="a-long-passphrase-1")
    Membership.objects.create(club=clubs["b"], user=zoe, role=Role.MEMBER)
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Membership.objects.create(club=other, user=zoe, role=Role.MEMBER)
    of_b = token(zoe, for_club=clubs["b"])
    of_other = token(zoe, for_club=other)
    assert api(of_b).get(url).status_code == 200
    assert [row["slug"] for row in api(of_b).get("/api/v1/leagues").json()["results"]] == ["comite"]
    assert api(of_other).get(url).status_code == 404
    assert api(of_other).get("/api/v1/leagues").json()["count"] == 0
    # a person's club B totals only with B's token
    cecile = Person.objects.get(name="Cécile")
    assert [
        c["club"]["slug"] for c in api(of_b).get(f"/api/v1/persons/{cecile.pk}").json()["clubs"]
    ] == ["club-b"]
    assert api(of_other).get(f"/api/v1/persons/{cecile.pk}").status_code == 404
    # revoked: refused at once
    revoked = tokens.ApiToken.objects.get(user=zoe, club=clubs["b"])
    tokens.revoke_token(revoked, actor=zoe)
    assert api(of_b).get(url).status_code == 401


def test_the_league_and_its_seasons(api, clubs, lseason, ranked):  # noqa: F811
    body = api().get("/api/v1/leagues/comite").json()
    assert body["series"] == ["Open", "1ère", "2ème", "Promotion"]
    assert [c["slug"] for c in body["clubs"]] == ["club-a", "club-b"]
    assert [s["id"] for s in body["seasons"]] == [lseason.pk]
    assert api().get("/api/v1/leagues/nowhere").status_code == 404
    services.withdraw_event(ranked)
    events = api().get(f"/api/v1/leagues/comite/seasons/{lseason.pk}/events").json()
    assert [e["withdrawn"] for e in events["results"]] == [True, False]


LIST = "licence;nom;prénom;club;série\n7001;Roux;Anne;Club A;Open\n7002;Vert;Paul;Club Z;Open\n"


def test_the_licence_list_through_the_api(api, token, clubs, league, boss):
    url = "/api/v1/leagues/comite/licences"
    assert api().post(url, {"csv": LIST}).status_code == 401
    manager_a = clubs["a_manager"]
    reader = token(manager_a, "read", for_club=clubs["a"])
    assert api(reader).post(url, {"csv": LIST}).status_code == 403
    writer = token(manager_a, "write", for_club=clubs["a"])
    preview = api(writer).post(url, {"csv": LIST})
    assert preview.status_code == 200, preview.content
    body = preview.json()
    # a licence new to a club's manager is held for the league's managers
    assert (body["committed"], body["counts"]["held"], body["counts"]["refused"]) == (
        False,
        1,
        1,
    )
    assert body["lines"][1]["code"] == "club_unknown"
    french = api(writer).post(url, {"csv": LIST}, **{"Accept-Language": "fr"}).json()
    assert "membre" in french["lines"][1]["message"]
    done = api(writer).post(url, {"csv": LIST, "commit": True}).json()
    assert done["committed"] and done["lines"][0]["action"] == "held"
    assert not Person.objects.filter(licence="7001").exists()
    # club A's manager imports no line of club B
    of_b = "licence;name;club\n7003;Zoé Bleu;club-b\n"
    line = api(writer).post(url, {"csv": of_b}).json()["lines"][0]
    assert line["code"] == "club_not_yours"
    # nor through club A's token when they manage club B too: a token stays in its club
    Membership.objects.create(club=clubs["b"], user=manager_a, role=Role.MANAGER)
    line = api(writer).post(url, {"csv": of_b}).json()["lines"][0]
    assert line["code"] == "club_not_yours"
    of_b_token = token(manager_a, "write", for_club=clubs["b"])
    assert api(of_b_token).post(url, {"csv": of_b}).json()["lines"][0]["action"] == "held"
    # a club outside the league: its token does not reach the league
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Membership.objects.create(club=other, user=manager_a, role=Role.MANAGER)
    assert (
        api(token(manager_a, "write", for_club=other)).post(url, {"csv": LIST}).status_code == 404
    )
    bad = api(writer).post(url, {"csv": "nothing here"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "columns_missing"


def test_a_seasons_events_come_a_page_at_a_time(api, lseason, ranked):  # noqa: F811
    """The events' pages are the API's pages (``api.reads.page_of``): a page past the
    end is the last one, the count is every event's."""
    url = f"/api/v1/leagues/comite/seasons/{lseason.pk}/events"
    first = api().get(url, {"per_page": 1}).json()
    assert (first["count"], first["page"], first["pages"]) == (2, 1, 2)
    assert [e["tournament"] for e in first["results"]] == ["E1"]
    past = api().get(url, {"per_page": 1, "page": 9}).json()
    assert past["page"] == 2 and [e["tournament"] for e in past["results"]] == ["E2"]
    leagues = api().get("/api/v1/leagues", {"per_page": 1, "page": 5}).json()
    assert (leagues["count"], leagues["page"], len(leagues["results"])) == (1, 1, 1)


def test_a_licence_list_meeting_concurrent_writes_is_a_conflict(
    api, token, clubs, league, monkeypatch
):
    """An import that keeps meeting a concurrent write to its persons is refused as a
    409 (try again), not a 400 (the input is fine) nor a 500."""
    from leagues import licences  # noqa: PLC0415
    from tests.leagues.test_licences import _stale_plans  # noqa: PLC0415

    lucie = Person.objects.create(name="Lucie", licence="1002")
    Player.objects.create(club=clubs["b"], name="Lucie", person=lucie)  # club B's to change
    _stale_plans(monkeypatch, times=licences.ATTEMPTS)
    writer = token(clubs["b_manager"], "write", for_club=clubs["b"])
    answer = api(writer).post(
        "/api/v1/leagues/comite/licences",
        {"csv": "licence;name;club\n1002;Lucie Martin;club-b\n", "commit": True},
    )
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "conflict"


def test_a_persons_season_asks_once_a_league_not_once_a_result(
    client,
    api,
    token,
    clubs,
    league,
    lseason,
    event,
    people,
    ranked,
    django_user_model,  # noqa: F811
):
    """Who may read a members-only league is asked once a league: a third result in it
    costs the person's page and its API read no more queries (it was one or two a
    result: the member's clubs, the token's club)."""
    from django.db import connection  # noqa: PLC0415
    from django.test.utils import CaptureQueriesContext  # noqa: PLC0415

    league.is_public = False
    league.save()
    zoe = django_user_model.objects.create_user("zoe", password="a-long-passphrase-1")
    Membership.objects.create(club=clubs["b"], user=zoe, role=Role.MEMBER)
    of_b = token(zoe, for_club=clubs["b"])
    cecile = Person.objects.get(name="Cécile")
    client.force_login(zoe)
    page_url = reverse("leagues:person", args=[cecile.pk])

    def costs():
        out = []
        for read in (
            lambda: api(of_b).get(f"/api/v1/persons/{cecile.pk}"),
            lambda: client.get(page_url),
        ):
            read()  # warm: a token's first use of the minute, the session
            with CaptureQueriesContext(connection) as seen:
                assert read().status_code == 200
            out.append(len(seen))
        return out

    before = costs()
    counted(lseason, event, "E3", 1, {"Cécile": 1, "Anne": 2}, people)
    after = costs()
    assert len(api(of_b).get(f"/api/v1/persons/{cecile.pk}").json()["results"]) == 3
    assert after == before


def test_the_league_ratings_are_the_pages(client, api, token, ledger, monkeypatch):  # noqa: F811
    """``/leagues/{league}/ratings``: the ratings page's rows (rank, person, name as the
    page shows it, rating, μ, σ, hands) and its left-out count; a members-only league
    only to its clubs' members, and through a token of one of its member clubs."""
    from ratings import queries as rating_queries

    league, a, b, c = ledger["league"], ledger["a"], ledger["b"], ledger["c"]
    services.link_by_licence(league, b["players"][0], "L-ANNA", actor=ledger["boss"])
    _sheet(a, 2, SEED_HANDS + SEED_HANDS[:1])
    _sheet(b, 3, SEED_HANDS)
    _sheet(c, 3, SEED_HANDS)  # outside the league
    monkeypatch.setattr(rating_queries, "MIN_HANDS", 6)
    url = "/api/v1/leagues/comite/ratings"

    def page_rows():
        response = client.get(reverse("leagues:ratings", args=["comite"]))
        assert response.status_code == 200
        rows = [
            (
                r["rating"].rank,
                r["person_id"],
                r["name"],
                r["rating"].ordinal,
                r["rating"].mu,
                r["rating"].sigma,
                r["rating"].hands,
            )
            for r in response.context["rows"]
        ]
        return rows, response.context["left_out"]

    def api_rows(reader):
        response = reader.get(url)
        assert response.status_code == 200, response.content
        body = response.json()
        rows = [
            (r["rank"], r["person_id"], r["name"], r["rating"], r["mu"], r["sigma"], r["hands"])
            for r in body["results"]
        ]
        assert body["min_hands"] == rating_queries.MIN_HANDS
        assert body["recomputing"] is False
        return rows, body["left_out"]

    shown, left_out = page_rows()
    assert len(shown) == 4 and left_out == 3  # Anna (11 hands) and A's three; B's three out
    assert api_rows(api()) == (shown, left_out)
    anna = next(r for r in api().get(url).json()["results"] if r["hands"] == 11)
    assert (anna["person_id"], anna["name"]) == (ledger["person"].pk, "Anna")
    monkeypatch.setattr(rating_queries, "MIN_HANDS", 5)
    shown, left_out = page_rows()
    assert [r[2] for r in shown].count(None) == 3  # B's players: not named
    assert api_rows(api()) == (shown, 0)
    # a members-only league: not to strangers, nor through another club's token
    league.is_public = False
    league.save()
    assert api().get(url).status_code == 404
    assert api(token(c["user"], for_club=c["club"])).get(url).status_code == 404
    of_b = api(token(b["user"], for_club=b["club"]))
    client.force_login(b["user"])
    assert api_rows(of_b) == page_rows()
    assert api().get("/api/v1/leagues/nowhere/ratings").status_code == 404
    # a re-rating left to the background: said, as the page says it
    from ratings.models import Recompute

    Recompute.objects.create(scope=league_ratings.key(league.pk))
    assert of_b.get(url).json()["recomputing"] is True
