"""A member's rights: their data downloaded (from My account, or by their club's
manager), and a former player erased at their request. After the erasure no page,
export, API answer or new backup holds their name, e-mail or licence, and every score,
total, ranking, league total and rating is what it was."""

import datetime
import json
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs import services as club_services
from clubs.models import ApiToken, AuditEntry, Membership, Person, Player, Role
from leagues import season_standings
from leagues import services as league_services
from leagues.erasure import erase_player
from leagues.models import EventResult, HeldLicence, Standing
from leagues.rights import RightsError
from ratings.models import Rating
from scoresheet import services
from scoresheet.models import ScoreRow, SeasonTotal, SheetTotal
from tests.leagues.test_events import close
from tournaments import services as tournament_services
from tournaments.models import Tournament
from transfer import backup as backups
from transfer import jobs
from transfer.models import Job

NAME, OLD_NAME = "Zéphyrine Quenouille", "Zephy Q"
LICENCE, EMAIL, USERNAME = "LIC98765", "zephy.q@example.org", "zquenouille"
SECRETS = (NAME, OLD_NAME, "Quenouille", LICENCE, EMAIL, USERNAME)


@pytest.fixture
def world(clubs, lseason, event, boss, django_user_model):
    """Club A (public, in the league): Zéphyrine, renamed once, linked by licence to
    a person that is her login; her login scored a sheet she played and was then
    removed from the members; a league event of A she played, closed; three others."""
    club, manager = clubs["a"], clubs["a_manager"]
    season = club_services.create_season(
        club, "2026", datetime.date(2026, 1, 1), None, "fft", actor=manager
    )
    zephy = club_services.create_player(club, OLD_NAME, actor=manager)
    zephy = club_services.rename_player(zephy, NAME, actor=manager)
    others = [club_services.create_player(club, n, actor=manager) for n in ("Anna", "Bert", "Carl")]
    login = django_user_model.objects.create_user(
        USERNAME, EMAIL, "pw-long-12345", first_name="Zéphyrine", last_name="Quenouille"
    )
    membership = Membership.objects.create(club=club, user=login, role=Role.SCORER)
    club_services.link_player(membership, zephy, actor=manager)
    league_services.link_by_licence(lseason.league, zephy, LICENCE, name=NAME, actor=boss)
    Person.objects.filter(licence=LICENCE).update(user=login)  # her claim, confirmed
    sheet = services.create_sheet(
        season=season, players=[zephy, *others], date=datetime.date(2026, 3, 2), actor=login
    )
    for taker in (NAME, "Anna", NAME, "Bert", "Carl"):
        hand = {"taker": taker, "contract": "garde", "bouts": 2, "points": 48}
        services.record_hand(sheet, hand, actor=login)
    tournament = event("Open de mars")
    league_services.register_event(lseason, tournament, actor=manager)
    tournament_services.register(tournament, [("member", p) for p in [zephy, *others]])
    close(tournament)
    club_services.remove_member(membership, actor=manager)
    zephy.refresh_from_db()
    return {
        "club": club,
        "manager": manager,
        "player": zephy,
        "login": login,
        "season": season,
        "sheet": sheet,
        "lseason": lseason,
        "tournament": tournament,
        "boss": boss,
    }


def figures(w) -> dict:
    """Every figure the erasure must keep, by player and person ids."""
    club = w["club"]
    tournament = Tournament.objects.get(pk=w["tournament"].pk)
    return {
        "rows": sorted(
            ScoreRow.objects.filter(sheet__club=club).values_list("pk", "player", "score")
        ),
        "sheets": sorted(
            SheetTotal.objects.filter(sheet__club=club).values_list("player", "score")
        ),
        "seasons": sorted(
            SeasonTotal.objects.filter(season__club=club).values_list(
                "player", "seated", "hands", "taken", "made", "score"
            )
        ),
        "ratings": sorted(Rating.objects.values_list("scope", "player", "mu", "sigma", "ordinal")),
        "results": sorted(
            EventResult.objects.values_list("pk", "person", "player", "rank", "weighted")
        ),
        "standings": sorted(
            Standing.objects.values_list("person", "total", "counted", "place", "serie_place")
        ),
        "league": [
            (row["person_id"], row["total"], row.get("rank"))
            for row in season_standings.season_ranking(w["lseason"])
        ],
        "final": [
            (p["number"], p["rank"], p["total"]) for p in tournament.final_ranking["players"]
        ],
    }


def bodies(client, w) -> dict:
    """Every page, export and API answer of the club and the league that could name a
    player, as the club's manager reads them, and a new backup."""
    club, slug = w["club"], w["club"].slug
    player, season, sheet = w["player"], w["season"], w["sheet"]
    tournament, lseason = w["tournament"], w["lseason"]
    person = Person.objects.get(pk=player.person_id)
    league = lseason.league.slug
    event = EventResult.objects.filter(player=player).get().event
    urls = [
        reverse("clubs:detail", args=[slug]),
        reverse("clubhouse:players", args=[slug]),
        reverse("clubhouse:history", args=[slug]),
        reverse("standings:club", args=[slug]),
        reverse("standings:season", args=[slug, season.pk]),
        reverse("standings:ratings", args=[slug]),
        reverse("stats:player", args=[slug, player.pk]),
        reverse("stats:season", args=[slug, season.pk]),
        reverse("scoresheet:sheets", args=[slug]),
        reverse("scoresheet:sheet", args=[slug, sheet.pk]),
        reverse("scoresheet:sheet_export", args=[slug, sheet.pk]),
        reverse("scoresheet:sheet_print", args=[slug, sheet.pk]),
        reverse("scoresheet:hand", args=[slug, sheet.pk, 1]),
        reverse("transfer:season_csv", args=[slug, season.pk]),
        reverse("transfer:season_jsonl", args=[slug, season.pk]),
        reverse("tournaments:detail", args=[slug, tournament.pk]),
        reverse("tournaments:ranking", args=[slug, tournament.pk]),
        reverse("tournaments:export_json", args=[slug, tournament.pk]),
        reverse("tournaments:screen", args=[slug, tournament.pk]),
        reverse("tournaments:round", args=[slug, tournament.pk, 1]),
        reverse("leagues:home", args=[league]),
        reverse("leagues:ranking", args=[league, lseason.pk]),
        reverse("leagues:season_json", args=[league, lseason.pk]),
        reverse("leagues:season_csv", args=[league, lseason.pk]),
        reverse("leagues:event", args=[league, event.pk]),
        reverse("leagues:person", args=[person.pk]),
        f"/api/v1/clubs/{slug}/players",
        f"/api/v1/clubs/{slug}/standings",
        f"/api/v1/clubs/{slug}/sheets/{sheet.pk}",
        f"/api/v1/clubs/{slug}/seasons/{season.pk}/results",
        f"/api/v1/clubs/{slug}/tournaments/{tournament.pk}/results",
        f"/api/v1/clubs/{slug}/tournaments/{tournament.pk}/ranking",
        f"/api/v1/leagues/{league}/seasons/{lseason.pk}/ranking",
        f"/api/v1/persons/{person.pk}",
    ]
    client.force_login(w["manager"])
    found = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        content = b"".join(response.streaming_content) if response.streaming else response.content
        found[url] = content.decode()
    client.force_login(w["boss"])
    history = reverse("leagues:history", args=[league])
    found[history] = client.get(history).content.decode()
    found["backup"] = backups.dumps(club)
    return found


def leaks(found) -> list:
    return [
        (where, secret)
        for where, text in found.items()
        for secret in SECRETS
        if secret.casefold() in text.casefold()
        or json.dumps(secret).strip('"').casefold() in text.casefold()
    ]


def test_after_erasure_nothing_names_them_and_every_figure_stays(
    world, client, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.FILES_DIR = tmp_path
    made = jobs.start(Job.Kind.BACKUP, club=world["club"], actor=world["manager"])
    made.refresh_from_db()
    assert NAME in jobs.path_of(made.file).read_text(encoding="utf-8")
    before = figures(world)
    named = leaks(bodies(client, world))
    # the world names her everywhere it should: the test would see a leak
    for where in ("backup", reverse("clubhouse:history", args=[world["club"].slug])):
        assert (where, NAME) in named and (where, USERNAME) in named, where
    assert {where for where, secret in named if secret == LICENCE}
    assert (reverse("leagues:history", args=["comite"]), NAME) in named
    with django_capture_on_commit_callbacks(execute=True):
        erased = erase_player(world["player"], actor=world["manager"])
    assert erased.name == "Ancien joueur 1"
    assert figures(world) == before
    # the backup made before is gone from the site, its page says so
    assert not jobs.path_of(made.file).exists()
    made.refresh_from_db()
    assert made.file == "" and made.options["expired"]
    assert leaks(bodies(client, world)) == []
    person = Person.objects.get(pk=erased.person_id)
    assert (person.name, person.licence, person.user) == ("Ancien joueur 1", None, None)
    entry = AuditEntry.objects.get(action="player_erased")
    assert entry.actor == world["manager"] and entry.object_label == "Ancien joueur 1"
    # the login stays the person's, unlinked from the club
    world["login"].refresh_from_db()
    assert not Player.objects.filter(user=world["login"]).exists()


def test_the_held_licence_lines_naming_them_go(world):
    """A licence line held for the league that names her (her licence, or her name)
    would make her person again once confirmed: the erasure removes it."""
    league = world["lseason"].league
    for licence, name in ((LICENCE, "Z. Q."), ("LIC1", NAME), ("LIC2", "Anna Autre")):
        HeldLicence.objects.create(
            league=league,
            club=world["club"],
            licence=licence,
            name=name,
            sent_at=timezone.now(),
            sent_by=world["login"],  # she sent them, once a manager
        )
    erase_player(world["player"], actor=world["manager"])
    # the line naming another stays, no longer saying who sent it
    assert list(HeldLicence.objects.values_list("licence", "sent_by")) == [("LIC2", None)]


def test_the_next_erasure_is_numbered_on(world, clubs):
    erase_player(world["player"], actor=world["manager"])
    other = club_services.create_player(clubs["a"], "Ancien joueur 2")
    gone = club_services.create_player(clubs["a"], "Yves Dupré")
    assert erase_player(gone, actor=world["manager"]).name == "Ancien joueur 3"
    assert other.name == "Ancien joueur 2"


def test_erasure_is_refused_for_a_member_another_club_or_anyone_but_the_manager(
    world, clubs, django_user_model
):
    player, manager = world["player"], world["manager"]
    with pytest.raises(RightsError) as refused:
        erase_player(player, actor=clubs["b_manager"])
    assert refused.value.code == "forbidden"
    Membership.objects.create(club=world["club"], user=world["login"], role=Role.MEMBER)
    player.user = world["login"]
    player.save()
    with pytest.raises(RightsError) as refused:
        erase_player(player, actor=manager)
    assert refused.value.code == "still_member" and NAME in refused.value.message
    Membership.objects.filter(user=world["login"]).delete()
    Player.objects.create(club=clubs["b"], name="Zéphyrine", person=player.person)
    with pytest.raises(RightsError) as refused:
        erase_player(player, actor=manager)
    assert refused.value.code == "plays_elsewhere"
    assert Player.objects.get(pk=player.pk).name == NAME  # nothing written


def test_the_erasure_page_says_what_happens_then_erases(world, client):
    slug, player = world["club"].slug, world["player"]
    url = reverse("league_club:player_erase", args=[slug, player.pk])
    client.force_login(world["manager"])
    page = client.get(url).content.decode()
    assert "Ancien joueur" in page and "cannot be undone" in page
    assert client.post(url, {}).status_code == 400  # the box not ticked
    assert Player.objects.get(pk=player.pk).name == NAME
    response = client.post(url, {"confirm": "erase"})
    assert response.status_code == 302
    assert Player.objects.get(pk=player.pk).name == "Ancien joueur 1"


def download(client, url) -> dict:
    response = client.post(url)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    return json.loads(b"".join(response.streaming_content))


def test_a_person_downloads_everything_the_site_holds_about_them(world, client):
    login = world["login"]
    league = world["lseason"].league
    Person.objects.create(name=NAME, licence="LIC9")  # a namesake, licensed
    for licence, name in (
        (LICENCE, "Z. Q."),
        ("LIC1", NAME),
        ("LIC2", "Anna Autre"),
        ("LIC9", NAME),  # the namesake's licence: not hers
    ):
        HeldLicence.objects.create(
            league=league, club=world["club"], licence=licence, name=name, sent_at=timezone.now()
        )
    secret = "f" * 64
    ApiToken.objects.create(
        user=login, club=world["club"], name="phone", prefix="tl_abc", token_hash=secret
    )
    client.force_login(login)
    assert "Download my data" in client.get(reverse("profile")).content.decode()
    data = download(client, reverse("leagues:my_data"))
    assert data["logins"][0]["email"] == EMAIL
    assert data["person"]["licence"] == LICENCE
    (player,) = data["players"]
    assert player["name"] == NAME and len(player["hands"]) == 5 + 4  # the sheet, the event
    assert sum(Decimal(h["score"]) for h in player["hands"]) == sum(
        ScoreRow.objects.filter(player=world["player"]).values_list("score", flat=True)
    )
    assert player["season_totals"] and player["tournament_entries"]
    assert data["league"]["results"] and data["league"]["standings"]
    held = [(h["licence"], h["name"]) for h in data["league"]["held_licence_lines"]]
    assert held == [(LICENCE, "Z. Q."), ("LIC1", NAME)]  # not Anna's, not the namesake's
    assert [t["name"] for t in data["api_tokens"]] == ["phone"]
    text = json.dumps(data)
    assert secret not in text and "tl_abc" not in text
    assert any(e["action"] == "player_renamed" for e in data["audit_entries"])
    assert AuditEntry.objects.filter(action="data_downloaded", actor=login).count() == 1


def test_the_manager_downloads_a_players_data_and_no_one_else_may(world, client, clubs):
    slug, player = world["club"].slug, world["player"]
    url = reverse("league_club:player_data", args=[slug, player.pk])
    client.force_login(clubs["b_manager"])
    assert client.post(url).status_code in (403, 404)
    client.force_login(world["manager"])
    assert "Download this player's data" in client.get(url).content.decode()
    data = download(client, url)
    assert data["scope"] == f"club:{slug}" and data["players"][0]["name"] == NAME
    entry = AuditEntry.objects.get(action="data_downloaded")
    assert entry.actor == world["manager"] and entry.object_id == player.pk
