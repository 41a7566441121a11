"""The organiser chooses a duplicate event's movement on its page: every movement that
fits the 22 players entered is listed with its repeated meetings and its players resting,
the fewest repeated meetings preselected; choosing another one draws the rounds on it."""

import datetime

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from tournaments import services
from tournaments.duplicate import services as duplicate_services
from tournaments.models import Tournament

pytestmark = pytest.mark.browser


@pytest.fixture
def event(django_user_model, club):
    organiser = django_user_model.objects.create_user("organiser", password="a-long-pass-1")
    Membership.objects.create(club=club, user=organiser, role=Role.MANAGER)
    players = [Player.objects.create(club=club, name=f"Joueur {i:02d}") for i in range(1, 23)]
    t = duplicate_services.create_duplicate(
        club, name="Donnes préparées", date=datetime.date(2026, 6, 6), rounds=4, deals_per_set=3
    )
    services.register(t, [("member", p) for p in players])
    duplicate_services.draw_movement(t)
    return t, organiser


def test_the_movement_chosen_among_those_that_fit(page, live_server, log_in, event, axe_check):
    t, organiser = event
    log_in(page, organiser)
    page.goto(f"{live_server.url}/clubs/{t.club.slug}/tournaments/{t.pk}/duplicate/")
    page.locator("[data-choose-movement-link]").click()
    options = page.locator("[data-movement-option]")
    expect(options).to_have_count(2)
    fewest, cyclic = options.nth(0), options.nth(1)
    expect(fewest.locator("[data-preselected]")).to_be_visible()
    expect(fewest.get_by_role("radio")).to_be_checked()
    # the fixed moves meet more often and rest fewer players a round
    meetings = cyclic.get_attribute("data-repeated")
    assert int(meetings) > int(fewest.get_attribute("data-repeated"))
    expect(cyclic).to_contain_text("étuis +")
    expect(fewest).to_contain_text("route card")
    axe_check(page)
    cyclic.get_by_role("radio").check()
    page.locator("[data-choose-movement]").click()
    expect(page.locator("[data-messages]")).to_contain_text("Movement chosen")
    assert Tournament.objects.get(pk=t.pk).movement == "cyclic"
    # the rounds are drawn again on it: the movement's page shows its meetings
    expect(page.locator("p[data-repeated]")).to_have_attribute("data-repeated", meetings)
    page.locator("[data-choose-movement-link]").click()
    expect(page.locator("[data-movement-option=cyclic]").get_by_role("radio")).to_be_checked()
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
