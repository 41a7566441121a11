"""A league's manager opens the held licence lines from the licence import, reads the
line a club's manager sent (the club, who sent it, what confirming does) and confirms
it: the person is made and the club's player linked; the page then has none waiting."""

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Membership, Player, Role
from leagues import licences
from leagues import services as leagues

pytestmark = pytest.mark.browser


def test_the_manager_confirms_a_held_line(page, live_server, log_in, django_user_model):
    boss = django_user_model.objects.create_user("boss", password="pw-long-12345")
    sender = django_user_model.objects.create_user("sender", password="pw-long-12345")
    league = leagues.create_league("Comité du Rhône", "comite", managers=[boss])
    club = Club.objects.create(name="Club A", slug="club-a")
    Membership.objects.create(club=club, user=sender, role=Role.MANAGER)
    leagues.accept_invitation(leagues.invite_club(league, club))
    jean = Player.objects.create(club=club, name="Jean Dupont")
    text = "Licence;Nom;Prénom;Club;Série\n1001;Dupont;Jean;Club A;Open\n"
    assert licences.import_licences(league, text, actor=sender, commit=True).counts["held"] == 1

    log_in(page, boss)
    page.goto(f"{live_server.url}/leagues/comite/manage/licences/")
    page.locator("[data-held-link]").click()
    line = page.locator("[data-held-lines] tbody tr")
    expect(line).to_have_count(1)
    expect(line).to_contain_text("Jean Dupont")
    expect(line).to_contain_text("Club A")
    expect(line).to_contain_text("sender")
    expect(line).to_contain_text("new person · links the club's player Jean Dupont")

    line.get_by_role("button", name="Confirm 1001").click()
    expect(page.get_by_text("Held lines confirmed: 1 created, 0 updated, 1 linked")).to_be_visible()
    expect(page.locator("[data-no-held]")).to_be_visible()
    jean.refresh_from_db()
    assert jean.person.licence == "1001" and jean.person.serie == "Open"
