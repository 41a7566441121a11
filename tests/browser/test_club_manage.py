"""A manager at work on a phone: members, house rules, a members-only club."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from clubs import invitations
from clubs.models import Club, Membership, Role, Season
from clubs.permissions import can
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


@pytest.fixture
def club(db):
    return Club.objects.create(name="Club de la Rive", slug="rive")


@pytest.fixture
def manager(make_user, club):
    user = make_user("marie")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


def log_in_with_the_form(page, live_server, username, next_path):
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_role("main").get_by_role("button").click()
    expect(page).to_have_url(live_server.url + next_path)


def test_manager_invites_a_member_and_makes_them_scorer(
    page, live_server, manager, make_user, club, mailoutbox
):
    bob = make_user("bob", first_name="Bob", last_name="Marley")
    log_in_with_the_form(page, live_server, "marie", "/clubs/rive/manage/members/")

    page.get_by_label("Email address").fill("bob@example.org")
    page.get_by_role("button", name="Send the invitation").click()

    expect(page.locator("[data-messages]")).to_contain_text("went to bob@example.org")
    expect(page.locator("#invitations")).to_be_visible()
    assert not Membership.objects.filter(club=club, user=bob).exists()  # not before accepting
    assert "bob" not in page.locator("main").inner_text().replace("bob@example.org", "")

    token = re.search(r"/invitations/(\S+)/", mailoutbox[0].body).group(1)
    invitations.accept(token, user=bob)
    page.reload()
    role = page.get_by_label("Role of Bob Marley")
    expect(role).to_have_value("member")
    role.select_option("scorer")
    page.get_by_role("button", name="Save Bob Marley").click()

    expect(page.locator("[data-messages]")).to_contain_text("Bob Marley is saved.")
    expect(page.get_by_label("Role of Bob Marley")).to_have_value("scorer")
    assert Membership.objects.get(club=club, user=bob).role == Role.SCORER
    # On a phone each member is a card: nothing sticks out sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_last_manager_cannot_step_down(page, live_server, manager):
    log_in_with_the_form(page, live_server, "marie", "/clubs/rive/manage/members/")

    page.get_by_label("Role of marie").select_option("member")
    page.get_by_role("button", name="Save marie").click()

    expect(page.get_by_role("alert")).to_contain_text("A club keeps at least one manager")
    expect(page.locator("tr[data-invalid]")).to_contain_text("marie")
    assert Membership.objects.get(user=manager).role == Role.MANAGER


def test_manager_changes_the_house_rules_of_a_season_and_sees_them(
    page, live_server, manager, club
):
    season = Season.objects.create(
        club=club, name="2026", start_date=datetime.date(2026, 1, 1), rules={"preset": "fft"}
    )
    log_in_with_the_form(page, live_server, "marie", "/clubs/rive/manage/seasons/")
    page.get_by_role("link", name=re.compile("^2026")).click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Season 2026")
    expect(page.get_by_text("never changes a sheet already started")).to_be_visible()
    ante = page.get_by_label("Ante")
    expect(ante).to_be_hidden()  # only for mouches
    page.get_by_label("Scoring rules").select_option("mouches")
    expect(ante).to_be_visible()
    ante.fill("20")
    page.get_by_text("To 10", exact=True).click()
    page.get_by_label("Single").fill("10")
    page.get_by_label("Double").fill("20")
    page.get_by_label("Misère").fill("10")
    page.get_by_label("No prise").check()
    page.get_by_role("button", name="Save the season").click()

    expect(page.locator("[data-messages]")).to_contain_text("Season 2026 saved.")
    summary = page.locator("#rules-summary")
    for item in ("Mouches: with pools", "rounded to 10", "poignées 10/20/40", "misère 10"):
        expect(summary).to_contain_text(item)
    expect(summary).to_contain_text("no prise")
    expect(summary).to_contain_text("ante 20")
    expect(page.get_by_label("Scoring rules")).to_have_value("mouches")
    expect(page.get_by_label("Ante")).to_have_value("20")
    season.refresh_from_db()
    assert season.rules == {
        "preset": "mouches",
        "rounding": 10,
        "misere": 10,
        "no_prise": True,
        "ante": 20,
        "poignee": [10, 20, 40],
    }

    page.get_by_role("link", name="Back to the seasons").click()
    season_link = page.get_by_role("link", name=re.compile("^2026"))
    expect(season_link).to_contain_text("Mouches: with pools · rounded to 10")


def test_bad_dates_are_refused_on_the_field(page, live_server, manager, club):
    log_in_with_the_form(page, live_server, "marie", "/clubs/rive/manage/seasons/")
    # no season yet: the form is open
    page.get_by_label("Name").fill("Printemps")
    page.get_by_label("Start").fill("2026-06-01")
    page.get_by_label("End (optional)").fill("2026-03-01")
    page.get_by_role("button", name="Create the season").click()

    expect(page.locator("#id_end_date_error")).to_contain_text("The end comes before the start.")
    assert not Season.objects.filter(club=club).exists()


def test_members_only_club_disappears_for_anonymous_visitors(
    page, live_server, manager, club, new_context
):
    log_in_with_the_form(page, live_server, "marie", "/clubs/rive/manage/")
    expect(page.locator("[data-visibility]")).to_have_text("Public")

    page.get_by_text("Members only", exact=True).click()
    page.get_by_role("button", name="Save the settings").click()

    expect(page.locator("[data-messages]")).to_contain_text("settings are saved")
    expect(page.locator("[data-visibility]")).to_have_text("Members only")
    club.refresh_from_db()
    assert not club.is_public

    from django.contrib.auth.models import AnonymousUser

    assert not can(AnonymousUser(), club, "read")
    anonymous = new_context().new_page()
    response = anonymous.goto(live_server.url + "/clubs/rive/")
    assert response.status == 404
    # and the managers' pages ask an anonymous visitor to log in
    anonymous.goto(live_server.url + "/clubs/rive/manage/")
    expect(anonymous).to_have_url(re.compile(r"/accounts/login/\?next="))


@pytest.mark.parametrize("browser_locale", ["fr-FR"])
def test_the_managers_pages_speak_french(page, live_server, manager, club):
    log_in_with_the_form(page, live_server, "marie", "/clubs/rive/manage/members/")

    expect(page.get_by_role("heading", level=1)).to_have_text("Membres")
    expect(page.get_by_role("button", name="Envoyer l’invitation")).to_be_visible()
    page.get_by_role("link", name="Saisons").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Saisons et règles maison")
    page.goto(live_server.url + "/accounts/profile/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Mon compte")
    expect(page.get_by_role("link", name="Gérer le club")).to_be_visible()
