"""Two clubs join a league; a person links their players in both; a tournament of club A
with a guest of club B found across the league is counted as a league event and
closed; the league ranking shows the scale's placement points and the person's page
both clubs' seasons. The pages do every step of the issue; deals go through the
services (the tournament day has its own browser tests)."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Membership, Person, Player, Role, Season
from leagues import services as leagues
from leagues.models import EventResult
from scoresheet import services as sheets
from tests.leagues.test_events import close
from tournaments import services as tournaments

pytestmark = pytest.mark.browser

HAND = {"dealer": "", "taker": "", "contract": "garde", "bouts": 2, "points": 56}


def club_with_manager(django_user_model, key, public=True):
    club = Club.objects.create(name=f"Club {key}", slug=f"club-{key.lower()}", is_public=public)
    user = django_user_model.objects.create_user(f"manager_{key}", password="pw-long-12345")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return club, user


def an_evening(club, names):
    """A season of the club and one sheet where ``names`` play a hand (stored totals)."""
    season = Season.objects.create(club=club, name="2026", start_date=datetime.date(2026, 1, 1))
    players = [Player.objects.get_or_create(club=club, name=n)[0] for n in names]
    sheet = sheets.create_sheet(season=season, players=players, date=datetime.date(2026, 2, 2))
    sheets.record_hand(sheet, dict(HAND, dealer=names[0], taker=names[1]))


def test_a_league_season_across_two_clubs(page, live_server, log_in, django_user_model):
    base = live_server.url
    boss = django_user_model.objects.create_user("boss", password="pw-long-12345")
    league = leagues.create_league("Comité du Rhône", "comite", managers=[boss])
    a, manager_a = club_with_manager(django_user_model, "A")
    b, manager_b = club_with_manager(django_user_model, "B", public=False)
    zoe = django_user_model.objects.create_user("zoe", password="pw-long-12345")
    for club in (a, b):
        Membership.objects.create(club=club, user=zoe, role=Role.MEMBER)
    an_evening(a, ["Zoé", "Anna", "Marc", "Paul"])
    an_evening(b, ["Zoé D.", "Bruno", "Carla", "Denis"])

    # the league's manager invites both clubs and opens a season with a points table
    log_in(page, boss)
    page.goto(f"{base}/leagues/comite/manage/")
    for name in ("Club A", "Club B"):
        page.locator("[data-invite]").get_by_label("Club").select_option(label=name)
        page.locator("[data-invite]").get_by_role("button").click()
        expect(page.locator("[data-messages]")).to_contain_text(f"{name} is invited.")
    form = page.locator("[data-season-form]")
    form.get_by_label("Name").fill("2025-2026")
    form.get_by_label("Start").fill("2025-09-01")
    form.get_by_label("End").fill("2026-06-30")
    form.get_by_label("Events counted").fill("3")
    form.get_by_role("button").click()
    # the season's page: its placement scale typed as a row of points
    editor = page.locator("[data-season-edit]")
    editor.get_by_text("a table by place and field size").click()
    row = editor.locator("[data-scale-row]").first
    row.get_by_label("From a field of").fill("1")
    row.get_by_label("Points of the 1st, 2nd, 3rd… place").fill("10 6 4 2")
    editor.locator("[data-save]").click()
    expect(page.locator("[data-messages]")).to_contain_text("The season 2025-2026 is saved.")
    page.goto(f"{base}/leagues/comite/manage/")
    expect(page.locator("[data-league-clubs]")).to_contain_text("Club B — invited")

    # each club's manager accepts (club B, members-only, lets the league name its players)
    for club, manager, names in ((a, manager_a, False), (b, manager_b, True)):
        log_in(page, manager)
        page.goto(f"{base}/clubs/{club.slug}/leagues/")
        if names:
            page.get_by_label("The league may name our players").check()
        page.locator("[data-accept='comite']").click()
        expect(page.locator("[data-club-leagues]")).to_contain_text("member")
    # the league's manager links Bruno now that club B is a member
    log_in(page, boss)
    page.goto(f"{base}/leagues/comite/manage/")
    link = page.locator("[data-link]")
    link.get_by_label("Club").select_option(label="Club B")
    link.get_by_label("Player").fill("Bruno")
    link.get_by_label("Licence").fill("0420")
    link.get_by_label("Série").fill("Open")
    link.get_by_role("button").click()
    expect(page.locator("[data-messages]")).to_contain_text("Bruno is linked")

    # Zoé gives her licence and claims her players in both clubs; each manager confirms
    log_in(page, zoe)
    page.goto(f"{base}/accounts/profile/licence/")
    page.get_by_label("Licence").fill("777")
    page.get_by_label("Série").fill("Open")
    page.locator("[data-person-form]").get_by_role("button").click()
    page.locator("[data-claim='club-a/Zoé']").click()
    page.locator("[data-claim='club-b/Zoé D.']").click()
    expect(page.locator("[data-claims]")).to_contain_text("waiting for the club's manager")
    for club, manager, name in ((a, manager_a, "Zoé"), (b, manager_b, "Zoé D.")):
        log_in(page, manager)
        page.goto(f"{base}/clubs/{club.slug}/leagues/")
        page.locator(f"[data-confirm-claim='{name}']").click()
        expect(page.locator("[data-claims]")).to_contain_text("No claim to confirm")
    person = Person.objects.get(licence="777")
    assert {p.club.slug for p in person.players.all()} == {"club-a", "club-b"}

    # club A's tournament: three members, and Bruno found by his licence across the league
    t = tournaments.create_tournament(
        a,
        name="Open de la Rive",
        date=datetime.date(2026, 3, 7),
        rules="fft",
        rounds=1,
        deals_per_round=4,
    )
    tournaments.register(
        t, [("member", Player.objects.get(club=a, name=n)) for n in ("Zoé", "Anna", "Marc")]
    )
    log_in(page, manager_a)
    page.goto(f"{base}/clubs/club-a/tournaments/{t.pk}/players/")
    page.locator("#add-guest summary").click()
    page.locator("[data-league-guests]").click()
    page.get_by_label("Licence or name").fill("0420")
    page.locator("[data-guest-search]").get_by_role("button").click()
    page.locator("[data-enter-guest='0420']").click()
    expect(page.locator("[data-messages]")).to_contain_text("4. Bruno")
    guest = t.entries.get(number=4)
    assert guest.is_guest and guest.person.licence == "0420" and guest.guest_club == "Club B"

    # counted in the league season by club A's manager, then played and closed
    page.goto(f"{base}/clubs/club-a/leagues/")
    count = page.locator("[data-count]")
    count.get_by_label("Coefficient").fill("2")
    count.get_by_role("button").click()
    close(t)
    stored = {r.person_id: r for r in EventResult.objects.all()}
    bruno = Person.objects.get(licence="0420")

    # the ranking: the scale's points × 2, for the two licensed players
    page.goto(f"{base}/leagues/comite/")
    page.locator("[data-season='2025-2026']").click()
    ranking = page.locator("[data-league-ranking]")
    for who in (person, bruno):
        row = ranking.locator(f"[data-person='{who.pk}']")
        points = [10, 6, 4, 2][stored[who.pk].rank - 1] * 2
        expect(row.locator("[data-points]")).to_have_text(f"{points}.000")
        expect(row).to_contain_text(who.name)

    # Zoé's page: the event, and both clubs' seasons from their stored totals
    log_in(page, zoe)
    page.goto(f"{base}/accounts/profile/licence/")
    page.locator("[data-my-page]").click()
    expect(page.locator("[data-person-events]")).to_contain_text("Open de la Rive")
    expect(page.locator("[data-person-club='club-a']")).to_contain_text("2026")
    expect(page.locator("[data-person-club='club-b']")).to_contain_text("Zoé D.")
    expect(page.locator("[data-person-club='club-b']")).to_contain_text("2026")
    assert league.pk


@pytest.mark.parametrize("browser_locale", ["fr-FR"])
def test_the_league_managers_read_its_history(page, live_server, log_in, django_user_model):
    """The league's manager reaches the history from the league's page and reads, newest
    first and in French, the changes made by others: a club joining, a claim confirmed, a
    licence changed; a club's manager neither sees the link nor opens the page, and reads
    the claim on the club's own history."""
    base = live_server.url
    boss = django_user_model.objects.create_user("boss", password="pw-long-12345")
    league = leagues.create_league("Comité du Rhône", "comite", managers=[boss])
    a, manager_a = club_with_manager(django_user_model, "A")
    leagues.accept_invitation(leagues.invite_club(league, a, actor=boss), actor=manager_a)
    zoe = django_user_model.objects.create_user("zoe", password="pw-long-12345")
    Membership.objects.create(club=a, user=zoe, role=Role.MEMBER)
    leagues.set_person(zoe, name="Zoé", licence="777", serie="2ème", actor=zoe)
    claim = leagues.claim_player(Player.objects.create(club=a, name="Zoé"), actor=zoe)
    leagues.confirm_claim(claim, actor=manager_a)
    leagues.set_person(zoe, name="Zoé", licence="778", serie="1ère", actor=zoe)

    log_in(page, boss)
    page.goto(f"{base}/leagues/comite/")
    page.locator("[data-history]").click()
    expect(page.locator("h1")).to_have_text("Historique du Comité du Rhône")
    rows = page.locator("[data-league-history] tbody tr")
    expect(rows).to_have_count(5)
    expect(rows.nth(0)).to_contain_text("licence ou série modifiée")
    expect(rows.nth(0)).to_contain_text("zoe")
    # the field's name in French, the colon after a no-break space
    expect(rows.nth(0)).to_contain_text(re.compile(r"licence\s:\s777 → 778"))
    expect(rows.nth(0)).to_contain_text(re.compile(r"série\s:\s2ème → 1ère"))
    expect(rows.nth(1)).to_contain_text("joueur relié par une demande confirmée")
    expect(rows.nth(1)).to_contain_text("manager_A")
    expect(rows.nth(2)).to_contain_text("club entré dans la ligue")
    expect(rows.nth(3)).to_contain_text("club invité")
    expect(rows.nth(4)).to_contain_text("ligue créée")

    log_in(page, manager_a)
    page.goto(f"{base}/leagues/comite/")
    expect(page.locator("[data-league-name]")).to_be_visible()
    expect(page.locator("[data-history]")).to_have_count(0)
    response = page.goto(f"{base}/leagues/comite/manage/history/")
    assert response.status == 403
    page.goto(f"{base}/clubs/club-a/manage/history/")
    expect(page.locator("main")).to_contain_text("demande confirmée")
    expect(page.locator("main")).to_contain_text("joueur réclamé par un compte")
    expect(page.locator("main")).to_contain_text("licence ou série d’un licencié modifiée")


def _renamed(value, names):
    """A hand's data with its players' names replaced (nested announcements too)."""
    if isinstance(value, dict):
        return {key: _renamed(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [_renamed(item, names) for item in value]
    return names.get(value, value) if isinstance(value, str) else value


def test_the_league_ratings_on_a_phone(page, live_server, django_user_model, monkeypatch):
    """A person who plays in two member clubs is one row of the league's ratings, their
    hands of both clubs counted; the rows are ranked as ``league_rows`` ranks them and
    fit a phone's width; while a background re-rating is waiting, the page says so."""
    from leagues import rating_scope as league_ratings
    from ratings import queries as rating_queries
    from ratings.models import Recompute
    from tests.data import SEED_HANDS

    monkeypatch.setattr(rating_queries, "MIN_HANDS", 1)
    boss = django_user_model.objects.create_user("boss", password="pw-long-12345")
    league = leagues.create_league("Comité du Rhône", "comite", managers=[boss])
    names = {"a": ["Zoé", "Anna", "Marc", "Paul"], "b": ["Zoé D.", "Bruno", "Carla", "Denis"]}
    seated = {}
    for key in ("a", "b"):
        club, _manager = club_with_manager(django_user_model, key.upper())
        leagues.accept_invitation(leagues.invite_club(league, club))
        season = Season.objects.create(club=club, name="2026", start_date=datetime.date(2026, 1, 1))
        players = [Player.objects.create(club=club, name=n) for n in names[key]]
        seated[key] = (season, players)
    zoe = leagues.link_by_licence(league, seated["a"][1][0], "L-ZOE", actor=boss)
    leagues.link_player(seated["b"][1][0], zoe)
    for day, key in ((2, "a"), (9, "b")):
        season, players = seated[key]
        sheet = sheets.create_sheet(
            season=season, players=players, date=datetime.date(2026, 2, day)
        )
        renamed = dict(zip(["Anna", "Bert", "Carl", "Dora"], [p.name for p in players]))
        for data in SEED_HANDS:
            sheets.record_hand(sheet, _renamed(data, renamed))
    rows, _left_out = league_ratings.league_rows(league)

    page.goto(f"{live_server.url}/leagues/comite/")
    page.locator("[data-ratings-link]").tap()
    table = page.locator("[data-league-ratings]")
    expect(table.locator("tbody tr[data-rated]")).to_have_count(7)  # Zoé once, 6 others
    shown = table.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert shown == [row["name"] for row in rows]
    zoe_row = table.locator("tbody tr", has_text="Zoé")
    expect(zoe_row).to_have_count(1)
    expect(zoe_row.locator("td").nth(4)).to_have_text(str(2 * len(SEED_HANDS)))
    # the rating shown, whole: 1000 + 40 (μ − 3σ)
    zoe_rating = next(r["rating"] for r in rows if r["name"].startswith("Zoé"))
    shown_rating = zoe_row.locator("td").nth(2).inner_text()
    assert shown_rating.replace(",", "") == str(round(zoe_rating.ordinal))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    expect(page.locator("[data-ratings-recomputing]")).to_have_count(0)

    # a background re-rating waiting for the worker (the tests' backend would run it at once)
    Recompute.objects.create(scope=league_ratings.key(league.pk))
    page.reload()
    expect(page.locator("[data-ratings-recomputing]")).to_be_visible()
